// A server that echoes the caller's key anywhere it sends text — an HTTP error body, an in-stream
// error, a stop reason, a response id or model, data it sends broken — never gets any piece of the
// key longer than 6 characters into an event, the result, its diagnostics or its errorMessage,
// even where Keel quotes the text cut to a few hundred characters (the cut falls inside the key).
import { describe, expect, it } from "vitest";
import type { ScriptedResponse } from "../../../src/testing/wire-test-server.js";
import type { AssistantMessageEvent } from "../../../src/types.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import {
	anthropicSse,
	blockStop,
	messageDelta,
	messageStart,
	messageStop,
	textDelta,
	textStart,
} from "../anthropic/fixtures.js";
import { finishChunk, geminiSse, partsChunk } from "../google-generative-ai/fixtures.js";
import { mistralChunk, mistralSse } from "../mistral-conversations/fixtures.js";
import { chunk, sse } from "../openai-completions/fixtures.js";
import { created, responseObject, responsesSse } from "../openai-responses/fixtures.js";
import { API_CASES } from "./api-cases.js";

const wire = useWireTestServer();

/** A 46-character key, as OpenAI project keys and Anthropic keys are about that long or longer. */
const KEY = "sk-proj-Q7vX2mN9pL4kR8tY1wZ6bC3dF5gH0jK2sA9eU4";

/** Every piece of the key of 7 characters found in the text. */
function leakedPieces(text: string): string[] {
	const found: string[] = [];
	for (let start = 0; start + 7 <= KEY.length; start++) {
		const piece = KEY.slice(start, start + 7);
		if (text.includes(piece)) found.push(piece);
	}
	return found;
}

type Scenario = [name: string, response: () => ScriptedResponse | ScriptedResponse[]];

/** Text that puts the key across a cut at `cut` characters: the quote keeps only its first part. */
function keyAcross(cut: number, before = 9): string {
	return `${"x".repeat(cut - before)}${KEY} and more text after it`;
}

const COMMON: Scenario[] = [
	[
		"an HTTP error message cut where it is quoted (2000 characters)",
		() => ({ status: 400, body: { error: { message: keyAcross(1999), type: "invalid_request_error" } } }),
	],
	[
		"a plain-text HTTP error body cut where it is quoted",
		() => ({ status: 400, headers: { "content-type": "text/plain" }, body: keyAcross(1999) }),
	],
	[
		"a retried HTTP error, in the retry diagnostic",
		() => [
			{ status: 503, headers: { "retry-after-ms": "1" }, body: { error: { message: `busy for ${KEY}` } } },
			{ status: 400, body: { error: { message: `still ${KEY.slice(0, 30)}|${KEY.slice(30)}` } } },
		],
	],
	[
		"stream data that is not JSON, quoted and cut at 200 characters",
		() => ({ body: [`data: {"broken": "${keyAcross(190)}\n\n`] }),
	],
	[
		"an error object in a JSON body where the event stream was expected",
		() => ({ body: { error: { message: keyAcross(1999), code: "invalid_api_key" } } }),
	],
];

/** Where a JSON body is only quoted (Chat Completions decodes it as a whole completion instead). */
const OTHER_JSON_QUOTED: Scenario = [
	"a JSON body where the event stream was expected, quoted and cut at 200 characters",
	() => ({ body: { unexpected: keyAcross(180) } }),
];

const BY_API: Record<string, Scenario[]> = {
	"anthropic-messages": [
		OTHER_JSON_QUOTED,
		[
			"an in-stream error event",
			() => ({
				body: [
					`event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: `bad key ${KEY}` } })}\n\n`,
				],
			}),
		],
		[
			"the stop reason",
			() => ({
				body: [
					anthropicSse([
						messageStart(),
						textStart(0),
						textDelta(0, "hi"),
						blockStop(0),
						messageDelta(KEY),
						messageStop,
					]),
				],
			}),
		],
		[
			"the response id and model",
			() => {
				const start = messageStart({}, KEY);
				(start.message as { id: string }).id = KEY;
				return {
					body: [
						anthropicSse([
							start,
							textStart(0),
							textDelta(0, "hi"),
							blockStop(0),
							messageDelta("end_turn"),
							messageStop,
						]),
					],
				};
			},
		],
	],
	"openai-completions": [
		[
			"an in-stream error chunk",
			() => ({ body: [sse([{ error: { message: `bad key ${KEY}`, code: "invalid_api_key" } }])] }),
		],
		[
			"the finish reason",
			() => ({ body: [sse([chunk({ role: "assistant", content: "hi" }), chunk({}, { finish: KEY })])] }),
		],
		[
			"the response id and model",
			() => ({
				body: [
					sse([
						chunk({ role: "assistant", content: "hi" }, { id: KEY, model: KEY }),
						chunk({}, { finish: "stop", id: KEY, model: KEY }),
					]),
				],
			}),
		],
	],
	"openai-responses": responsesScenarios(),
	"azure-openai-responses": responsesScenarios(),
	"openai-codex-responses": responsesScenarios(),
	"mistral-conversations": [
		[
			"an in-stream error object",
			() => ({
				body: [mistralSse([{ object: "error", message: `bad key ${KEY}`, type: "invalid_request_error", code: null }])],
			}),
		],
		[
			"the finish reason",
			() => ({ body: [mistralSse([mistralChunk({ content: "hi" }), mistralChunk({}, { finish: KEY })])] }),
		],
		[
			"the response id",
			() => ({
				body: [
					mistralSse([mistralChunk({ content: "hi" }, { id: KEY }), mistralChunk({}, { finish: "stop", id: KEY })]),
				],
			}),
		],
	],
	"google-generative-ai": geminiScenarios(),
	"google-vertex": geminiScenarios(),
};

function geminiScenarios(): Scenario[] {
	return [
		OTHER_JSON_QUOTED,
		[
			"an in-stream error object",
			() => ({ body: [geminiSse([{ error: { code: 400, message: `bad key ${KEY}`, status: "INVALID_ARGUMENT" } }])] }),
		],
		["the finish reason", () => ({ body: [geminiSse([partsChunk([{ text: "hi" }]), finishChunk(KEY)])] })],
		[
			"the finish message",
			() => ({
				body: [
					geminiSse([
						partsChunk([{ text: "hi" }]),
						{ ...finishChunk("SAFETY"), candidates: [{ finishReason: "SAFETY", finishMessage: keyAcross(1999) }] },
					]),
				],
			}),
		],
		[
			"the response id and model",
			() => ({
				body: [geminiSse([partsChunk([{ text: "hi" }], { responseId: KEY, modelVersion: KEY }), finishChunk()])],
			}),
		],
		[
			"a blocked prompt's reason",
			() => ({ body: [geminiSse([{ promptFeedback: { blockReason: KEY, blockReasonMessage: keyAcross(1999) } }])] }),
		],
	];
}

function responsesScenarios(): Scenario[] {
	return [
		OTHER_JSON_QUOTED,
		[
			"an in-stream error event",
			() => ({
				body: [responsesSse([{ type: "error", code: "invalid_api_key", message: `bad key ${KEY}`, param: null }])],
			}),
		],
		[
			"the reason of an incomplete response",
			() => ({
				body: [
					responsesSse([
						created(),
						{ type: "response.incomplete", response: responseObject("incomplete", { incomplete: KEY }) },
					]),
				],
			}),
		],
		[
			"the status of a response",
			() => ({ body: [responsesSse([created(), { type: "response.completed", response: responseObject(KEY) }])] }),
		],
		[
			"the response id and model",
			() => ({
				body: [
					responsesSse([
						{ type: "response.created", response: { ...responseObject("in_progress"), id: KEY, model: KEY } },
						{ type: "response.completed", response: { ...responseObject("completed"), id: KEY, model: KEY } },
					]),
				],
			}),
		],
		[
			"a failed response's error",
			() => ({
				body: [
					responsesSse([
						created(),
						{
							type: "response.failed",
							response: responseObject("failed", { error: { code: "server_error", message: keyAcross(1999) } }),
						},
					]),
				],
			}),
		],
	];
}

describe.each(API_CASES)("$name: a key the server echoes stays out of the result", (api) => {
	it.each([...COMMON, ...BY_API[api.name]])("%s", async (_name, response) => {
		const responses = response();
		wire.server.enqueue(...(Array.isArray(responses) ? responses : [responses]));
		const events: AssistantMessageEvent[] = [];
		const stream = api.stream(wire.server.url, { apiKey: KEY, maxRetries: 1 });
		for await (const event of stream) events.push(event);
		const result = await stream.result();
		// The server got the key: the scenario really echoed it.
		expect(wire.server.requests.length).toBeGreaterThan(0);
		expect(leakedPieces(JSON.stringify(events))).toEqual([]);
		expect(leakedPieces(JSON.stringify(result))).toEqual([]);
		// Something of the server's text was kept: the scenario reached the place it names.
		expect(JSON.stringify(result)).toContain("[redacted]");
	});
});

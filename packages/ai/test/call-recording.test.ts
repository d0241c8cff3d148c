// Recording a call (`recordCall`) and replaying it (`WireTestServer.enqueueRecording`): the replay
// gives the same events and result offline, a recording never holds the API key, and a malformed
// recording is refused with an error naming the problem, queueing nothing.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stream } from "../src/index.js";
import { recordCall } from "../src/testing/call-recorder.js";
import {
	type CallRecording,
	formatRecordedEvents,
	parseCallRecording,
	readCallRecording,
} from "../src/testing/call-recording.js";
import { WireTestServer } from "../src/testing/wire-test-server.js";
import type { AssistantMessageEvent, Context } from "../src/types.js";
import { collectEvents } from "./helpers/messages.js";
import { useWireTestServer } from "./helpers/wire-server.js";
import {
	anthropicSse,
	blockStop,
	claudeModel,
	inputJsonDelta,
	messageDelta,
	messageStart,
	messageStop,
	ping,
	TEST_KEY,
	textDelta,
	textStart,
	thinkingDelta,
	thinkingStart,
	toolUseStart,
} from "./providers/anthropic/fixtures.js";
import { serverModel, textStream } from "./providers/openai-completions/fixtures.js";

const wire = useWireTestServer();
const context: Context = { messages: [{ role: "user", content: "Hello", timestamp: 1 }] };

let folder = "";
beforeAll(async () => {
	folder = await mkdtemp(join(tmpdir(), "keel-call-recording-"));
});
afterAll(async () => {
	await rm(folder, { recursive: true, force: true });
});

// Thinking, text with multi-byte characters, a keep-alive ping and a tool call.
const body = anthropicSse([
	messageStart({ input_tokens: 12 }),
	thinkingStart(0),
	thinkingDelta(0, "Weigh it."),
	blockStop(0),
	textStart(1),
	ping,
	textDelta(1, "Grüße 👋 "),
	textDelta(1, "aus Köln"),
	blockStop(1),
	toolUseStart(2, "toolu_01", "lookup"),
	inputJsonDelta(2, '{"city":'),
	inputJsonDelta(2, '"Köln"}'),
	blockStop(2),
	messageDelta("tool_use", { output_tokens: 30 }),
	messageStop,
]);

/** Events without the timestamps that differ between two runs. */
function comparable(events: AssistantMessageEvent[]): unknown {
	return JSON.parse(JSON.stringify(events, (key, value) => (key === "timestamp" ? 0 : value)));
}

async function replay(recording: CallRecording, options: Parameters<WireTestServer["enqueueRecording"]>[1] = {}) {
	const server = await WireTestServer.start();
	try {
		server.enqueueRecording(recording, options);
		const call = stream(claudeModel({ baseUrl: server.url }), context, { apiKey: "replay-key" });
		return { events: await collectEvents(call), result: await call.result() };
	} finally {
		await server.close();
	}
}

describe("recordCall and enqueueRecording", () => {
	it("a call recorded, saved and replayed through a fresh server gives the same events and result", async () => {
		wire.server.enqueue({ body: [body] });
		const recorder = recordCall({ apiKey: TEST_KEY });
		const original = stream(claudeModel({ baseUrl: wire.server.url }), context, recorder.options);
		const originalEvents = await collectEvents(original);
		const path = join(folder, "nested", "tool-call.json");
		await recorder.save(path);

		const recording = await readCallRecording(path);
		expect(recording).toMatchObject({
			format: "keel-call-recording",
			version: 1,
			api: "anthropic-messages",
			provider: "anthropic",
			model: "claude-sonnet-4-20250514",
		});
		expect(recording.responses).toHaveLength(1);
		expect(recording.responses[0].status).toBe(200);
		// The exact bytes the server sent, event for event.
		expect(formatRecordedEvents(recording.responses[0].events).join("")).toBe(body);

		const replayed = await replay(recording);
		expect(comparable(replayed.events)).toEqual(comparable(originalEvents));
		expect(replayed.result.stopReason).toBe("toolUse");
		expect(replayed.result.content[1]).toEqual({ type: "text", text: "Grüße 👋 aus Köln" });
	});

	it("replays cut into byte pieces (inside lines and characters) to the same result", async () => {
		wire.server.enqueue({ body: [body] });
		const recorder = recordCall({ apiKey: TEST_KEY });
		const original = await stream(claudeModel({ baseUrl: wire.server.url }), context, recorder.options).result();
		const replayed = await replay(recorder.toJSON(), { chunkBytes: 13 });
		expect({ ...replayed.result, timestamp: 0 }).toEqual({ ...original, timestamp: 0 });
	});

	it("records every attempt: a retried 529 with its retry-after, then the stream", async () => {
		wire.server.enqueue(
			{
				status: 529,
				headers: { "retry-after-ms": "1", "request-id": "req_1" },
				body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
			},
			{ body: [body] },
		);
		const recorder = recordCall({ apiKey: TEST_KEY });
		await stream(claudeModel({ baseUrl: wire.server.url }), context, recorder.options).result();
		const recording = recorder.toJSON();
		expect(recording.responses.map((response) => [response.status, response.events.length])).toEqual([
			[529, 0],
			[200, 15],
		]);
		expect(recording.responses[0].headers).toEqual({ "content-type": "application/json", "retry-after-ms": "1" });

		const replayed = await replay(recording);
		expect(replayed.result.stopReason).toBe("toolUse");
		expect(replayed.result.diagnostics?.map((entry) => entry.type)).toEqual(["retry"]);
	});

	it("never holds the API key, the request or headers Keel does not read", async () => {
		const errorEvent = { type: "error", error: { type: "invalid_request_error", message: `bad key ${TEST_KEY}` } };
		wire.server.enqueue({
			headers: { "anthropic-organization-id": "org-secret", "request-id": "req_2" },
			body: [anthropicSse([messageStart(), errorEvent as never])],
		});
		const recorder = recordCall({ apiKey: TEST_KEY });
		const result = await stream(claudeModel({ baseUrl: wire.server.url }), context, recorder.options).result();
		expect(result.stopReason).toBe("error");
		const text = JSON.stringify(recorder.toJSON());
		expect(text).not.toContain(TEST_KEY);
		expect(text).toContain("bad key [redacted]");
		expect(text).not.toContain("Hello"); // the request's conversation
		expect(recorder.toJSON().responses[0].headers).toEqual({ "content-type": "text/event-stream" });
	});

	it("keeps a Chat Completions stream byte for byte: unnamed events and the closing [DONE]", async () => {
		const chatBody = textStream("Grüße aus Köln");
		wire.server.enqueue({ body: [chatBody] });
		const recorder = recordCall({ apiKey: "sk-chat-secret" });
		const original = await stream(serverModel(wire.server.url), context, recorder.options).result();
		const recording = recorder.toJSON();
		expect(recording.api).toBe("openai-completions");
		expect(formatRecordedEvents(recording.responses[0].events).join("")).toBe(chatBody);

		const server = await WireTestServer.start();
		try {
			server.enqueueRecording(recording, { chunkBytes: 3 });
			const replayed = await stream(serverModel(server.url), context, { apiKey: "k" }).result();
			expect({ ...replayed, timestamp: 0 }).toEqual({ ...original, timestamp: 0 });
		} finally {
			await server.close();
		}
	});

	it("still runs the caller's own onResponse and onRawEvent", async () => {
		wire.server.enqueue({ body: [body] });
		const statuses: number[] = [];
		let rawEvents = 0;
		const recorder = recordCall({
			apiKey: TEST_KEY,
			onResponse: (response) => void statuses.push(response.status),
			onRawEvent: () => void rawEvents++,
		});
		await stream(claudeModel({ baseUrl: wire.server.url }), context, recorder.options).result();
		expect(statuses).toEqual([200]);
		expect(rawEvents).toBe(15);
		expect(recorder.toJSON().responses[0].events).toHaveLength(15);
	});
});

describe("a malformed recording or replay option", () => {
	const valid = (): CallRecording => ({
		format: "keel-call-recording",
		version: 1,
		api: "anthropic-messages",
		provider: "anthropic",
		model: "claude-sonnet-4-20250514",
		responses: [{ status: 200, headers: {}, events: [{ event: "message_stop", data: '{"type":"message_stop"}' }] }],
	});

	for (const [problem, change, message] of [
		["not an object", () => [], "expected a JSON object, got an array"],
		[
			"another format",
			(value: CallRecording) => ({ ...value, format: "har" }),
			'"format" must be "keel-call-recording", got "har"',
		],
		["a later version", (value: CallRecording) => ({ ...value, version: 2 }), '"version" must be 1, got number 2'],
		[
			"no responses array",
			(value: CallRecording) => ({ ...value, responses: undefined }),
			'"responses" must be an array, got nothing',
		],
		[
			"a status out of range",
			(value: CallRecording) => ({ ...value, responses: [{ ...value.responses[0], status: 42 }] }),
			"responses[0].status must be an HTTP status from 200 to 599, got number 42",
		],
		[
			"event data that is not text",
			(value: CallRecording) => ({
				...value,
				responses: [{ status: 200, headers: {}, events: [{ data: { type: "x" } }] }],
			}),
			"responses[0].events[0].data must be a string, got an object",
		],
		[
			"a carriage return in data",
			(value: CallRecording) => ({ ...value, responses: [{ status: 200, headers: {}, events: [{ data: "a\rb" }] }] }),
			"responses[0].events[0].data must not contain a carriage return",
		],
	] as const) {
		it(`is refused with the problem named: ${problem}`, () => {
			expect(() => parseCallRecording((change as (value: CallRecording) => unknown)(valid()), "fixture.json")).toThrow(
				`Not a valid Keel call recording (fixture.json): ${message}`,
			);
		});
	}

	it("queues nothing on the server when any part is wrong", () => {
		wire.server.enqueue({ body: "data: {}\n\n" });
		const broken = { ...valid(), responses: [valid().responses[0], { status: 200, headers: { a: 1 }, events: [] }] };
		expect(() => wire.server.enqueueRecording(broken as unknown as CallRecording)).toThrow(
			'Not a valid Keel call recording (the recording): responses[1].headers["a"] must be a string, got number 1',
		);
		expect(wire.server.pending).toBe(1);
	});

	it("with no responses is refused: there is nothing to replay", () => {
		expect(() => wire.server.enqueueRecording({ ...valid(), responses: [] })).toThrow(
			"The recording has no responses to replay: the recorded call never got an answer",
		);
		expect(wire.server.pending).toBe(0);
	});

	it("is not replayed with a chunk size that is not a positive whole number", () => {
		expect(() => wire.server.enqueueRecording(valid(), { chunkBytes: 0 })).toThrow(
			"enqueueRecording: chunkBytes must be a positive whole number, got 0",
		);
		expect(wire.server.pending).toBe(0);
	});

	it("read from a file that is not JSON names the file and leaves it as it was", async () => {
		const path = join(folder, "truncated.json");
		await writeFile(path, '{"format": "keel-call-recording", "responses": [', "utf8");
		await expect(readCallRecording(path)).rejects.toThrow(
			`Not a valid Keel call recording (${path}): the file is not JSON`,
		);
		expect(await readFile(path, "utf8")).toBe('{"format": "keel-call-recording", "responses": [');
	});
});

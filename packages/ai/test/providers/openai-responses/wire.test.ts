// End to end: the provider against the local wire-test server, in the Responses SSE format.
import { Type } from "@sinclair/typebox";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { completeSimple, defineModel } from "../../../src/index.js";
import { streamOpenAIResponses, streamSimpleOpenAIResponses } from "../../../src/providers/openai-responses/index.js";
import type { AssistantMessage, Context, Message, Model } from "../../../src/types.js";
import { collectEvents } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import {
	completed,
	created,
	eventTypes,
	functionCallEvents,
	messageEvents,
	reasoningEvents,
	reasoningModel,
	responseObject,
	responsesModel,
	responsesSse,
} from "./fixtures.js";

const API_KEY = "sk-test-secret-key-123";
const wire = useWireTestServer();
let model: Model<"openai-responses">;

beforeAll(() => {
	model = responsesModel({ baseUrl: wire.server.url });
});
afterEach(() => {
	vi.unstubAllEnvs();
});

const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "Hi", timestamp: 1 }] };
/** Cuts the UTF-8 bytes one byte into every multi-byte character (so each one spans two writes). */
function splitInsideMultiByteCharacters(text: string): Uint8Array[] {
	const bytes = new TextEncoder().encode(text);
	const pieces: Uint8Array[] = [];
	let start = 0;
	for (let offset = 0; offset < bytes.length; offset++) {
		if (bytes[offset] >= 0xc0) {
			pieces.push(bytes.subarray(start, offset + 1));
			start = offset + 1;
		}
	}
	pieces.push(bytes.subarray(start));
	return pieces;
}

const fast = { apiKey: API_KEY, maxRetries: 0, idleTimeoutMs: 2000 };

describe("openai-responses over the wire", () => {
	it("streams text and sends the request to /responses with the key", async () => {
		wire.server.enqueue({
			body: [responsesSse([created(), ...messageEvents(0, ["Hello", ", ", "world"])]), responsesSse([completed()])],
		});
		const stream = streamOpenAIResponses(model, context, { ...fast, maxTokens: 100 });
		const events = await collectEvents(stream);
		expect(eventTypes(events)).toEqual([
			"start",
			"text_start",
			"text_delta",
			"text_delta",
			"text_delta",
			"text_end",
			"done",
		]);
		const result = await stream.result();
		expect(result.content).toEqual([{ type: "text", text: "Hello, world", textSignature: '{"v":1,"id":"msg_0"}' }]);
		expect(result.usage).toMatchObject({ input: 10, output: 5, totalTokens: 15 });
		const request = wire.server.lastRequest;
		expect(request?.method).toBe("POST");
		expect(request?.url).toBe("/responses");
		expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
		expect(request?.json).toMatchObject({ model: "gpt-test", stream: true, store: false, max_output_tokens: 100 });
	});

	it("decodes tool arguments split inside UTF-8 characters and lines, several calls in one message", async () => {
		const args = '{"text":"grüße € 😀 中文","n":1}';
		const sse = responsesSse([
			created(),
			...functionCallEvents(0, "echo", [args.slice(0, 9), args.slice(9, 17), args.slice(17)], {
				callId: "call_a",
				id: "fc_a",
			}),
			...functionCallEvents(1, "noop", ["{}"], { callId: "call_b", id: "fc_b" }),
			completed(),
		]);
		const pieces = splitInsideMultiByteCharacters(sse);
		expect(pieces.length).toBeGreaterThan(8);
		wire.server.enqueue({ body: pieces });
		const result = await streamOpenAIResponses(model, context, fast).result();
		expect(result.stopReason).toBe("toolUse");
		expect(result.content).toEqual([
			{ type: "toolCall", id: "call_a|fc_a", name: "echo", arguments: { text: "grüße € 😀 中文", n: 1 } },
			{ type: "toolCall", id: "call_b|fc_b", name: "noop", arguments: {} },
		]);
	});

	it("replays encrypted reasoning, the message phase and callId|itemId on the next request", async () => {
		const reasoner = reasoningModel({ baseUrl: wire.server.url });
		wire.server.enqueue({
			body: responsesSse([
				created(),
				...reasoningEvents(0, [["Check ", "the file"]], { id: "rs_7", encrypted: "gAAAA-secret-thoughts" }),
				...messageEvents(1, ["Reading."], { id: "msg_7", phase: "commentary" }),
				...functionCallEvents(2, "read", ['{"path":"a"}'], { callId: "call_7", id: "fc_7" }),
				completed({ input_tokens: 20, cached: 8, output_tokens: 30, reasoning: 12 }),
			]),
		});
		const first = await streamOpenAIResponses(reasoner, context, { ...fast, reasoningEffort: "high" }).result();
		expect(first.content[0]).toMatchObject({ type: "thinking", thinking: "Check the file" });
		expect(first.usage).toMatchObject({ input: 12, cacheRead: 8, output: 30, totalTokens: 50 });
		expect(wire.server.lastRequest?.json).toMatchObject({
			reasoning: { effort: "high", summary: "auto" },
			include: ["reasoning.encrypted_content"],
			input: [{ role: "developer", content: "Be brief." }, { role: "user" }],
		});

		wire.server.enqueue({ body: responsesSse([created(), ...messageEvents(0, ["Done."]), completed()]) });
		const history: Message[] = [
			...context.messages,
			first,
			{
				role: "toolResult",
				toolCallId: "call_7|fc_7",
				toolName: "read",
				content: [{ type: "text", text: "contents" }],
				isError: false,
				timestamp: 2,
			},
		];
		await streamOpenAIResponses(
			reasoner,
			{ ...context, messages: history },
			{ ...fast, reasoningEffort: "high" },
		).result();
		const input = (wire.server.lastRequest?.json as { input: Record<string, unknown>[] } | undefined)?.input ?? [];
		expect(input.slice(2)).toEqual([
			{
				type: "reasoning",
				id: "rs_7",
				summary: [{ type: "summary_text", text: "Check the file" }],
				encrypted_content: "gAAAA-secret-thoughts",
			},
			{
				type: "message",
				role: "assistant",
				id: "msg_7",
				status: "completed",
				content: [{ type: "output_text", text: "Reading.", annotations: [] }],
				phase: "commentary",
			},
			{ type: "function_call", call_id: "call_7", id: "fc_7", name: "read", arguments: '{"path":"a"}' },
			{ type: "function_call_output", call_id: "call_7", output: "contents" },
		]);
	});

	it("maps the unified reasoning level and default maxTokens in streamSimple, and runs through the registry", async () => {
		const reasoner = reasoningModel({ baseUrl: wire.server.url, maxTokens: 50_000 });
		wire.server.enqueue({ body: responsesSse([created(), ...messageEvents(0, ["ok"]), completed()]) });
		await streamSimpleOpenAIResponses(reasoner, context, { ...fast, reasoning: "minimal" }).result();
		expect(wire.server.lastRequest?.json).toMatchObject({
			reasoning: { effort: "minimal", summary: "auto" },
			max_output_tokens: 32000,
		});

		wire.server.enqueue({ body: responsesSse([created(), ...messageEvents(0, ["via registry"]), completed()]) });
		const result = await completeSimple(reasoner, context, fast);
		expect(result.content[0]).toMatchObject({ text: "via registry" });
		expect(wire.server.lastRequest?.json).not.toHaveProperty("reasoning");
	});

	it("lets onPayload replace the body and reports the response through onResponse", async () => {
		wire.server.enqueue({
			headers: { "x-request-id": "req_42" },
			body: responsesSse([created(), ...messageEvents(0, ["ok"]), completed()]),
		});
		const seen: { status: number; requestId?: string }[] = [];
		await streamOpenAIResponses(model, context, {
			...fast,
			onPayload: (payload) => ({ ...(payload as object), model: "replaced-model", metadata: { trace: "t1" } }),
			onResponse: (response) => {
				seen.push({ status: response.status, requestId: response.headers["x-request-id"] });
			},
		}).result();
		expect(wire.server.lastRequest?.json).toMatchObject({ model: "replaced-model", metadata: { trace: "t1" } });
		expect(seen).toEqual([{ status: 200, requestId: "req_42" }]);
	});

	it("sends images, tools, the session cache key and long retention as the API expects", async () => {
		wire.server.enqueue({ body: responsesSse([created(), ...messageEvents(0, ["ok"]), completed()]) });
		const withImage: Context = {
			messages: [
				{
					role: "user",
					content: [
						{ type: "text", text: "What is this?" },
						{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
					],
					timestamp: 1,
				},
			],
			tools: [{ name: "lookup", description: "Look up", parameters: Type.Object({ q: Type.String() }) }],
		};
		await streamOpenAIResponses(model, withImage, { ...fast, sessionId: "session-9", cacheRetention: "long" }).result();
		expect(wire.server.lastRequest?.json).toMatchObject({
			prompt_cache_key: "session-9",
			tools: [{ type: "function", name: "lookup", strict: false, parameters: { type: "object" } }],
			input: [
				{
					role: "user",
					content: [
						{ type: "input_text", text: "What is this?" },
						{ type: "input_image", detail: "auto", image_url: "data:image/png;base64,iVBORw0KGgo=" },
					],
				},
			],
		});
		// The test server is not api.openai.com: no 24 h retention without the compat flag.
		expect(wire.server.lastRequest?.json).not.toHaveProperty("prompt_cache_retention");
	});

	it("sends a tool result's image as input_image in the function_call_output", async () => {
		wire.server.enqueue({
			body: responsesSse([created(), ...functionCallEvents(0, "screenshot", ["{}"]), completed()]),
		});
		const call = await streamOpenAIResponses(model, context, fast).result();
		const history: Message[] = [
			{ role: "user", content: "Take a screenshot", timestamp: 1 },
			call,
			{
				role: "toolResult",
				toolCallId: "call_0|fc_0",
				toolName: "screenshot",
				content: [{ type: "image", data: "R0lGODlh", mimeType: "image/gif" }],
				isError: false,
				timestamp: 2,
			},
		];
		wire.server.enqueue({ body: responsesSse([created(), ...messageEvents(0, ["a cat"]), completed()]) });
		await streamOpenAIResponses(model, { messages: history }, fast).result();
		const input = (wire.server.lastRequest?.json as { input: unknown[] } | undefined)?.input ?? [];
		expect(input.at(-1)).toEqual({
			type: "function_call_output",
			call_id: "call_0",
			output: [
				{ type: "input_text", text: "(see attached image)" },
				{ type: "input_image", detail: "auto", image_url: "data:image/gif;base64,R0lGODlh" },
			],
		});
	});

	it("sends option headers over model headers", async () => {
		const withHeaders = responsesModel({ baseUrl: wire.server.url, headers: { "x-team": "model", "x-keep": "yes" } });
		wire.server.enqueue({ body: responsesSse([created(), ...messageEvents(0, ["ok"]), completed()]) });
		await streamOpenAIResponses(withHeaders, context, { ...fast, headers: { "x-team": "option" } }).result();
		expect(wire.server.lastRequest?.headers).toMatchObject({ "x-team": "option", "x-keep": "yes" });
	});
});

describe("openai-responses stop reasons over the wire", () => {
	const terminal = (type: string, status: string, incomplete?: string) => ({
		type,
		response: responseObject(status, { incomplete, usage: { input_tokens: 5, output_tokens: 3 } }),
	});
	it.each([
		["response.completed", "completed", undefined, "stop", undefined],
		["response.incomplete", "incomplete", "max_output_tokens", "length", "max_output_tokens"],
		["response.incomplete", "incomplete", "content_filter", "error", "content_filter"],
		["response.failed", "failed", undefined, "error", "failed"],
		["response.completed", "cancelled", undefined, "error", "cancelled"],
		["response.completed", "in_progress", undefined, "stop", undefined],
		["response.completed", "queued", undefined, "stop", undefined],
		["response.completed", "awaiting_review", undefined, "error", "awaiting_review"],
	])("%s with status %s (%s) ends as %s, keeping text and usage", async (type, status, incomplete, stopReason, raw) => {
		wire.server.enqueue({
			body: responsesSse([created(), ...messageEvents(0, ["kept"]), terminal(type, status, incomplete)]),
		});
		const result = await streamOpenAIResponses(model, context, fast).result();
		expect(result.stopReason).toBe(stopReason);
		expect(result.rawStopReason).toBe(raw);
		expect(result.content[0]).toMatchObject({ text: "kept" });
		expect(result.usage).toMatchObject({ input: 5, output: 3 });
		expect(result.usage.cost.total).toBeGreaterThan(0);
	});

	it("completed with a function call ends as toolUse", async () => {
		wire.server.enqueue({ body: responsesSse([created(), ...functionCallEvents(0, "f", ["{}"]), completed()]) });
		expect((await streamOpenAIResponses(model, context, fast).result()).stopReason).toBe("toolUse");
	});
});

describe("openai-responses errors", () => {
	it.each([
		[400, "Invalid 'input[0]': unknown parameter.", "invalid_request_error"],
		[401, `Incorrect API key provided: ${API_KEY}.`, "invalid_request_error"],
		[404, "The model 'gpt-test' does not exist", "invalid_request_error"],
		[413, "Request too large", "invalid_request_error"],
		[429, "Rate limit reached for requests", "rate_limit_exceeded"],
		[500, "The server had an error while processing your request.", "server_error"],
		[503, "The engine is currently overloaded", "server_error"],
		[529, "Overloaded", "overloaded_error"],
	])(
		"HTTP %i becomes an error event with the status and OpenAI's message, never the key",
		async (status, message, type) => {
			wire.server.enqueue({ status, body: { error: { message, type, param: null, code: null } } });
			const result = await streamOpenAIResponses(model, context, fast).result();
			expect(result.stopReason).toBe("error");
			expect(result.errorMessage).toContain(`${status} `);
			expect(result.errorMessage).toContain(message.replace(API_KEY, "[redacted]"));
			expect(result.errorMessage).not.toContain(API_KEY);
			expect(result.usage.cost.total).toBe(0);
		},
	);

	it("gives onResponse the status and headers of an error response", async () => {
		wire.server.enqueue({
			status: 429,
			headers: { "x-ratelimit-remaining-requests": "0", "x-request-id": "req_err" },
			body: { error: { message: "Rate limit reached", type: "rate_limit_exceeded" } },
		});
		const seen: { status: number; headers: Record<string, string> }[] = [];
		const result = await streamOpenAIResponses(model, context, {
			...fast,
			onResponse: (response) => {
				seen.push(response);
			},
		}).result();
		expect(result.errorMessage).toContain("429 Rate limit reached (rate_limit_exceeded)");
		expect(seen).toHaveLength(1);
		expect(seen[0].status).toBe(429);
		expect(seen[0].headers).toMatchObject({ "x-ratelimit-remaining-requests": "0", "x-request-id": "req_err" });
	});

	it("retries a 429 that asks for retry-after-ms, then succeeds", async () => {
		wire.server.enqueue(
			{
				status: 429,
				headers: { "retry-after-ms": "5" },
				body: { error: { message: "Slow down", type: "rate_limit_exceeded" } },
			},
			{ body: responsesSse([created(), ...messageEvents(0, ["ok"]), completed()]) },
		);
		const result = await streamOpenAIResponses(model, context, { ...fast, maxRetries: 2 }).result();
		expect(result.stopReason).toBe("stop");
		expect(wire.server.requests).toHaveLength(2);
		expect(result.diagnostics?.[0]).toMatchObject({ type: "retry", details: { status: 429, delayMs: 5 } });
	});

	it("retries an in-stream rate-limit error event that comes before any content", async () => {
		wire.server.enqueue(
			{
				body: responsesSse([{ type: "error", code: "rate_limit_exceeded", message: "Too many requests", param: null }]),
			},
			{ body: responsesSse([created(), ...messageEvents(0, ["second try"]), completed()]) },
		);
		const result = await streamOpenAIResponses(model, context, { ...fast, maxRetries: 1, maxRetryDelayMs: 0 }).result();
		expect(result.content[0]).toMatchObject({ text: "second try" });
		expect(wire.server.requests).toHaveLength(2);
	}, 10_000);

	it("reads an in-stream error event whose code and message are nested under error, and retries it when the code says so", async () => {
		const nested = {
			type: "error",
			sequence_number: 1,
			error: { type: "server_error", code: "server_error", message: "The server had an error while processing" },
		};
		wire.server.enqueue(
			{ body: responsesSse([nested]) },
			{ body: responsesSse([created(), ...messageEvents(0, ["after retry"]), completed()]) },
		);
		const retried = await streamOpenAIResponses(model, context, {
			...fast,
			maxRetries: 1,
			maxRetryDelayMs: 0,
		}).result();
		expect(retried.content[0]).toMatchObject({ text: "after retry" });
		expect(wire.server.requests).toHaveLength(2);

		const invalid = { type: "error", error: { type: "invalid_request_error", message: "Bad tool schema" } };
		wire.server.enqueue({ body: responsesSse([invalid]) });
		const failed = await streamOpenAIResponses(model, context, { ...fast, maxRetries: 1, maxRetryDelayMs: 0 }).result();
		expect(failed.errorMessage).toBe("OpenAI stream error invalid_request_error: Bad tool schema");
		expect(wire.server.requests).toHaveLength(3);
	}, 10_000);

	it("reports a 200 answer with a JSON error body instead of an event stream", async () => {
		wire.server.enqueue({ body: { error: { message: "Model is warming up", code: "model_not_ready" } } });
		const result = await streamOpenAIResponses(model, context, fast).result();
		expect(result.errorMessage).toBe("OpenAI error model_not_ready: Model is warming up");
		wire.server.enqueue({ headers: { "content-type": "application/json" }, body: ['{"status":"ok"}'] });
		const other = await streamOpenAIResponses(model, context, fast).result();
		expect(other.errorMessage).toBe('OpenAI answered with JSON instead of an event stream: {"status":"ok"}');
	});

	it("ends data that is not JSON with one clear error, keeping the text before it, without a retry", async () => {
		wire.server.enqueue({
			body: `${responsesSse([created(), ...messageEvents(0, ["kept"]).slice(0, 3)])}event: response.output_text.delta\ndata: {oops\n\n`,
		});
		const result = await streamOpenAIResponses(model, context, { ...fast, maxRetries: 2 }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(
			/^OpenAI sent a stream event that is not JSON \(event "response.output_text.delta"\): .* \(data: \{oops\)$/,
		);
		expect(result.content).toMatchObject([{ type: "text", text: "kept" }]);
		expect(wire.server.requests).toHaveLength(1);
	});

	it("ends with an error keeping content and usage when response.failed arrives", async () => {
		wire.server.enqueue({
			body: responsesSse([
				created(),
				...messageEvents(0, ["partial"]),
				{
					type: "response.failed",
					response: responseObject("failed", {
						error: { code: "server_error", message: "Something broke" },
						usage: { input_tokens: 1_000_000, output_tokens: 0 },
					}),
				},
			]),
		});
		const result = await streamOpenAIResponses(model, context, fast).result();
		expect(result.errorMessage).toBe("OpenAI response failed: server_error: Something broke");
		expect(result.content[0]).toMatchObject({ text: "partial" });
		expect(result.usage.cost.input).toBe(2);
	});

	it("maps response.incomplete (max_output_tokens) to length", async () => {
		wire.server.enqueue({
			body: responsesSse([
				created(),
				...messageEvents(0, ["trunc"]),
				{ type: "response.incomplete", response: responseObject("incomplete", { incomplete: "max_output_tokens" }) },
			]),
		});
		const result = await streamOpenAIResponses(model, context, fast).result();
		expect(result.stopReason).toBe("length");
	});

	it("turns malformed SSE data into an error that keeps the text so far", async () => {
		wire.server.enqueue({
			body: [
				responsesSse([created(), ...messageEvents(0, ["kept"]).slice(0, 3)]),
				"event: response.output_text.delta\ndata: {not json\n\n",
			],
		});
		const result = await streamOpenAIResponses(model, context, fast).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/JSON/);
		expect(result.content[0]).toMatchObject({ type: "text", text: "kept" });
	});

	it("reports a connection cut mid-stream without retrying, keeping the partial text", async () => {
		wire.server.enqueue({ body: responsesSse([created(), ...messageEvents(0, ["half"]).slice(0, 3)]), cut: true });
		const result = await streamOpenAIResponses(model, context, { ...fast, maxRetries: 2 }).result();
		expect(result.stopReason).toBe("error");
		expect(result.content[0]).toMatchObject({ text: "half" });
		expect(wire.server.requests).toHaveLength(1);
	});

	it("reports a stream that ends without response.completed", async () => {
		wire.server.enqueue({ body: responsesSse([created(), ...messageEvents(0, ["no end"])]) });
		const result = await streamOpenAIResponses(model, context, fast).result();
		expect(result.errorMessage).toBe(
			"The OpenAI stream ended before the response was finished (no response.completed event)",
		);
	});

	it("bounds the whole request with timeoutMs, even before headers arrive", async () => {
		wire.server.enqueue({ stallBeforeHeaders: true });
		const result = await streamOpenAIResponses(model, context, { ...fast, timeoutMs: 50 }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("Request timed out after 50 ms (timeoutMs)");
	});

	it("reports an error object sent as stream data without a type", async () => {
		wire.server.enqueue({ body: ['data: {"error":{"message":"Upstream exploded","code":"upstream_error"}}\n\n'] });
		const result = await streamOpenAIResponses(model, context, fast).result();
		expect(result.errorMessage).toBe("OpenAI stream error upstream_error: Upstream exploded");
	});

	it("ends a stalled stream with the idle watchdog", async () => {
		wire.server.enqueue({ body: responsesSse([created(), ...messageEvents(0, ["stuck"]).slice(0, 3)]), stall: true });
		// Long enough for the first bytes to arrive on a busy machine; the stall after them is what ends it.
		const result = await streamOpenAIResponses(model, context, { ...fast, idleTimeoutMs: 2000 }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/No data received from the provider for 2000 ms/);
		expect(result.content[0]).toMatchObject({ text: "stuck" });
	});

	it("ends with a clear error when no key is set for OpenAI", async () => {
		vi.stubEnv("OPENAI_API_KEY", "");
		const result = await streamOpenAIResponses(model, context, { maxRetries: 0 }).result();
		expect(result.errorMessage).toBe('No API key for provider "openai": set OPENAI_API_KEY or pass options.apiKey');
		expect(wire.server.requests).toHaveLength(0);
	});

	it("calls a local server defined with defineModel without any key or OpenAI organisation header", async () => {
		vi.stubEnv("OPENAI_ORG_ID", "org-should-stay-home");
		const local = defineModel({ id: "openai/gpt-oss-20b", api: "openai-responses", baseUrl: `${wire.server.url}/v1/` });
		wire.server.enqueue({
			body: responsesSse([
				created(),
				{
					type: "response.reasoning_text.delta",
					output_index: 0,
					item_id: "rs_l",
					content_index: 0,
					delta: "local thought",
				},
				...messageEvents(1, ["local answer"]),
				completed(),
			]),
		});
		const result = await completeSimple(local, context, { maxRetries: 0 });
		expect(result.content).toMatchObject([
			{ type: "thinking", thinking: "local thought" },
			{ type: "text", text: "local answer" },
		]);
		expect(wire.server.lastRequest?.url).toBe("/v1/responses");
		expect(wire.server.lastRequest?.headers.authorization).toBeUndefined();
		expect(wire.server.lastRequest?.headers["openai-organization"]).toBeUndefined();
		expect(wire.server.lastRequest?.json).toMatchObject({ model: "openai/gpt-oss-20b" });
	});
});

describe("openai-responses abort", () => {
	it("aborted before the request: no request is sent", async () => {
		const controller = new AbortController();
		controller.abort();
		const result = await streamOpenAIResponses(model, context, { ...fast, signal: controller.signal }).result();
		expect(result.stopReason).toBe("aborted");
		expect(wire.server.requests).toHaveLength(0);
	});

	it("aborted mid-stream: aborted with the partial text kept", async () => {
		wire.server.enqueue({
			body: responsesSse([created(), ...messageEvents(0, ["partial ", "text"]).slice(0, 4)]),
			stall: true,
		});
		const controller = new AbortController();
		const stream = streamOpenAIResponses(model, context, { ...fast, signal: controller.signal });
		let last: AssistantMessage | undefined;
		for await (const event of stream) {
			if (
				event.type === "text_delta" &&
				event.partial.content[0]?.type === "text" &&
				event.partial.content[0].text === "partial text"
			) {
				controller.abort();
			}
			if (event.type === "error") last = event.error;
		}
		expect(last?.stopReason).toBe("aborted");
		expect(last?.content[0]).toMatchObject({ text: "partial text" });
		expect(last?.usage).toMatchObject({ input: 0, output: 0, cost: { total: 0 } });
	});

	it("aborted after done: the result stays done", async () => {
		wire.server.enqueue({ body: responsesSse([created(), ...messageEvents(0, ["ok"]), completed()]) });
		const controller = new AbortController();
		const stream = streamOpenAIResponses(model, context, { ...fast, signal: controller.signal });
		const result = await stream.result();
		controller.abort();
		expect(result.stopReason).toBe("stop");
		expect((await stream.result()).stopReason).toBe("stop");
	});
});

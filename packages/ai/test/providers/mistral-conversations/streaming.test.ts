// End to end: the provider against the wire-test server speaking Mistral's chat completions SSE.
import { describe, expect, it } from "vitest";
import { type Context, isContextOverflow } from "../../../src/index.js";
import { streamMistral, streamSimpleMistral } from "../../../src/providers/mistral-conversations/index.js";
import { splitBytes } from "../../../src/testing/wire-test-server.js";
import { collectEvents, userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import {
	magistralModel,
	mistralChunk,
	mistralModel,
	mistralSse,
	mistralTextStream,
	mistralToolCallStream,
} from "./fixtures.js";

const wire = useWireTestServer();

const context: Context = { systemPrompt: "Be brief.", messages: [userMessage("Hi")] };
const apiKey = "mistral-test-secret-key-123";

describe("mistral-conversations streaming", () => {
	it("posts to /v1/chat/completions with the key and streams text with usage and cost", async () => {
		wire.server.enqueue({
			body: mistralTextStream("Hello there", {
				prompt_tokens: 1_000_000,
				completion_tokens: 500_000,
				total_tokens: 1_500_000,
				prompt_tokens_details: { cached_tokens: 400_000 },
			}),
		});
		const stream = streamMistral(mistralModel({ baseUrl: wire.server.url }), context, { apiKey, sessionId: "s-1" });
		const events = await collectEvents(stream);
		const result = await stream.result();
		expect(events.map((event) => event.type)).toEqual(["start", "text_start", "text_delta", "text_end", "done"]);
		expect(result.content).toEqual([{ type: "text", text: "Hello there" }]);
		expect(result.stopReason).toBe("stop");
		expect(result.usage).toMatchObject({ input: 600_000, cacheRead: 400_000, output: 500_000, totalTokens: 1_500_000 });
		expect(result.usage.cost.total).toBeCloseTo(600_000 * 2e-6 + 400_000 * 0.5e-6 + 500_000 * 8e-6);
		const request = wire.server.lastRequest;
		expect(request?.method).toBe("POST");
		expect(request?.url).toBe("/v1/chat/completions");
		expect(request?.headers.authorization).toBe(`Bearer ${apiKey}`);
		expect(request?.headers["x-affinity"]).toBe("s-1");
		expect(request?.json).toMatchObject({
			model: "mistral-large-latest",
			stream: true,
			messages: [
				{ role: "system", content: "Be brief." },
				{ role: "user", content: "Hi" },
			],
		});
	});

	it("streams a tool call sent whole in one delta", async () => {
		wire.server.enqueue({ body: mistralToolCallStream("D681PevKs", "read", ['{"path":"a.txt"}']) });
		const result = await streamMistral(mistralModel({ baseUrl: wire.server.url }), context, { apiKey }).result();
		expect(result.stopReason).toBe("toolUse");
		expect(result.content).toEqual([{ type: "toolCall", id: "D681PevKs", name: "read", arguments: { path: "a.txt" } }]);
	});

	it("streams Magistral thinking chunks, split inside lines and multi-byte characters", async () => {
		const body = mistralSse([
			mistralChunk({
				role: "assistant",
				content: [{ type: "thinking", thinking: [{ type: "text", text: "Réfléchir… 🤔" }] }],
			}),
			mistralChunk({ content: [{ type: "text", text: "Voilà ✅" }] }, { finish: "stop" }),
		]);
		wire.server.enqueue({ body: splitBytes(body, 7) });
		const model = magistralModel({ baseUrl: wire.server.url });
		const result = await streamSimpleMistral(model, context, { apiKey, reasoning: "high" }).result();
		expect(result.content).toEqual([
			{ type: "thinking", thinking: "Réfléchir… 🤔" },
			{ type: "text", text: "Voilà ✅" },
		]);
		expect(wire.server.lastRequest?.json).toMatchObject({ prompt_mode: "reasoning" });
	});

	it("ends an unknown finish reason as an error with the raw reason and the content", async () => {
		wire.server.enqueue({
			body: mistralSse([mistralChunk({ content: "so far" }), mistralChunk({}, { finish: "brand_new" })]),
		});
		const result = await streamMistral(mistralModel({ baseUrl: wire.server.url }), context, { apiKey }).result();
		expect(result.stopReason).toBe("error");
		expect(result.rawStopReason).toBe("brand_new");
		expect(result.content).toEqual([{ type: "text", text: "so far" }]);
	});

	it("reads Mistral's error body, and its context-overflow text is recognised", async () => {
		wire.server.enqueue({
			status: 400,
			body: {
				object: "error",
				message:
					"Prompt contains 140000 tokens and 0 draft tokens, too large for model with 131072 maximum context length",
				type: "invalid_request_error",
				param: null,
				code: null,
			},
		});
		const result = await streamMistral(mistralModel({ baseUrl: wire.server.url }), context, { apiKey }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain("400 Prompt contains 140000 tokens");
		expect(isContextOverflow(result, 131_072)).toBe(true);
	});

	it("names the fields of a 422 validation error", async () => {
		wire.server.enqueue({
			status: 422,
			body: {
				object: "error",
				message: {
					detail: [
						{
							type: "extra_forbidden",
							loc: ["body", "safe_mode"],
							msg: "Extra inputs are not permitted",
							input: false,
						},
					],
				},
				type: "invalid_request_message_error",
				param: null,
				code: null,
			},
		});
		const result = await streamMistral(mistralModel({ baseUrl: wire.server.url }), context, { apiKey }).result();
		expect(result.errorMessage).toContain("422 Extra inputs are not permitted (body.safe_mode)");
		expect(wire.server.requests).toHaveLength(1);
	});

	it("retries a 429 and then streams the answer", async () => {
		wire.server.enqueue({
			status: 429,
			headers: { "retry-after": "0" },
			body: {
				object: "error",
				message: "Requests rate limit exceeded",
				type: "rate_limited",
				param: null,
				code: "1300",
			},
		});
		wire.server.enqueue({ body: mistralTextStream("ok") });
		const result = await streamMistral(mistralModel({ baseUrl: wire.server.url }), context, {
			apiKey,
			maxRetryDelayMs: 10,
		}).result();
		expect(result.stopReason).toBe("stop");
		expect(result.content).toEqual([{ type: "text", text: "ok" }]);
		expect(wire.server.requests).toHaveLength(2);
	});

	it("ends with the server's message when an error event arrives inside the stream", async () => {
		wire.server.enqueue({
			body: mistralSse(
				[
					mistralChunk({ content: "partial" }),
					{ object: "error", message: "Internal model failure", type: "internal_error", param: null, code: "3000" },
				],
				false,
			),
		});
		const result = await streamMistral(mistralModel({ baseUrl: wire.server.url }), context, { apiKey }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain("Mistral stream error 3000: Internal model failure");
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("ends as aborted when the caller aborts while waiting for the headers", async () => {
		wire.server.enqueue({ stallBeforeHeaders: true });
		const controller = new AbortController();
		const stream = streamMistral(mistralModel({ baseUrl: wire.server.url }), context, {
			apiKey,
			signal: controller.signal,
		});
		for await (const event of stream) if (event.type === "start") controller.abort();
		const result = await stream.result();
		expect(result.stopReason).toBe("aborted");
	});

	it("ends with an idle-timeout error when the stream stalls after some text, keeping the text", async () => {
		wire.server.enqueue({
			body: [mistralSse([mistralChunk({ role: "assistant", content: "so far" })], false)],
			stall: true,
		});
		// Generous: the first bytes must arrive before the limit, also on a busy machine; the stall after them is what ends the call.
		const result = await streamMistral(mistralModel({ baseUrl: wire.server.url }), context, {
			apiKey,
			idleTimeoutMs: 2000,
		}).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/idle|no data/i);
		expect(result.content).toEqual([{ type: "text", text: "so far" }]);
	});

	it("refuses a message with an unknown role with a clear error, sending nothing", async () => {
		const bad = { messages: [{ role: "developer", content: "x", timestamp: 0 }] } as unknown as Context;
		const result = await streamMistral(mistralModel({ baseUrl: wire.server.url }), bad, { apiKey }).result();
		expect(result.errorMessage).toBe(
			'context.messages[0] has role "developer": expected "system", "user", "assistant" or "toolResult"',
		);
		expect(wire.server.requests).toHaveLength(0);
	});
});

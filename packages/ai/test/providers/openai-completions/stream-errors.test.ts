// Errors a Chat Completions server reports inside a 200 response, end to end: every documented
// shape keeps the vendor's message and code, and a code that names a temporary condition is
// retried while nothing has been streamed yet.
import { describe, expect, it } from "vitest";
import { streamOpenAICompletions } from "../../../src/providers/openai-completions/index.js";
import type { Context } from "../../../src/types.js";
import { userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { chunk, serverModel, sse, textStream } from "./fixtures.js";

const wire = useWireTestServer();

const context: Context = { messages: [userMessage("Hi")] };
const apiKey = "sk-test-stream-errors-0123";

describe("openai-completions errors inside a 200 stream", () => {
	it.each([
		[
			"OpenAI's nested object",
			{ error: { message: "The server had an error", type: "server_error", param: null, code: null } },
			"openai stream error server_error: The server had an error",
		],
		[
			"a nested object whose code is more precise than its type (Groq)",
			{ error: { message: "Rate limit reached", type: "tokens", code: "rate_limit_exceeded" } },
			"openai stream error rate_limit_exceeded: Rate limit reached",
		],
		[
			"a numeric code (OpenRouter)",
			{ error: { code: 502, message: "Provider disconnected unexpectedly" } },
			"openai stream error 502: Provider disconnected unexpectedly",
		],
		["a string", { error: "upstream connect error" }, "openai stream error: upstream connect error"],
		[
			"a bare object without choices (vLLM, Mistral)",
			{ object: "error", message: "CUDA out of memory", type: "InternalServerError", param: null, code: 500 },
			"openai stream error 500: CUDA out of memory",
		],
		[
			"a bare object without `object`",
			{ message: "Request timed out", type: "timeout", code: "timeout" },
			"openai stream error timeout: Request timed out",
		],
		[
			"a nested object without a message",
			{ error: { code: "content_filter" } },
			'openai stream error content_filter: {"code":"content_filter"}',
		],
	])("reads %s, keeping the message, the code and the content so far", async (_shape, errorChunk, expected) => {
		wire.server.enqueue({ body: sse([chunk({ content: "Hi" }), errorChunk], false) });
		const result = await streamOpenAICompletions(serverModel(wire.server.url), context, { apiKey }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe(expected);
		expect(result.content).toEqual([{ type: "text", text: "Hi" }]);
	});

	it.each([
		["rate_limit_exceeded", { error: { message: "Slow down", type: "requests", code: "rate_limit_exceeded" } }],
		["server_error as the type", { error: { message: "Try again", type: "server_error", code: null } }],
		["a 429 code", { error: { code: 429, message: "Rate limited upstream" } }],
		["a 503 code as text", { error: { code: "503", message: "No provider available" } }],
		["a bare overloaded object", { message: "Engine overloaded", type: "overloaded_error", code: "overloaded" }],
	])("retries an error before any content when its code is transient: %s", async (_code, errorChunk) => {
		wire.server.enqueue({ body: sse([errorChunk], false) }, { body: textStream("after retry") });
		const result = await streamOpenAICompletions(serverModel(wire.server.url), context, {
			apiKey,
			maxRetries: 1,
			maxRetryDelayMs: 1,
		}).result();
		expect(wire.server.requests).toHaveLength(2);
		expect(result.stopReason).toBe("stop");
		expect(result.content).toEqual([{ type: "text", text: "after retry" }]);
		expect(result.diagnostics?.[0]).toMatchObject({ type: "retry" });
	});

	it.each([
		[
			"context_length_exceeded",
			{ error: { message: "Too long", type: "invalid_request_error", code: "context_length_exceeded" } },
		],
		["a 402 code", { error: { code: 402, message: "Insufficient credits" } }],
		["a string", { error: "bad request" }],
	])("does not retry an error whose code is not transient: %s", async (_code, errorChunk) => {
		wire.server.enqueue({ body: sse([errorChunk], false) }, { body: textStream("never sent") });
		const result = await streamOpenAICompletions(serverModel(wire.server.url), context, {
			apiKey,
			maxRetries: 2,
		}).result();
		expect(wire.server.requests).toHaveLength(1);
		expect(result.stopReason).toBe("error");
	});

	it("reads ordinary chunks that carry an empty error field as chunks", async () => {
		wire.server.enqueue({
			body: sse([
				{ ...chunk({ content: "fine" }), error: null },
				{ ...chunk({}, { finish: "stop" }), error: "" },
			]),
		});
		const result = await streamOpenAICompletions(serverModel(wire.server.url), context, { apiKey }).result();
		expect(result.stopReason).toBe("stop");
		expect(result.content).toEqual([{ type: "text", text: "fine" }]);
	});

	it("does not retry a transient error once content was streamed", async () => {
		wire.server.enqueue(
			{
				body: sse(
					[chunk({ content: "partial" }), { error: { message: "Slow down", code: "rate_limit_exceeded" } }],
					false,
				),
			},
			{ body: textStream("never sent") },
		);
		const result = await streamOpenAICompletions(serverModel(wire.server.url), context, {
			apiKey,
			maxRetries: 2,
		}).result();
		expect(wire.server.requests).toHaveLength(1);
		expect(result.errorMessage).toBe("openai stream error rate_limit_exceeded: Slow down");
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("reads OpenRouter's mid-stream error chunk, which also carries finish_reason error", async () => {
		wire.server.enqueue({
			body: sse(
				[
					chunk({ content: "Once" }),
					{
						id: "gen-1",
						object: "chat.completion.chunk",
						created: 1,
						model: "openai/gpt-5",
						provider: "OpenAI",
						error: { code: "server_error", message: "Provider disconnected unexpectedly" },
						choices: [{ index: 0, delta: { content: "" }, finish_reason: "error" }],
					},
				],
				false,
			),
		});
		const model = serverModel(wire.server.url, { provider: "openrouter", id: "openai/gpt-5" });
		const result = await streamOpenAICompletions(model, context, { apiKey }).result();
		expect(result.errorMessage).toBe("openrouter stream error server_error: Provider disconnected unexpectedly");
		expect(result.content).toEqual([{ type: "text", text: "Once" }]);
	});

	it("reads an error sent as a whole JSON body with status 200, and retries a transient one", async () => {
		wire.server.enqueue(
			{
				headers: { "content-type": "application/json" },
				body: { error: { message: "Overloaded, retry", type: "server_error", code: "server_is_overloaded" } },
			},
			{ body: textStream("after retry") },
		);
		const result = await streamOpenAICompletions(serverModel(wire.server.url), context, {
			apiKey,
			maxRetries: 1,
			maxRetryDelayMs: 1,
		}).result();
		expect(result.content).toEqual([{ type: "text", text: "after retry" }]);
		expect(result.diagnostics?.[0]?.error?.message).toBe("openai error server_is_overloaded: Overloaded, retry");
	});
});

// End to end: the provider against the wire-test server, streams in Chat Completions' SSE format.
import { describe, expect, it } from "vitest";
import {
	streamOpenAICompletions,
	streamSimpleOpenAICompletions,
} from "../../../src/providers/openai-completions/index.js";
import { splitBytes } from "../../../src/testing/wire-test-server.js";
import type { Context } from "../../../src/types.js";
import { collectEvents, userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { chunk, serverModel, sse, textStream, usageChunk } from "./fixtures.js";

const wire = useWireTestServer();

const context: Context = { systemPrompt: "Be brief.", messages: [userMessage("Hi")] };
const apiKey = "sk-test-secret-key-123";

describe("openai-completions streaming", () => {
	it("streams text with usage and cost, and posts to /chat/completions with the key", async () => {
		wire.server.enqueue({
			body: textStream("Hello there", {
				prompt_tokens: 1_000_000,
				completion_tokens: 500_000,
				total_tokens: 1_500_000,
				prompt_tokens_details: { cached_tokens: 400_000 },
				completion_tokens_details: { reasoning_tokens: 200_000 },
			} as never),
		});
		const stream = streamOpenAICompletions(serverModel(wire.server.url), context, { apiKey });
		const events = await collectEvents(stream);
		const result = await stream.result();
		expect(events.map((event) => event.type)).toEqual(["start", "text_start", "text_delta", "text_end", "done"]);
		expect(result.content).toEqual([{ type: "text", text: "Hello there" }]);
		expect(result.stopReason).toBe("stop");
		expect(result.responseId).toBe("chatcmpl-test");
		// Reasoning tokens are inside completion_tokens already: output is not 700k.
		expect(result.usage).toMatchObject({ input: 600_000, cacheRead: 400_000, output: 500_000, totalTokens: 1_500_000 });
		expect(result.usage.cost.total).toBeCloseTo(600_000 * 2e-6 + 400_000 * 0.5e-6 + 500_000 * 8e-6);
		const request = wire.server.lastRequest;
		expect(request?.url).toBe("/chat/completions");
		expect(request?.headers.authorization).toBe(`Bearer ${apiKey}`);
		expect(request?.json).toMatchObject({
			model: "gpt-4.1-mini",
			stream: true,
			stream_options: { include_usage: true },
		});
	});

	it("streams thinking from reasoning_content, then text", async () => {
		wire.server.enqueue({
			body: sse([
				chunk({ role: "assistant", reasoning_content: "Let me " }),
				chunk({ reasoning_content: "think." }),
				chunk({ content: "42" }),
				chunk({}, { finish: "stop" }),
			]),
		});
		const model = serverModel(wire.server.url, { provider: "deepseek", id: "deepseek-reasoner", reasoning: true });
		const result = await streamOpenAICompletions(model, context, { apiKey }).result();
		expect(result.content).toEqual([
			{ type: "thinking", thinking: "Let me think.", thinkingSignature: "reasoning_content" },
			{ type: "text", text: "42" },
		]);
	});

	it("assembles tool-call arguments split inside UTF-8 characters, several calls in one message", async () => {
		const body = sse([
			chunk({
				role: "assistant",
				tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "write", arguments: "" } }],
			}),
			chunk({ tool_calls: [{ index: 0, function: { arguments: '{"text":"héllo ' } }] }),
			chunk({ tool_calls: [{ index: 0, function: { arguments: 'wörld 🌍"}' } }] }),
			chunk({
				tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "read", arguments: '{"path":' } }],
			}),
			chunk({ tool_calls: [{ index: 1, function: { arguments: '"/tmp/ü"}' } }] }),
			chunk({}, { finish: "tool_calls" }),
			usageChunk({ prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 }),
		]);
		wire.server.enqueue({ body: splitBytes(body, 7) });
		const stream = streamOpenAICompletions(serverModel(wire.server.url), context, { apiKey });
		const events = await collectEvents(stream);
		const result = await stream.result();
		expect(result.stopReason).toBe("toolUse");
		expect(result.content).toEqual([
			{ type: "toolCall", id: "call_a", name: "write", arguments: { text: "héllo wörld 🌍" } },
			{ type: "toolCall", id: "call_b", name: "read", arguments: { path: "/tmp/ü" } },
		]);
		expect(events.filter((event) => event.type === "toolcall_end")).toHaveLength(2);
		expect(result.diagnostics).toBeUndefined();
	});

	it("turns an unknown finish reason (z.ai `sensitive`) into an error that keeps the content", async () => {
		wire.server.enqueue({
			body: sse([chunk({ role: "assistant", content: "Partial" }), chunk({}, { finish: "sensitive" })]),
		});
		const model = serverModel(wire.server.url, { provider: "zai", id: "glm-4.6" });
		const result = await streamOpenAICompletions(model, context, { apiKey }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("zai stopped the response: sensitive");
		expect(result.rawStopReason).toBe("sensitive");
		expect(result.content).toEqual([{ type: "text", text: "Partial" }]);
	});

	it("maps length to length, keeping usage on the final message", async () => {
		wire.server.enqueue({
			body: sse([
				chunk({ content: "Cut" }),
				chunk({}, { finish: "length" }),
				usageChunk({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }),
			]),
		});
		const result = await streamOpenAICompletions(serverModel(wire.server.url), context, { apiKey }).result();
		expect(result.stopReason).toBe("length");
		expect(result.usage.totalTokens).toBe(5);
	});

	it.each([400, 401, 404, 413, 429, 500, 503, 529])(
		"reports HTTP %i with the provider's message and never the key",
		async (status) => {
			wire.server.enqueue({
				status,
				body: { error: { message: `Problem ${status} for key ${apiKey}`, type: "invalid_request_error" } },
			});
			const result = await streamOpenAICompletions(serverModel(wire.server.url), context, {
				apiKey,
				maxRetries: 0,
			}).result();
			expect(result.stopReason).toBe("error");
			expect(result.errorMessage).toContain(`${status} Problem ${status} for key [redacted] (invalid_request_error)`);
			expect(result.errorMessage).not.toContain(apiKey);
		},
	);

	it("retries a 429 that asks for retry-after-ms, then streams", async () => {
		wire.server.enqueue(
			{ status: 429, headers: { "retry-after-ms": "5" }, body: { error: { message: "Rate limited" } } },
			{ body: textStream("after retry") },
		);
		const result = await streamOpenAICompletions(serverModel(wire.server.url), context, {
			apiKey,
			maxRetries: 1,
		}).result();
		expect(wire.server.requests).toHaveLength(2);
		expect(result.content).toEqual([{ type: "text", text: "after retry" }]);
		expect(result.diagnostics?.[0]).toMatchObject({ type: "retry", details: { status: 429 } });
	});

	it("appends OpenRouter's upstream error (metadata.raw) to the message", async () => {
		wire.server.enqueue({
			status: 400,
			body: {
				error: {
					message: "Provider returned error",
					code: 400,
					metadata: { raw: '{"error":"context too long"}', provider_name: "Anthropic" },
				},
			},
		});
		const model = serverModel(wire.server.url, { provider: "openrouter", id: "anthropic/claude-sonnet-4" });
		const result = await streamOpenAICompletions(model, context, { apiKey, maxRetries: 0 }).result();
		expect(result.errorMessage).toContain('400 Provider returned error\n{"error":"context too long"}');
	});

	it("reports an error event sent inside a 200 stream", async () => {
		wire.server.enqueue({
			body: sse([chunk({ content: "Hi" }), { error: { message: "Upstream overloaded mid-stream" } }], false),
		});
		const result = await streamOpenAICompletions(serverModel(wire.server.url), context, { apiKey }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("openai stream error: Upstream overloaded mid-stream");
		expect(result.content).toEqual([{ type: "text", text: "Hi" }]);
	});

	it("reports malformed SSE data as a clear error", async () => {
		wire.server.enqueue({ body: `${sse([chunk({ content: "ok" })], false)}data: {not json\n\n` });
		const result = await streamOpenAICompletions(serverModel(wire.server.url), context, { apiKey }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/^openai sent a stream event that is not JSON: /);
		expect(result.content).toEqual([{ type: "text", text: "ok" }]);
	});

	it("reports a connection cut mid-stream and keeps the partial text", async () => {
		wire.server.enqueue({ body: sse([chunk({ content: "half an ans" })], false), cut: true });
		const result = await streamOpenAICompletions(serverModel(wire.server.url), context, { apiKey }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(
			/^The connection to openai closed before the response was finished: terminated/,
		);
		expect(result.content).toEqual([{ type: "text", text: "half an ans" }]);
	});

	it("ends a stalled stream through the idle watchdog", async () => {
		wire.server.enqueue({ body: sse([chunk({ content: "waiting" })], false), stall: true });
		// Generous: the first bytes must arrive before the limit, also on a busy machine; the stall after them is what ends the call.
		const result = await streamOpenAICompletions(serverModel(wire.server.url), context, {
			apiKey,
			idleTimeoutMs: 2000,
		}).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/No data received from the provider for 2000 ms/);
		expect(result.content).toEqual([{ type: "text", text: "waiting" }]);
	});

	it("retries a connection cut before any content", async () => {
		wire.server.enqueue({ body: "", cut: true }, { body: textStream("second try") });
		const result = await streamOpenAICompletions(serverModel(wire.server.url), context, {
			apiKey,
			maxRetries: 1,
		}).result();
		expect(result.content).toEqual([{ type: "text", text: "second try" }]);
		expect(result.diagnostics?.[0]?.type).toBe("retry");
	});

	it("says so when a 200 answer holds no SSE events", async () => {
		wire.server.enqueue({ body: "<html>proxy login</html>" });
		const result = await streamOpenAICompletions(serverModel(wire.server.url), context, { apiKey }).result();
		expect(result.errorMessage).toBe(
			'The openai response held no stream events (expected "data:" lines of chat.completion.chunk JSON)',
		);
	});

	it("fails a stream that ends without a finish_reason", async () => {
		wire.server.enqueue({ body: sse([chunk({ content: "no end" })]) });
		const result = await streamOpenAICompletions(serverModel(wire.server.url), context, { apiKey }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("The openai stream ended without a finish_reason (the response is incomplete)");
	});
});

describe("openai-completions abort", () => {
	it("aborts before the request without sending it", async () => {
		const controller = new AbortController();
		controller.abort();
		const result = await streamOpenAICompletions(serverModel(wire.server.url), context, {
			apiKey,
			signal: controller.signal,
		}).result();
		expect(result.stopReason).toBe("aborted");
		expect(wire.server.requests).toHaveLength(0);
	});

	it("aborts mid-stream and keeps the partial content and usage", async () => {
		wire.server.enqueue({
			body: sse([chunk({ content: "first words" }, { usage: { prompt_tokens: 7, completion_tokens: 2 } })], false),
			stall: true,
		});
		const controller = new AbortController();
		const stream = streamOpenAICompletions(serverModel(wire.server.url), context, {
			apiKey,
			signal: controller.signal,
		});
		for await (const event of stream) {
			if (event.type === "text_delta") controller.abort();
		}
		const result = await stream.result();
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
		expect(result.content).toEqual([{ type: "text", text: "first words" }]);
		expect(result.usage.input).toBe(7);
	});

	it("ignores an abort after done", async () => {
		wire.server.enqueue({ body: textStream("complete") });
		const controller = new AbortController();
		const stream = streamOpenAICompletions(serverModel(wire.server.url), context, {
			apiKey,
			signal: controller.signal,
		});
		const result = await stream.result();
		controller.abort();
		expect(result.stopReason).toBe("stop");
		expect((await stream.result()).stopReason).toBe("stop");
	});
});

describe("openai-completions request hooks", () => {
	it("lets onPayload replace the body and reports the response through onResponse", async () => {
		wire.server.enqueue({ headers: { "x-request-id": "req_1" }, body: textStream("ok") });
		const statuses: number[] = [];
		let requestId: string | undefined;
		await streamOpenAICompletions(serverModel(wire.server.url), context, {
			apiKey,
			onPayload: (payload) => ({ ...(payload as object), temperature: 0.25, custom_field: "yes" }),
			onResponse: (response) => {
				statuses.push(response.status);
				requestId = response.headers["x-request-id"];
			},
		}).result();
		expect(wire.server.lastRequest?.json).toMatchObject({ temperature: 0.25, custom_field: "yes" });
		expect(statuses).toEqual([200]);
		expect(requestId).toBe("req_1");
	});

	it("reports the status and headers of an error response through onResponse", async () => {
		wire.server.enqueue({
			status: 429,
			headers: { "x-ratelimit-remaining-requests": "0" },
			body: { error: { message: "slow" } },
		});
		const seen: { status: number; remaining?: string }[] = [];
		await streamOpenAICompletions(serverModel(wire.server.url), context, {
			apiKey,
			maxRetries: 0,
			onResponse: (response) => {
				seen.push({ status: response.status, remaining: response.headers["x-ratelimit-remaining-requests"] });
			},
		}).result();
		expect(seen).toEqual([{ status: 429, remaining: "0" }]);
	});

	it("bounds the whole request with timeoutMs when the server never answers", async () => {
		wire.server.enqueue({ stallBeforeHeaders: true });
		const result = await streamOpenAICompletions(serverModel(wire.server.url), context, {
			apiKey,
			timeoutMs: 80,
		}).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("Request timed out after 80 ms (timeoutMs)");
	});

	it("streamSimple passes toolChoice through and defaults maxTokens to the model's limit (at most 32000)", async () => {
		wire.server.enqueue({ body: textStream("ok") });
		const withTool: Context = {
			messages: [userMessage("Hi")],
			tools: [{ name: "noop", description: "Does nothing", parameters: { type: "object", properties: {} } as never }],
		};
		await streamSimpleOpenAICompletions(serverModel(wire.server.url), withTool, {
			apiKey,
			toolChoice: "required",
		}).result();
		expect(wire.server.lastRequest?.json).toMatchObject({ tool_choice: "required", max_completion_tokens: 16_384 });
	});

	it("merges headers: model headers, then options.headers win", async () => {
		wire.server.enqueue({ body: textStream("ok") });
		const model = serverModel(wire.server.url, { headers: { "x-team": "model", "x-model-only": "1" } });
		await streamOpenAICompletions(model, context, { apiKey, headers: { "x-team": "options" } }).result();
		expect(wire.server.lastRequest?.headers["x-team"]).toBe("options");
		expect(wire.server.lastRequest?.headers["x-model-only"]).toBe("1");
	});

	it("fails with a clear error for a model with an invalid baseUrl", async () => {
		const result = await streamOpenAICompletions(serverModel("not a url"), context, { apiKey }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe(
			'Model "gpt-4.1-mini" has an invalid baseUrl "not a url": expected an absolute URL such as http://127.0.0.1:11434/v1',
		);
	});

	it("fails with a clear error, before any request, for a malformed message", async () => {
		const bad = { messages: [userMessage("ok"), { role: "assistant" }] } as unknown as Context;
		const result = await streamOpenAICompletions(serverModel(wire.server.url), bad, { apiKey }).result();
		expect(result.errorMessage).toBe("context.messages[1] (assistant) has no content: expected an array of blocks");
		const unknownRole = { messages: [{ role: "developer", content: "x" }] } as unknown as Context;
		const second = await streamOpenAICompletions(serverModel(wire.server.url), unknownRole, { apiKey }).result();
		expect(second.errorMessage).toBe(
			'context.messages[0] has role "developer": expected "system", "user", "assistant" or "toolResult"',
		);
		const imageSystem = {
			messages: [userMessage("hi"), { role: "system", content: [{ type: "image", data: "x", mimeType: "image/png" }] }],
		} as unknown as Context;
		const third = await streamOpenAICompletions(serverModel(wire.server.url), imageSystem, { apiKey }).result();
		expect(third.errorMessage).toBe(
			"context.messages[1] (system) has content an array of other values: expected a string or an array of text blocks (system messages take text only)",
		);
		expect(wire.server.requests).toHaveLength(0);
	});

	it("fails with the key variable named when an OpenAI model has no key", async () => {
		const previous = process.env.OPENAI_API_KEY;
		delete process.env.OPENAI_API_KEY;
		try {
			const result = await streamOpenAICompletions(serverModel(wire.server.url), context).result();
			expect(result.errorMessage).toBe('No API key for provider "openai": set OPENAI_API_KEY or pass options.apiKey');
			expect(wire.server.requests).toHaveLength(0);
		} finally {
			if (previous !== undefined) process.env.OPENAI_API_KEY = previous;
		}
	});
});

describe("openai-completions keep-alives", () => {
	it("treats OpenRouter's `: OPENROUTER PROCESSING` comments as liveness, not content", async () => {
		wire.server.enqueue({
			// Six pieces 400 ms apart: 2 s in all, more than the 1.6 s idle limit, while each gap stays a
			// quarter of it (1.2 s of room for a busy machine's late timers).
			body: [...Array.from({ length: 5 }, () => ": OPENROUTER PROCESSING\n\n"), textStream("after the wait")],
			chunkDelayMs: 400,
		});
		const model = serverModel(wire.server.url, { provider: "openrouter", id: "anthropic/claude-sonnet-4" });
		const result = await streamOpenAICompletions(model, context, { apiKey, idleTimeoutMs: 1600 }).result();
		expect(result.stopReason).toBe("stop");
		expect(result.content).toEqual([{ type: "text", text: "after the wait" }]);
	});
});

describe("openai-completions base URL placeholders", () => {
	it("fills {CLOUDFLARE_ACCOUNT_ID} from the environment, and names it when it is missing", async () => {
		const previous = process.env.CLOUDFLARE_ACCOUNT_ID;
		const model = serverModel(`${wire.server.url}/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai/v1`, {
			provider: "cloudflare-workers-ai",
			id: "@cf/openai/gpt-oss-120b",
		});
		try {
			process.env.CLOUDFLARE_ACCOUNT_ID = "acc123";
			wire.server.enqueue({ body: textStream("ok") });
			const result = await streamOpenAICompletions(model, context, { apiKey }).result();
			expect(result.stopReason).toBe("stop");
			expect(wire.server.lastRequest?.url).toBe("/accounts/acc123/ai/v1/chat/completions");

			delete process.env.CLOUDFLARE_ACCOUNT_ID;
			const missing = await streamOpenAICompletions(model, context, { apiKey }).result();
			expect(missing.errorMessage).toBe(
				`The base URL ${model.baseUrl} needs CLOUDFLARE_ACCOUNT_ID: set it in the environment or give the model a complete baseUrl`,
			);
			expect(wire.server.requests).toHaveLength(1);
		} finally {
			if (previous === undefined) delete process.env.CLOUDFLARE_ACCOUNT_ID;
			else process.env.CLOUDFLARE_ACCOUNT_ID = previous;
		}
	});
});

describe("openai-completions context overflow", () => {
	it("gives errors that isContextOverflow recognises: z.ai finish reason, OpenRouter and vLLM 400s", async () => {
		const { isContextOverflow } = await import("../../../src/utils/overflow.js");
		wire.server.enqueue(
			{ body: sse([chunk({ content: "" }), chunk({}, { finish: "model_context_window_exceeded" })]) },
			{
				status: 400,
				body: {
					error: {
						message:
							"This endpoint's maximum context length is 131072 tokens. However, you requested about 200000 tokens",
						code: 400,
					},
				},
			},
			{
				status: 400,
				body: {
					object: "error",
					message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
					code: 400,
				},
			},
		);
		const zai = await streamOpenAICompletions(serverModel(wire.server.url, { provider: "zai" }), context, {
			apiKey,
		}).result();
		const openrouter = await streamOpenAICompletions(
			serverModel(wire.server.url, { provider: "openrouter" }),
			context,
			{
				apiKey,
			},
		).result();
		const vllm = await streamOpenAICompletions(serverModel(wire.server.url, { provider: "vllm" }), context).result();
		expect([zai, openrouter, vllm].map((message) => isContextOverflow(message))).toEqual([true, true, true]);
	});
});

describe("openai-completions images", () => {
	const image = { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" };
	const withImage: Context = {
		messages: [{ role: "user", content: [{ type: "text", text: "What is this?" }, image], timestamp: 1 }],
	};

	it("sends user images as data URLs to an image model, and a note instead to a text-only one", async () => {
		wire.server.enqueue({ body: textStream("a cat") }, { body: textStream("no idea") });
		await streamOpenAICompletions(serverModel(wire.server.url), withImage, { apiKey }).result();
		await streamOpenAICompletions(serverModel(wire.server.url, { input: ["text"] }), withImage, { apiKey }).result();
		const [vision, textOnly] = wire.server.requests.map(
			(request) => (request.json as { messages: { content: unknown }[] }).messages[0].content,
		);
		expect(vision).toEqual([
			{ type: "text", text: "What is this?" },
			{ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
		]);
		expect(textOnly).toEqual([
			{ type: "text", text: "What is this?" },
			{ type: "text", text: "(image omitted: this model does not accept images)" },
		]);
	});
});

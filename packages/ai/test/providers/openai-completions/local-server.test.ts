// Self-hosted OpenAI-compatible servers (Ollama, vLLM, LM Studio): no key, their stream quirks.
import { describe, expect, it } from "vitest";
import { completeSimple } from "../../../src/index.js";
import { defineModel } from "../../../src/models/define-model.js";
import {
	streamOpenAICompletions,
	streamSimpleOpenAICompletions,
} from "../../../src/providers/openai-completions/index.js";
import { WireTestServer } from "../../../src/testing/wire-test-server.js";
import type { Context } from "../../../src/types.js";
import { userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { localModel, sse } from "./fixtures.js";

const wire = useWireTestServer();

const context: Context = { systemPrompt: "You are local.", messages: [userMessage("Hi")] };

/** A chunk as Ollama's /v1/chat/completions sends it. */
function ollamaChunk(delta: Record<string, unknown>, finish: string | null = null) {
	return {
		id: "chatcmpl-512",
		object: "chat.completion.chunk",
		created: 1_763_000_000,
		model: "qwen3:8b",
		system_fingerprint: "fp_ollama",
		choices: [{ index: 0, delta, finish_reason: finish }],
	};
}

describe("local OpenAI-compatible servers", () => {
	it("Ollama: works without a key, sends no Authorization header and no OPENAI_* environment", async () => {
		const previous = { key: process.env.OPENAI_API_KEY, org: process.env.OPENAI_ORG_ID };
		process.env.OPENAI_API_KEY = "sk-must-not-leak";
		process.env.OPENAI_ORG_ID = "org-must-not-leak";
		try {
			wire.server.enqueue({
				body: sse([
					ollamaChunk({ role: "assistant", content: "", reasoning: "Greeting. " }),
					ollamaChunk({ role: "assistant", content: "Hello!" }),
					// No usage chunk: Ollama only sends one when asked, and older builds never do.
					ollamaChunk({ role: "assistant", content: "" }, "stop"),
				]),
			});
			const result = await streamOpenAICompletions(localModel(wire.server.url), context, { maxTokens: 256 }).result();
			expect(result.stopReason).toBe("stop");
			expect(result.content).toEqual([
				{ type: "thinking", thinking: "Greeting. ", thinkingSignature: "reasoning" },
				{ type: "text", text: "Hello!" },
			]);
			expect(result.usage.totalTokens).toBe(0);
			const request = wire.server.lastRequest;
			expect(request?.headers.authorization).toBeUndefined();
			expect(request?.headers["openai-organization"]).toBeUndefined();
			expect(JSON.stringify(request?.headers)).not.toContain("must-not-leak");
			// The conservative subset: system role, max_tokens, no store.
			expect(request?.json).toMatchObject({
				model: "qwen3:8b",
				messages: [
					{ role: "system", content: "You are local." },
					{ role: "user", content: "Hi" },
				],
				max_tokens: 256,
			});
			expect(request?.json).not.toHaveProperty("store");
		} finally {
			restore("OPENAI_API_KEY", previous.key);
			restore("OPENAI_ORG_ID", previous.org);
		}
	});

	it("a defineModel model streams from a local server with no key set anywhere", async () => {
		const previous = process.env.OPENAI_API_KEY;
		delete process.env.OPENAI_API_KEY;
		try {
			wire.server.enqueue({
				body: sse([
					ollamaChunk({ role: "assistant", content: "Hi from " }),
					ollamaChunk({ content: "llama.cpp" }),
					// llama.cpp sends usage on the finish chunk when include_usage is asked for.
					{
						...ollamaChunk({}, "stop"),
						usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 },
					},
				]),
			});
			const model = defineModel({ id: "llama-3.2-3b", baseUrl: `${wire.server.url}/` });
			const result = await streamSimpleOpenAICompletions(model, context).result();
			expect(result.stopReason).toBe("stop");
			expect(result.content).toEqual([{ type: "text", text: "Hi from llama.cpp" }]);
			expect(result.usage).toMatchObject({ input: 12, output: 4, totalTokens: 16 });
			expect(result.usage.cost.total).toBe(0);
			const request = wire.server.lastRequest;
			expect(request?.url).toBe("/chat/completions");
			expect(request?.headers.authorization).toBeUndefined();
			expect(request?.json).toMatchObject({ max_tokens: 16_384 });
			expect(request?.json).not.toHaveProperty("store");
		} finally {
			restore("OPENAI_API_KEY", previous);
		}
	});

	it("is reached through the registry: completeSimple lazy-loads the provider", async () => {
		wire.server.enqueue({ body: sse([ollamaChunk({ content: "via registry" }, "stop")]) });
		const result = await completeSimple(defineModel({ id: "phi4", baseUrl: wire.server.url }), context);
		expect(result.content).toEqual([{ type: "text", text: "via registry" }]);
	});

	it("sends a key given in options to a local server that wants one", async () => {
		wire.server.enqueue({ body: sse([ollamaChunk({ content: "ok" }, "stop")]) });
		await streamOpenAICompletions(localModel(wire.server.url, { provider: "vllm" }), context, {
			apiKey: "local-token",
		}).result();
		expect(wire.server.lastRequest?.headers.authorization).toBe("Bearer local-token");
	});

	it("LM Studio: a whole tool call in one chunk with finish_reason stop becomes toolUse", async () => {
		wire.server.enqueue({
			body: sse([
				ollamaChunk({
					role: "assistant",
					tool_calls: [
						{ index: 0, id: "726312734", type: "function", function: { name: "read", arguments: '{"path":"a.txt"}' } },
					],
				}),
				ollamaChunk({}, "stop"),
			]),
		});
		const result = await streamOpenAICompletions(
			localModel(wire.server.url, { provider: "lmstudio" }),
			context,
		).result();
		expect(result.stopReason).toBe("toolUse");
		expect(result.content).toEqual([{ type: "toolCall", id: "726312734", name: "read", arguments: { path: "a.txt" } }]);
	});

	it("vLLM: an error body with a top-level message is reported with that message", async () => {
		wire.server.enqueue({
			status: 400,
			body: {
				object: "error",
				message: "This model's maximum context length is 4096 tokens. However, you requested 9000 tokens.",
				type: "BadRequestError",
				param: null,
				code: 400,
			},
		});
		const result = await streamOpenAICompletions(localModel(wire.server.url, { provider: "vllm" }), context).result();
		expect(result.errorMessage).toContain(
			"400 This model's maximum context length is 4096 tokens. However, you requested 9000 tokens.",
		);
	});

	it("LM Studio: an error body with a string `error` is reported with that text", async () => {
		wire.server.enqueue({ status: 404, body: { error: "Model 'qwen3:8b' not found. Load it first." } });
		const result = await streamOpenAICompletions(
			localModel(wire.server.url, { provider: "lmstudio" }),
			context,
		).result();
		expect(result.errorMessage).toContain("404 Model 'qwen3:8b' not found. Load it first.");
	});

	it("vLLM serving Qwen: streamSimple reasoning switches thinking through chat_template_kwargs", async () => {
		wire.server.enqueue({
			body: sse([ollamaChunk({ reasoning_content: "..." }), ollamaChunk({ content: "ok" }, "stop")]),
		});
		const model = localModel(wire.server.url, { provider: "vllm", compat: { thinkingFormat: "qwen-chat-template" } });
		const result = await streamSimpleOpenAICompletions(model, context, { reasoning: "medium" }).result();
		expect(result.stopReason).toBe("stop");
		expect(wire.server.lastRequest?.json).toMatchObject({ chat_template_kwargs: { enable_thinking: true } });
	});

	it("reports a server that is not running as a connection error naming its cause, not a hang", async () => {
		const closed = await WireTestServer.start();
		const url = closed.url;
		await closed.close();
		const result = await streamOpenAICompletions(localModel(url), context, { maxRetries: 0 }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe(
			`Could not connect to ollama at ${new URL(url).host}: connect ECONNREFUSED ${new URL(url).host}`,
		);
	});
});

function restore(name: string, value: string | undefined): void {
	if (value === undefined) delete process.env[name];
	else process.env[name] = value;
}

describe("servers that ignore stream: true", () => {
	it("reads a whole chat.completion JSON answer as one message", async () => {
		wire.server.enqueue({
			headers: { "content-type": "application/json" },
			body: {
				id: "chatcmpl-whole",
				object: "chat.completion",
				created: 1,
				model: "qwen3:8b",
				choices: [
					{
						index: 0,
						message: {
							role: "assistant",
							content: "Whole answer",
							reasoning_content: "thought",
							tool_calls: [{ id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"x"}' } }],
						},
						finish_reason: "tool_calls",
					},
				],
				usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
			},
		});
		const result = await streamOpenAICompletions(localModel(wire.server.url), context).result();
		expect(result.stopReason).toBe("toolUse");
		expect(result.content).toEqual([
			{ type: "thinking", thinking: "thought", thinkingSignature: "reasoning_content" },
			{ type: "text", text: "Whole answer" },
			{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "x" } },
		]);
		expect(result.usage.totalTokens).toBe(8);
	});
});

// What each vendor in the catalogue receives, end to end over HTTP: compat flags detected from
// the provider id decide the body. The base URL is the wire-test server; the provider id is the vendor's.
import { describe, expect, it } from "vitest";
import { streamSimpleOpenAICompletions } from "../../../src/providers/openai-completions/index.js";
import type { AssistantMessage, Context } from "../../../src/types.js";
import { assistantMessage, userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { chunk, serverModel, sse, textStream, usageChunk } from "./fixtures.js";

const wire = useWireTestServer();

function previousTurn(provider: string, id: string): AssistantMessage {
	return assistantMessage({ api: "openai-completions", provider, model: id }, [
		{ type: "thinking", thinking: "earlier thought", thinkingSignature: "reasoning_content" },
		{ type: "text", text: "earlier answer" },
	]);
}

async function requestBody(provider: string, id: string): Promise<Record<string, unknown>> {
	wire.server.enqueue({ body: textStream("ok") });
	const model = serverModel(wire.server.url, { provider, id, reasoning: true });
	const context: Context = {
		systemPrompt: "sys",
		messages: [userMessage("first"), previousTurn(provider, id), userMessage("second")],
	};
	const result = await streamSimpleOpenAICompletions(model, context, {
		apiKey: "key",
		reasoning: "high",
		maxTokens: 1000,
	}).result();
	expect(result.stopReason).toBe("stop");
	return wire.server.lastRequest?.json as Record<string, unknown>;
}

describe("vendor compat, end to end", () => {
	it("openai: developer role, store false, max_completion_tokens, reasoning_effort", async () => {
		const body = await requestBody("openai", "o4-mini");
		expect(body).toMatchObject({
			store: false,
			max_completion_tokens: 1000,
			reasoning_effort: "high",
			stream_options: { include_usage: true },
		});
		expect((body.messages as { role: string }[])[0].role).toBe("developer");
	});

	it("groq: reasoning_effort and store sent", async () => {
		const body = await requestBody("groq", "openai/gpt-oss-120b");
		expect(body).toMatchObject({ reasoning_effort: "high", store: false });
	});

	it("xai: no store, no developer role, no reasoning_effort", async () => {
		const body = await requestBody("xai", "grok-4");
		expect(body.store).toBeUndefined();
		expect(body.reasoning_effort).toBeUndefined();
		expect((body.messages as { role: string }[])[0].role).toBe("system");
	});

	it("cerebras: no store, no developer role, effort still sent", async () => {
		const body = await requestBody("cerebras", "gpt-oss-120b");
		expect(body.store).toBeUndefined();
		expect(body.reasoning_effort).toBe("high");
		expect((body.messages as { role: string }[])[0].role).toBe("system");
	});

	it("zai: thinking enabled, no reasoning_effort, reasoning replayed as reasoning_content", async () => {
		const body = await requestBody("zai", "glm-4.6");
		expect(body.thinking).toEqual({ type: "enabled" });
		expect(body.reasoning_effort).toBeUndefined();
		expect((body.messages as unknown[])[2]).toEqual({
			role: "assistant",
			content: "earlier answer",
			reasoning_content: "earlier thought",
		});
	});

	it("deepseek: thinking enabled and reasoning_content on the assistant turn", async () => {
		const body = await requestBody("deepseek", "deepseek-v4");
		expect(body.thinking).toEqual({ type: "enabled" });
		expect((body.messages as unknown[])[2]).toMatchObject({ reasoning_content: "earlier thought" });
	});

	it("openrouter: reasoning: {effort} instead of reasoning_effort", async () => {
		const body = await requestBody("openrouter", "openai/gpt-5");
		expect(body.reasoning).toEqual({ effort: "high" });
		expect(body.reasoning_effort).toBeUndefined();
	});
});

describe("vendor usage counting, end to end", () => {
	it("xai: reasoning tokens reported beside completion_tokens reach output and cost", async () => {
		// A Grok reasoning answer: one visible token, 290 reasoning tokens, total = 14 + 1 + 290.
		wire.server.enqueue({
			body: sse([
				chunk({ role: "assistant", reasoning_content: "Thinking…" }, { model: "grok-3-mini" }),
				chunk({ content: "4" }, { model: "grok-3-mini" }),
				chunk({}, { finish: "stop", model: "grok-3-mini" }),
				usageChunk({
					prompt_tokens: 14,
					completion_tokens: 1,
					total_tokens: 305,
					prompt_tokens_details: { text_tokens: 14, audio_tokens: 0, image_tokens: 0, cached_tokens: 0 },
					completion_tokens_details: {
						reasoning_tokens: 290,
						audio_tokens: 0,
						accepted_prediction_tokens: 0,
						rejected_prediction_tokens: 0,
					},
					num_sources_used: 0,
				}),
			]),
		});
		const model = serverModel(wire.server.url, {
			provider: "xai",
			id: "grok-3-mini",
			reasoning: true,
			cost: { input: 0.3, output: 0.5, cacheRead: 0.075, cacheWrite: 0 },
		});
		const result = await streamSimpleOpenAICompletions(
			model,
			{ messages: [userMessage("2+2?")] },
			{ apiKey: "key" },
		).result();
		expect(result.usage).toMatchObject({ input: 14, output: 291, cacheRead: 0, totalTokens: 305 });
		expect(result.usage.cost.output).toBeCloseTo((291 * 0.5) / 1_000_000);
	});
});

import { describe, expect, it } from "vitest";
import { AssistantMessageBuilder } from "../../../src/message/assistant-message-builder.js";
import { resolveOpenAICompletionsCompat } from "../../../src/providers/openai-completions/compat.js";
import {
	type ChatCompletionChunkWire,
	mapOpenAICompletionsStopReason,
	mapOpenAICompletionsUsage,
	OpenAICompletionsStreamDecoder,
} from "../../../src/providers/openai-completions/decode.js";
import type { AssistantMessageEvent, OpenAICompletionsUsageCounting } from "../../../src/types.js";
import { chunk, completionsModel, usageChunk } from "./fixtures.js";

function decode(chunks: unknown[], vendor = "openai") {
	const events: AssistantMessageEvent[] = [];
	const builder = new AssistantMessageBuilder(completionsModel(), (event) => events.push(event));
	const decoder = new OpenAICompletionsStreamDecoder(builder, vendor);
	for (const item of chunks) decoder.decode(item as ChatCompletionChunkWire);
	decoder.end();
	return { message: builder.message, events };
}

describe("mapOpenAICompletionsStopReason", () => {
	it.each([
		["stop", "stop"],
		["end", "stop"],
		["length", "length"],
		["tool_calls", "toolUse"],
		["function_call", "toolUse"],
	])("maps %s to %s", (raw, expected) => {
		expect(mapOpenAICompletionsStopReason(raw, "openai")).toEqual({ kind: "done", reason: expected });
	});

	it.each(["content_filter", "sensitive", "network_error", "abort", "model_context_window_exceeded", "brand_new"])(
		"turns %s into an error naming the vendor and the raw reason",
		(raw) => {
			expect(mapOpenAICompletionsStopReason(raw, "zai")).toEqual({
				kind: "failed",
				message: `zai stopped the response: ${raw}`,
			});
		},
	);
});

describe("mapOpenAICompletionsUsage", () => {
	it("subtracts cached tokens from input and does not add reasoning tokens to output", () => {
		expect(
			mapOpenAICompletionsUsage({
				prompt_tokens: 100,
				completion_tokens: 40,
				prompt_tokens_details: { cached_tokens: 30 },
				completion_tokens_details: { reasoning_tokens: 25 },
			}),
		).toEqual({ input: 70, output: 40, cacheRead: 30, cacheWrite: 0, totalTokens: 140 });
	});

	it("reads DeepSeek's prompt_cache_hit_tokens and OpenRouter's cache_write_tokens", () => {
		expect(mapOpenAICompletionsUsage({ prompt_tokens: 50, completion_tokens: 5, prompt_cache_hit_tokens: 20 })).toEqual(
			{
				input: 30,
				output: 5,
				cacheRead: 20,
				cacheWrite: 0,
				totalTokens: 55,
			},
		);
		expect(
			mapOpenAICompletionsUsage({
				prompt_tokens: 50,
				completion_tokens: 5,
				prompt_tokens_details: { cached_tokens: 10, cache_write_tokens: 15 },
			}),
		).toMatchObject({ input: 25, cacheRead: 10, cacheWrite: 15 });
	});
});

// Usage objects as each vendor documents or sends them, read through the counting the vendor's
// compat resolves to (detected from the provider id, as for a catalogue row).
describe("usage counting per vendor", () => {
	const countingFor = (provider: string, baseUrl = "https://example.invalid/v1") =>
		resolveOpenAICompletionsCompat(completionsModel({ provider, baseUrl })).usageCounting;

	it("openai: reasoning and audio are parts of completion_tokens, cache hits of prompt_tokens", () => {
		const usage = {
			prompt_tokens: 2006,
			completion_tokens: 300,
			total_tokens: 2306,
			prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
			completion_tokens_details: {
				reasoning_tokens: 256,
				audio_tokens: 0,
				accepted_prediction_tokens: 0,
				rejected_prediction_tokens: 0,
			},
		};
		expect(mapOpenAICompletionsUsage(usage, countingFor("openai"))).toEqual({
			input: 86,
			output: 300,
			cacheRead: 1920,
			cacheWrite: 0,
			totalTokens: 2306,
		});
	});

	it("xai: reasoning tokens are counted beside completion_tokens and added to output", () => {
		// prompt + completion + reasoning = total: 10120 + 1499 + 2809 = 14428.
		const usage = {
			prompt_tokens: 10120,
			completion_tokens: 1499,
			total_tokens: 14428,
			prompt_tokens_details: { text_tokens: 10120, audio_tokens: 0, image_tokens: 0, cached_tokens: 128 },
			completion_tokens_details: {
				reasoning_tokens: 2809,
				audio_tokens: 0,
				accepted_prediction_tokens: 0,
				rejected_prediction_tokens: 0,
			},
			num_sources_used: 0,
		};
		expect(mapOpenAICompletionsUsage(usage, countingFor("xai", "https://api.x.ai/v1"))).toEqual({
			input: 9992,
			output: 4308,
			cacheRead: 128,
			cacheWrite: 0,
			totalTokens: 14428,
		});
	});

	it("reads xAI's convention from total_tokens when Grok comes through a gateway or proxy under another provider and host", () => {
		const usage = {
			prompt_tokens: 10120,
			completion_tokens: 1499,
			total_tokens: 14428,
			prompt_tokens_details: { cached_tokens: 128 },
			completion_tokens_details: { reasoning_tokens: 2809 },
		};
		const proxied = countingFor("litellm-proxy", "http://127.0.0.1:4000/v1");
		expect(proxied.reasoningInCompletionTokens).toBe(true);
		expect(mapOpenAICompletionsUsage(usage, proxied)).toMatchObject({ output: 4308, totalTokens: 14428 });
	});

	it("keeps reasoning inside completion_tokens when total_tokens says so, whatever the vendor rule", () => {
		const usage = {
			prompt_tokens: 100,
			completion_tokens: 300,
			total_tokens: 400,
			completion_tokens_details: { reasoning_tokens: 250 },
		};
		expect(mapOpenAICompletionsUsage(usage, countingFor("xai", "https://api.x.ai/v1"))).toMatchObject({ output: 300 });
		// No total: the vendor rule decides.
		const { total_tokens: _total, ...withoutTotal } = usage;
		expect(mapOpenAICompletionsUsage(withoutTotal, countingFor("xai", "https://api.x.ai/v1"))).toMatchObject({
			output: 550,
		});
	});

	it("deepseek: cache hits in prompt_cache_hit_tokens, reasoning inside completion_tokens", () => {
		const usage = {
			prompt_tokens: 1000,
			completion_tokens: 300,
			total_tokens: 1300,
			prompt_cache_hit_tokens: 800,
			prompt_cache_miss_tokens: 200,
			completion_tokens_details: { reasoning_tokens: 250 },
		};
		expect(mapOpenAICompletionsUsage(usage, countingFor("deepseek"))).toEqual({
			input: 200,
			output: 300,
			cacheRead: 800,
			cacheWrite: 0,
			totalTokens: 1300,
		});
	});

	it("groq: usage in x_groq on the last chunk, counted as OpenAI counts", () => {
		const builder = new AssistantMessageBuilder(completionsModel({ provider: "groq" }), () => {});
		const decoder = new OpenAICompletionsStreamDecoder(builder, "groq", countingFor("groq"));
		decoder.decode(chunk({ content: "ok" }) as ChatCompletionChunkWire);
		decoder.decode({
			...chunk({}, { finish: "stop" }),
			x_groq: {
				id: "req_01",
				usage: {
					queue_time: 0.02,
					prompt_tokens: 50,
					prompt_time: 0.003,
					completion_tokens: 20,
					completion_time: 0.04,
					total_tokens: 70,
					total_time: 0.043,
					prompt_tokens_details: { cached_tokens: 10 },
					completion_tokens_details: { reasoning_tokens: 12 },
				},
			},
		} as ChatCompletionChunkWire);
		decoder.end();
		expect(builder.message.usage).toMatchObject({ input: 40, output: 20, cacheRead: 10, totalTokens: 70 });
	});

	it("openrouter: cache writes are part of prompt_tokens; its own cost field is not a token count", () => {
		const usage = {
			completion_tokens: 2,
			completion_tokens_details: { reasoning_tokens: 0 },
			cost: 0.95,
			cost_details: { upstream_inference_cost: 19 },
			prompt_tokens: 194,
			prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 100, audio_tokens: 0 },
			total_tokens: 196,
		};
		expect(mapOpenAICompletionsUsage(usage, countingFor("openrouter"))).toEqual({
			input: 94,
			output: 2,
			cacheRead: 0,
			cacheWrite: 100,
			totalTokens: 196,
		});
	});

	it("mistral-compatible: cache hits in prompt_tokens_details or num_cached_tokens; audio seconds ignored", () => {
		const counting = countingFor("mistral", "https://api.mistral.ai/v1");
		const details = { prompt_tokens: 801, completion_tokens: 2, total_tokens: 803 };
		expect(
			mapOpenAICompletionsUsage({ ...details, prompt_tokens_details: { cached_tokens: 768 } }, counting),
		).toMatchObject({ input: 33, cacheRead: 768, totalTokens: 803 });
		expect(
			mapOpenAICompletionsUsage({ ...details, num_cached_tokens: 768, prompt_audio_seconds: 4 } as never, counting),
		).toMatchObject({ input: 33, cacheRead: 768, totalTokens: 803 });
	});

	it("moonshot: cache hits in a top-level cached_tokens", () => {
		const usage = { prompt_tokens: 19, completion_tokens: 13, total_tokens: 32, cached_tokens: 12 };
		expect(mapOpenAICompletionsUsage(usage, countingFor("moonshotai"))).toEqual({
			input: 7,
			output: 13,
			cacheRead: 12,
			cacheWrite: 0,
			totalTokens: 32,
		});
	});

	it("local servers: bare counts (Ollama), null details (vLLM) and llama.cpp's timings are read as sent", () => {
		const counting = countingFor("ollama", "http://127.0.0.1:11434/v1");
		expect(
			mapOpenAICompletionsUsage({ prompt_tokens: 26, completion_tokens: 300, total_tokens: 326 }, counting),
		).toEqual({ input: 26, output: 300, cacheRead: 0, cacheWrite: 0, totalTokens: 326 });
		expect(
			mapOpenAICompletionsUsage(
				{ prompt_tokens: 26, completion_tokens: 300, total_tokens: 326, prompt_tokens_details: null },
				counting,
			),
		).toMatchObject({ input: 26, cacheRead: 0 });
		const llamaCpp = {
			prompt_tokens: 237,
			completion_tokens: 35,
			total_tokens: 272,
			prompt_tokens_details: { cached_tokens: 236 },
			timings: { cache_n: 236, prompt_n: 1, predicted_n: 35 },
		};
		expect(mapOpenAICompletionsUsage(llamaCpp as never, counting)).toMatchObject({
			input: 1,
			cacheRead: 236,
			output: 35,
		});
	});

	it("adds audio tokens to input and output for a server that counts them beside", () => {
		const usage = {
			prompt_tokens: 100,
			completion_tokens: 40,
			prompt_tokens_details: { audio_tokens: 50 },
			completion_tokens_details: { audio_tokens: 30 },
		};
		const counting = { ...countingFor("openai"), audioInPromptAndCompletionTokens: false };
		expect(mapOpenAICompletionsUsage(usage, counting)).toMatchObject({ input: 150, output: 70, totalTokens: 220 });
	});

	it("refuses a usageCounting value that would miscount, naming the field", () => {
		const model = (usageCounting: unknown) =>
			completionsModel({ compat: { usageCounting: usageCounting as OpenAICompletionsUsageCounting } });
		expect(() => resolveOpenAICompletionsCompat(model({ reasoningInCompletionTokens: "no" }))).toThrow(
			'model "gpt-4.1-mini": compat.usageCounting.reasoningInCompletionTokens must be true or false, got "no"',
		);
		expect(() => resolveOpenAICompletionsCompat(model({ cachedTokensField: "cache_hits" }))).toThrow(
			/compat\.usageCounting\.cachedTokensField must be one of "prompt_tokens_details\.cached_tokens", .*got "cache_hits"/,
		);
	});

	it("model.compat.usageCounting overrides one field and keeps the detected others", () => {
		const model = completionsModel({
			provider: "deepseek",
			baseUrl: "https://proxy.example/v1",
			compat: { usageCounting: { reasoningInCompletionTokens: false } },
		});
		expect(resolveOpenAICompletionsCompat(model).usageCounting).toEqual({
			reasoningInCompletionTokens: false,
			cachedTokensField: "prompt_cache_hit_tokens",
			audioInPromptAndCompletionTokens: true,
		});
	});
});

describe("OpenAICompletionsStreamDecoder", () => {
	it("reads reasoning from reasoning_content, reasoning or reasoning_text and records the field", () => {
		for (const field of ["reasoning_content", "reasoning", "reasoning_text"]) {
			const { message } = decode([chunk({ [field]: "thought" }), chunk({ content: "answer" }, { finish: "stop" })]);
			expect(message.content).toEqual([
				{ type: "thinking", thinking: "thought", thinkingSignature: field },
				{ type: "text", text: "answer" },
			]);
		}
	});

	it("keeps interleaved reasoning and text as separate blocks, in order", () => {
		const { message } = decode([
			chunk({ reasoning_content: "a" }),
			chunk({ content: "b" }),
			chunk({ reasoning_content: "c" }),
			chunk({ content: "d" }, { finish: "stop" }),
		]);
		expect(message.content.map((block) => block.type)).toEqual(["thinking", "text", "thinking", "text"]);
		expect(message.content[2]).toMatchObject({ thinking: "c" });
	});

	it("ignores empty and null deltas (role-only first chunk, null content)", () => {
		const { events } = decode([
			chunk({ role: "assistant", content: "" }),
			chunk({ content: null, reasoning_content: null }),
			chunk({ content: "x" }, { finish: "stop" }),
		]);
		expect(events.map((event) => event.type)).toEqual(["start", "text_start", "text_delta", "text_end", "done"]);
	});

	it("starts a new tool call when a vendor reuses index 0 with a new id", () => {
		const { message } = decode([
			chunk({ tool_calls: [{ index: 0, id: "a", function: { name: "one", arguments: "{}" } }] }),
			chunk({ tool_calls: [{ index: 0, id: "b", function: { name: "two", arguments: '{"k":1}' } }] }),
			chunk({}, { finish: "tool_calls" }),
		]);
		expect(message.content).toEqual([
			{ type: "toolCall", id: "a", name: "one", arguments: {} },
			{ type: "toolCall", id: "b", name: "two", arguments: { k: 1 } },
		]);
	});

	it("separates calls without index by their position, and gives id-less calls an id", () => {
		const { message } = decode([
			chunk({
				tool_calls: [{ function: { name: "one", arguments: "{}" } }, { function: { name: "two", arguments: "{}" } }],
			}),
			chunk({}, { finish: "tool_calls" }),
		]);
		expect(message.content).toEqual([
			{ type: "toolCall", id: "chatcmpl-test_0", name: "one", arguments: {} },
			{ type: "toolCall", id: "chatcmpl-test_1", name: "two", arguments: {} },
		]);
	});

	it("turns a plain stop with tool calls into toolUse", () => {
		const { message } = decode([
			chunk({ tool_calls: [{ index: 0, id: "a", function: { name: "one", arguments: "{}" } }] }),
			chunk({}, { finish: "stop" }),
		]);
		expect(message.stopReason).toBe("toolUse");
	});

	it("attaches OpenRouter encrypted reasoning_details to the tool call with that id", () => {
		const detail = { type: "reasoning.encrypted", id: "call_1", data: "enc", format: "openai-responses-v1", index: 0 };
		const { message } = decode([
			chunk({ reasoning_details: [detail, { type: "reasoning.text", text: "visible" }] }),
			chunk({ tool_calls: [{ index: 0, id: "call_1", function: { name: "read", arguments: "{}" } }] }),
			chunk({}, { finish: "tool_calls" }),
		]);
		expect(message.content[0]).toMatchObject({ type: "toolCall", thoughtSignature: JSON.stringify(detail) });
	});

	it("falls back to usage on the choice (Moonshot)", () => {
		const moonshot = chunk({}, { finish: "stop" }) as { choices: Record<string, unknown>[] };
		moonshot.choices[0].usage = { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 };
		const { message } = decode([chunk({ content: "hi" }), moonshot]);
		expect(message.usage).toMatchObject({ input: 9, output: 3, totalTokens: 12 });
	});

	it("reads Groq's x_groq.usage", () => {
		const groq = {
			...chunk({}, { finish: "stop" }),
			x_groq: { id: "req_1", usage: { prompt_tokens: 6, completion_tokens: 2 } },
		};
		const { message } = decode([chunk({ content: "hi" }), groq]);
		expect(message.usage).toMatchObject({ input: 6, output: 2, totalTokens: 8 });
	});

	it("keeps the usage that arrives after the finish chunk, and records the response model", () => {
		const { message } = decode([
			chunk({ content: "hi" }, { model: "gpt-4.1-mini-2025-04-14" }),
			chunk({}, { finish: "stop" }),
			usageChunk({ prompt_tokens: 4, completion_tokens: 1, total_tokens: 5 }),
		]);
		expect(message.usage.totalTokens).toBe(5);
		expect(message.responseModel).toBe("gpt-4.1-mini-2025-04-14");
	});

	it("throws on a chunk that is not an object", () => {
		const builder = new AssistantMessageBuilder(completionsModel(), () => {});
		const decoder = new OpenAICompletionsStreamDecoder(builder, "openai");
		expect(() => decoder.decode([] as unknown as ChatCompletionChunkWire)).toThrow(
			"Malformed Chat Completions stream chunk: []",
		);
	});
});

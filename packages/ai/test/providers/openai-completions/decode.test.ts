import { describe, expect, it } from "vitest";
import {
	type ChatCompletionChunkWire,
	mapOpenAICompletionsStopReason,
	mapOpenAICompletionsUsage,
	OpenAICompletionsStreamDecoder,
} from "../../../src/providers/openai-completions/decode.js";
import { AssistantMessageBuilder } from "../../../src/providers/shared/assistant-message-builder.js";
import type { AssistantMessageEvent } from "../../../src/types.js";
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

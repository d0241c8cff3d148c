import { describe, expect, it } from "vitest";
import { AssistantMessageBuilder } from "../../../src/message/assistant-message-builder.js";
import {
	MistralStreamDecoder,
	mapMistralStopReason,
	mapMistralUsage,
} from "../../../src/providers/mistral-conversations/decode.js";
import type { MistralChunkWire } from "../../../src/providers/mistral-conversations/wire-types.js";
import type { AssistantMessageEvent } from "../../../src/types.js";
import { magistralModel, mistralChunk } from "./fixtures.js";

function decode(chunks: unknown[]) {
	const events: AssistantMessageEvent[] = [];
	const builder = new AssistantMessageBuilder(magistralModel(), (event) => events.push(event));
	const decoder = new MistralStreamDecoder(builder);
	for (const item of chunks) decoder.decode(item as MistralChunkWire);
	decoder.end();
	return { message: builder.message, events };
}

describe("mapMistralStopReason", () => {
	it.each([
		["stop", "stop"],
		["length", "length"],
		["model_length", "length"],
		["tool_calls", "toolUse"],
	])("maps %s to %s", (raw, expected) => {
		expect(mapMistralStopReason(raw)).toEqual({ kind: "done", reason: expected });
	});

	it("turns error and an undocumented reason into failures", () => {
		expect(mapMistralStopReason("error").kind).toBe("failed");
		expect(mapMistralStopReason("brand_new")).toEqual({
			kind: "failed",
			message: "Mistral stopped the response for an unknown reason: brand_new",
		});
	});
});

describe("mapMistralUsage", () => {
	it("takes cached prompt tokens out of input", () => {
		expect(
			mapMistralUsage({
				prompt_tokens: 100,
				completion_tokens: 40,
				total_tokens: 140,
				prompt_tokens_details: { cached_tokens: 30 },
			}),
		).toEqual({ input: 70, output: 40, cacheRead: 30, cacheWrite: 0, totalTokens: 140 });
	});

	it("reads num_cached_tokens when there are no details, and counts missing fields as 0", () => {
		expect(mapMistralUsage({ prompt_tokens: 10, num_cached_tokens: 4 })).toEqual({
			input: 6,
			output: 0,
			cacheRead: 4,
			cacheWrite: 0,
			totalTokens: 10,
		});
	});
});

describe("MistralStreamDecoder", () => {
	it("reads text sent as a string", () => {
		const { message } = decode([
			mistralChunk({ role: "assistant", content: "" }),
			mistralChunk({ content: "Hel" }),
			mistralChunk({ content: "lo" }, { finish: "stop" }),
		]);
		expect(message.content).toEqual([{ type: "text", text: "Hello" }]);
		expect(message.stopReason).toBe("stop");
		expect(message.responseId).toBe("cmpl-e5cc70bb28c444948073e77776eb30ef");
	});

	it("reads thinking chunks as thinking and text chunks as text (Magistral)", () => {
		const { message, events } = decode([
			mistralChunk({
				role: "assistant",
				content: [{ type: "thinking", thinking: [{ type: "text", text: "Let me " }] }],
			}),
			mistralChunk({ content: [{ type: "thinking", thinking: [{ type: "text", text: "think." }] }] }),
			mistralChunk({ content: [{ type: "text", text: "42" }] }),
			mistralChunk({ content: "!" }, { finish: "stop" }),
		]);
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "Let me think." },
			{ type: "text", text: "42!" },
		]);
		expect(events.map((event) => event.type)).toEqual([
			"start",
			"thinking_start",
			"thinking_delta",
			"thinking_delta",
			"thinking_end",
			"text_start",
			"text_delta",
			"text_delta",
			"text_end",
			"done",
		]);
	});

	it("ignores chunk types it does not know (references)", () => {
		const { message } = decode([
			mistralChunk({
				content: [
					{ type: "reference", reference_ids: [1] },
					{ type: "text", text: "ok" },
				],
			}),
			mistralChunk({}, { finish: "stop" }),
		]);
		expect(message.content).toEqual([{ type: "text", text: "ok" }]);
	});

	it("reads whole tool calls, several in one delta, and arguments sent as an object", () => {
		const { message } = decode([
			mistralChunk({
				tool_calls: [
					{ id: "D681PevKs", type: "function", index: 0, function: { name: "read", arguments: '{"path":"a"}' } },
					{ id: "xK2pQ9zLm", type: "function", index: 1, function: { name: "list", arguments: { dir: "/" } } },
				],
			}),
			mistralChunk({ content: "" }, { finish: "tool_calls" }),
		]);
		expect(message.content).toEqual([
			{ type: "toolCall", id: "D681PevKs", name: "read", arguments: { path: "a" } },
			{ type: "toolCall", id: "xK2pQ9zLm", name: "list", arguments: { dir: "/" } },
		]);
		expect(message.stopReason).toBe("toolUse");
	});

	it('gives a call without an id (or the id "null") a 9-character id of Mistral\'s form', () => {
		const { message } = decode([
			mistralChunk({ tool_calls: [{ id: "null", index: 0, function: { name: "read", arguments: "{}" } }] }),
			mistralChunk({}, { finish: "tool_calls" }),
		]);
		const call = message.content[0];
		expect(call.type === "toolCall" && call.id).toMatch(/^[a-zA-Z0-9]{9}$/);
	});

	it("keeps the content and the raw reason when the stop reason is unknown", () => {
		const { message } = decode([mistralChunk({ content: "partial" }), mistralChunk({}, { finish: "brand_new" })]);
		expect(message.stopReason).toBe("error");
		expect(message.rawStopReason).toBe("brand_new");
		expect(message.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("fails with a clear message when the stream ends without a finish reason", () => {
		const { message } = decode([mistralChunk({ content: "partial" })]);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("The Mistral stream ended without a finish_reason (the response is incomplete)");
	});

	it("throws for a chunk that is not an object", () => {
		const builder = new AssistantMessageBuilder(magistralModel(), () => {});
		expect(() => new MistralStreamDecoder(builder).decode([] as never)).toThrow("Malformed Mistral stream chunk");
	});

	it("counts usage that arrives in a chunk after the finish reason", () => {
		const { message } = decode([
			mistralChunk({ content: "hi" }, { finish: "stop" }),
			{ id: "cmpl-1", object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 7, completion_tokens: 2 } },
		]);
		expect(message.usage).toMatchObject({ input: 7, output: 2, totalTokens: 9 });
		expect(message.stopReason).toBe("stop");
	});

	it("gives a tool called without arguments an empty object", () => {
		const { message } = decode([
			mistralChunk({ tool_calls: [{ id: "N0Args123", index: 0, function: { name: "now", arguments: "" } }] }),
			mistralChunk({}, { finish: "tool_calls" }),
		]);
		expect(message.content).toEqual([{ type: "toolCall", id: "N0Args123", name: "now", arguments: {} }]);
	});
});

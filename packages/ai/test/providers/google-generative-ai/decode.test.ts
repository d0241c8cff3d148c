import { describe, expect, it } from "vitest";
import { AssistantMessageBuilder } from "../../../src/message/assistant-message-builder.js";
import { GeminiStreamDecoder } from "../../../src/providers/google-generative-ai/decode.js";
import type { GeminiResponseChunk } from "../../../src/providers/google-generative-ai/wire-types.js";
import type { AssistantMessageEvent } from "../../../src/types.js";
import { finishChunk, geminiModel, partsChunk } from "./fixtures.js";

function decodeAll(chunks: GeminiResponseChunk[]) {
	const events: AssistantMessageEvent[] = [];
	const builder = new AssistantMessageBuilder(geminiModel(), (event) => events.push(event));
	const decoder = new GeminiStreamDecoder(builder, { label: "Gemini", toolCallIdPrefix: "call_test" });
	for (const chunk of chunks) decoder.decode(chunk);
	decoder.end();
	return { message: builder.message, events, types: events.map((event) => event.type) };
}

describe("GeminiStreamDecoder", () => {
	it("streams text parts as deltas of one text block and ends with stop", () => {
		const { message, types } = decodeAll([partsChunk([{ text: "Hel" }]), partsChunk([{ text: "lo" }]), finishChunk()]);
		expect(message.content).toEqual([{ type: "text", text: "Hello" }]);
		expect(message.stopReason).toBe("stop");
		expect(message.rawStopReason).toBe("STOP");
		expect(types).toEqual(["start", "text_start", "text_delta", "text_delta", "text_end", "done"]);
	});

	it("turns thought parts into thinking and keeps the last signature of each block", () => {
		const { message } = decodeAll([
			partsChunk([{ text: "Let me think", thought: true, thoughtSignature: "c2lnMQ==" }]),
			partsChunk([{ text: " more", thought: true, thoughtSignature: "c2lnMg==" }]),
			partsChunk([{ text: "Answer" }]),
			// Gemini 3 may close a text block with an empty part that carries its signature.
			partsChunk([{ text: "", thoughtSignature: "dGV4dA==" }]),
			finishChunk(),
		]);
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "Let me think more", thinkingSignature: "c2lnMg==" },
			{ type: "text", text: "Answer", textSignature: "dGV4dA==" },
		]);
	});

	it("a signature alone does not make a part thinking", () => {
		const { message } = decodeAll([partsChunk([{ text: "Visible", thoughtSignature: "c2ln" }]), finishChunk()]);
		expect(message.content).toEqual([{ type: "text", text: "Visible", textSignature: "c2ln" }]);
	});

	it("decodes whole function calls, gives ids to calls without one or with a repeated one, and ends with toolUse", () => {
		const { message, types } = decodeAll([
			partsChunk([{ text: "Checking." }]),
			partsChunk([
				{ functionCall: { name: "ls", args: { dir: "." } }, thoughtSignature: "Zm4x" },
				{ functionCall: { name: "read", args: { path: "a" }, id: "fc-7" } },
				{ functionCall: { name: "read", args: { path: "b" }, id: "fc-7" } },
				{ functionCall: { name: "now" } },
			]),
			finishChunk("STOP"),
		]);
		expect(message.content.slice(1)).toEqual([
			{ type: "toolCall", id: "call_test_1", name: "ls", arguments: { dir: "." }, thoughtSignature: "Zm4x" },
			{ type: "toolCall", id: "fc-7", name: "read", arguments: { path: "a" } },
			{ type: "toolCall", id: "call_test_2", name: "read", arguments: { path: "b" } },
			{ type: "toolCall", id: "call_test_3", name: "now", arguments: {} },
		]);
		expect(message.stopReason).toBe("toolUse");
		expect(types.filter((type) => type.startsWith("toolcall"))).toEqual([
			...["toolcall_start", "toolcall_delta", "toolcall_end"],
			...["toolcall_start", "toolcall_delta", "toolcall_end"],
			...["toolcall_start", "toolcall_delta", "toolcall_end"],
			...["toolcall_start", "toolcall_delta", "toolcall_end"],
		]);
	});

	it("maps usage: cached tokens out of input, thoughts into output, the reported total", () => {
		const { message } = decodeAll([
			partsChunk([{ text: "Hi" }]),
			finishChunk("STOP", {
				promptTokenCount: 1000,
				cachedContentTokenCount: 600,
				candidatesTokenCount: 50,
				thoughtsTokenCount: 200,
				totalTokenCount: 1250,
			}),
		]);
		expect(message.usage).toMatchObject({ input: 400, cacheRead: 600, output: 250, cacheWrite: 0, totalTokens: 1250 });
		// testModel prices: input 2, output 8, cacheRead 0.5 $ per million tokens.
		expect(message.usage.cost.total).toBeCloseTo((400 * 2 + 250 * 8 + 600 * 0.5) / 1e6, 12);
	});

	it.each([
		["MAX_TOKENS", "length"],
		["STOP", "stop"],
	])("maps finishReason %s to %s", (reason, expected) => {
		expect(decodeAll([partsChunk([{ text: "x" }]), finishChunk(reason)]).message.stopReason).toBe(expected);
	});

	it.each([
		"SAFETY",
		"RECITATION",
		"BLOCKLIST",
		"PROHIBITED_CONTENT",
		"MALFORMED_FUNCTION_CALL",
		"UNEXPECTED_TOOL_CALL",
		"OTHER",
		"FINISH_REASON_UNSPECIFIED",
		"SOMETHING_NEW",
	])("ends finishReason %s as an error that keeps the content and the raw reason", (reason) => {
		const { message } = decodeAll([partsChunk([{ text: "partial" }]), finishChunk(reason)]);
		expect(message.stopReason).toBe("error");
		expect(message.rawStopReason).toBe(reason);
		expect(message.errorMessage).toBe(`Gemini stopped the response (${reason})`);
		expect(message.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("ends a blocked prompt (promptFeedback without candidates) with an error naming the reason", () => {
		const { message } = decodeAll([
			{ promptFeedback: { blockReason: "SAFETY" }, usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 } },
		]);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("Gemini blocked the prompt (SAFETY)");
		expect(message.rawStopReason).toBe("SAFETY");
		expect(message.usage.input).toBe(7);
	});

	it("ends a stream without a finishReason with an error that keeps the text", () => {
		const { message } = decodeAll([partsChunk([{ text: "half" }])]);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("The Gemini stream ended before the response was finished (no finishReason)");
		expect(message.content).toEqual([{ type: "text", text: "half" }]);
	});

	it("throws for a chunk whose parts are not a list", () => {
		const builder = new AssistantMessageBuilder(geminiModel(), () => {});
		const decoder = new GeminiStreamDecoder(builder, { label: "Gemini", toolCallIdPrefix: "c" });
		expect(() => decoder.decode({ candidates: [{ content: { parts: "text" as never } }] })).toThrow(
			"Malformed Gemini stream chunk (parts is not a list)",
		);
	});
});

import { describe, expect, it } from "vitest";
import { AssistantMessageBuilder } from "../../../src/message/assistant-message-builder.js";
import {
	decodeBedrockStreamEvents,
	mapBedrockStopReason,
} from "../../../src/providers/bedrock-converse-stream/index.js";
import type { ConverseStreamEvent } from "../../../src/providers/bedrock-converse-stream/wire-types.js";
import type { AssistantMessageEvent } from "../../../src/types.js";
import { ProviderStreamError } from "../../../src/wire/provider-errors.js";
import { bedrockModel } from "./fixtures.js";

function decode(events: unknown[]) {
	const emitted: AssistantMessageEvent[] = [];
	const builder = new AssistantMessageBuilder(bedrockModel(), (event) => emitted.push(event));
	builder.start();
	decodeBedrockStreamEvents(events as ConverseStreamEvent[], builder);
	return { message: builder.message, emitted };
}

const start = { messageStart: { role: "assistant" } };
const text = (index: number, value: string) => ({
	contentBlockDelta: { contentBlockIndex: index, delta: { text: value } },
});
const stop = (index: number) => ({ contentBlockStop: { contentBlockIndex: index } });
const messageStop = (stopReason: string) => ({ messageStop: { stopReason } });
const usage = (fields: Record<string, number>) => ({ metadata: { usage: fields, metrics: { latencyMs: 1 } } });

describe("mapBedrockStopReason", () => {
	it.each([
		["end_turn", "stop"],
		["stop_sequence", "stop"],
		["tool_use", "toolUse"],
		["max_tokens", "length"],
		["model_context_window_exceeded", "length"],
		["guardrail_intervened", undefined],
		["content_filtered", undefined],
		["malformed_tool_use", undefined],
		["something_new", undefined],
	])("%s → %s", (raw, mapped) => {
		expect(mapBedrockStopReason(raw)).toBe(mapped);
	});
});

describe("BedrockStreamDecoder", () => {
	it("streams a tool call from its start and input deltas", () => {
		const { message } = decode([
			start,
			{
				contentBlockStart: {
					contentBlockIndex: 0,
					start: { toolUse: { toolUseId: "tooluse_1", name: "get_weather" } },
				},
			},
			{ contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"city":' } } } },
			{ contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '"Paris"}' } } } },
			stop(0),
			messageStop("tool_use"),
			usage({ inputTokens: 5, outputTokens: 7, totalTokens: 12 }),
		]);
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toEqual([
			{ type: "toolCall", id: "tooluse_1", name: "get_weather", arguments: { city: "Paris" } },
		]);
	});

	it("keeps reasoning text with its signature, and redacted reasoning as base64", () => {
		const { message } = decode([
			start,
			{ contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { text: "Let me think" } } } },
			{ contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { signature: "sig-abc" } } } },
			stop(0),
			{
				contentBlockDelta: {
					contentBlockIndex: 1,
					delta: { reasoningContent: { redactedContent: new Uint8Array([1, 2, 3]) } },
				},
			},
			stop(1),
			text(2, "Answer"),
			stop(2),
			messageStop("end_turn"),
			usage({ inputTokens: 1, outputTokens: 1, totalTokens: 2 }),
		]);
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "Let me think", thinkingSignature: "sig-abc" },
			{ type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "AQID", redacted: true },
			{ type: "text", text: "Answer" },
		]);
	});

	it("maps usage with cache reads and writes, and the total Bedrock reports", () => {
		const { message } = decode([
			start,
			text(0, "x"),
			messageStop("end_turn"),
			usage({
				inputTokens: 100,
				outputTokens: 20,
				cacheReadInputTokens: 300,
				cacheWriteInputTokens: 50,
				totalTokens: 470,
			}),
		]);
		expect(message.usage).toMatchObject({ input: 100, output: 20, cacheRead: 300, cacheWrite: 50, totalTokens: 470 });
		// Sonnet 4 prices: 3 / 15 / 0.3 / 3.75 per million.
		expect(message.usage.cost.total).toBeCloseTo((100 * 3 + 20 * 15 + 300 * 0.3 + 50 * 3.75) / 1e6, 12);
	});

	it("ends a guardrail intervention as an error that keeps the text and the raw reason", () => {
		const { message } = decode([start, text(0, "Partial"), messageStop("guardrail_intervened"), usage({})]);
		expect(message.stopReason).toBe("error");
		expect(message.rawStopReason).toBe("guardrail_intervened");
		expect(message.errorMessage).toBe("Bedrock stopped the response: guardrail_intervened");
		expect(message.content).toEqual([{ type: "text", text: "Partial" }]);
	});

	it("finishes at the end of the stream when messageStop came without metadata", () => {
		const { message } = decode([start, text(0, "Hi"), messageStop("max_tokens")]);
		expect(message.stopReason).toBe("length");
	});

	it("fails a stream that ends without messageStop, naming it", () => {
		const { message } = decode([start, text(0, "Hi")]);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(
			"The Bedrock stream ended before the response was finished (no messageStop event)",
		);
		expect(message.content).toEqual([{ type: "text", text: "Hi" }]);
	});

	it("throws an exception member as a ProviderStreamError carrying the exception name", () => {
		expect(() => decode([start, { throttlingException: { message: "Too many requests" } }])).toThrow(
			new ProviderStreamError("Too many requests (ThrottlingException)", "ThrottlingException"),
		);
	});

	it("rejects a text delta on a tool-call block, quoting the event", () => {
		expect(() =>
			decode([
				start,
				{ contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: "t1", name: "f" } } } },
				text(0, "oops"),
			]),
		).toThrow(/Malformed Bedrock stream event \(a text delta on a toolCall block\)/);
	});

	it("skips event members it does not know", () => {
		const { message } = decode([
			start,
			{ $unknown: ["newEvent", {}] },
			text(0, "ok"),
			messageStop("end_turn"),
			usage({}),
		]);
		expect(message.stopReason).toBe("stop");
	});
});

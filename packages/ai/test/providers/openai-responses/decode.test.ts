import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { AssistantMessageBuilder } from "../../../src/message/assistant-message-builder.js";
import { OpenAIResponsesDecoder } from "../../../src/providers/openai-responses/decode.js";
import type { AssistantMessageEvent } from "../../../src/types.js";
import { ProviderStreamError } from "../../../src/wire/provider-errors.js";
import {
	completed,
	created,
	functionCallEvents,
	messageEvents,
	reasoningEvents,
	responseObject,
	responsesModel,
} from "./fixtures.js";

function decodeAll(wireEvents: Record<string, unknown>[], requestedTier?: string) {
	const events: AssistantMessageEvent[] = [];
	const builder = new AssistantMessageBuilder(responsesModel(), (event) => events.push(event));
	const decoder = new OpenAIResponsesDecoder(builder, "OpenAI", requestedTier);
	wireEvents.forEach((event, index) => {
		decoder.decode({ ...event, sequence_number: index } as unknown as ResponseStreamEvent);
	});
	return { message: builder.message, events, decoder };
}

describe("decodeOpenAIResponses", () => {
	it("fails with a clear error for a reasoning item nested too deep to keep as its signature", () => {
		let deep: unknown = 1;
		for (let level = 0; level < 100_000; level++) deep = { a: deep };
		const item = { type: "reasoning", id: "rs_deep", summary: [], extra: deep };
		expect(() => decodeAll([created(), { type: "response.output_item.done", output_index: 0, item }])).toThrow(
			"Malformed OpenAI stream: the reasoning item rs_deep cannot be kept (Maximum call stack size exceeded)",
		);
	});

	it("streams text and stores the item id and phase as a V1 text signature", () => {
		const { message, events } = decodeAll([
			created(),
			...messageEvents(0, ["Hel", "lo"], { id: "msg_abc", phase: "final_answer" }),
			completed(),
		]);
		expect(message.content).toEqual([
			{ type: "text", text: "Hello", textSignature: '{"v":1,"id":"msg_abc","phase":"final_answer"}' },
		]);
		expect(events.filter((event) => event.type === "text_delta").map((event) => event.delta)).toEqual(["Hel", "lo"]);
		expect(message.stopReason).toBe("stop");
		expect(message.responseId).toBe("resp_1");
		expect(message.responseModel).toBe("gpt-test-2026-01-01");
	});

	it("joins reasoning summary parts with a blank line and keeps the whole item as the signature", () => {
		const { message } = decodeAll([
			...reasoningEvents(0, [["Think", "ing"], ["More"]], { id: "rs_1", encrypted: "ENC" }),
			...messageEvents(1, ["ok"]),
			completed(),
		]);
		const thinking = message.content[0];
		expect(thinking).toMatchObject({ type: "thinking", thinking: "Thinking\n\nMore" });
		expect(thinking.type === "thinking" && JSON.parse(thinking.thinkingSignature ?? "")).toEqual({
			type: "reasoning",
			id: "rs_1",
			summary: [
				{ type: "summary_text", text: "Thinking" },
				{ type: "summary_text", text: "More" },
			],
			encrypted_content: "ENC",
		});
	});

	it("streams raw reasoning_text deltas (LM Studio) as thinking", () => {
		const { message } = decodeAll([
			{ type: "response.output_item.added", output_index: 0, item: { type: "reasoning", id: "rs_l", summary: [] } },
			{ type: "response.reasoning_text.delta", output_index: 0, item_id: "rs_l", content_index: 0, delta: "raw " },
			{ type: "response.reasoning_text.delta", output_index: 0, item_id: "rs_l", content_index: 0, delta: "thought" },
			{
				type: "response.output_item.done",
				output_index: 0,
				item: {
					type: "reasoning",
					id: "rs_l",
					summary: [],
					content: [{ type: "reasoning_text", text: "raw thought" }],
				},
			},
			completed(),
		]);
		expect(message.content[0]).toMatchObject({ type: "thinking", thinking: "raw thought" });
	});

	it("opens reasoning and text on their first delta when a server skips output_item.added", () => {
		const { message } = decodeAll([
			{ type: "response.reasoning_text.delta", output_index: 0, item_id: "rs_x", content_index: 0, delta: "hmm" },
			{ type: "response.output_text.delta", output_index: 1, item_id: "msg_x", content_index: 0, delta: "answer" },
			completed(),
		]);
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "hmm" },
			{ type: "text", text: "answer" },
		]);
		expect(message.stopReason).toBe("stop");
	});

	it("builds tool calls with callId|itemId ids and stop becomes toolUse", () => {
		const { message } = decodeAll([
			...functionCallEvents(0, "read", ['{"pa', 'th":"a.txt"}'], { callId: "call_A", id: "fc_A" }),
			...functionCallEvents(1, "list", ["{}"], { callId: "call_B", id: "fc_B" }),
			completed(),
		]);
		expect(message.content).toEqual([
			{ type: "toolCall", id: "call_A|fc_A", name: "read", arguments: { path: "a.txt" } },
			{ type: "toolCall", id: "call_B|fc_B", name: "list", arguments: {} },
		]);
		expect(message.stopReason).toBe("toolUse");
	});

	it("takes arguments from function_call_arguments.done when no deltas came", () => {
		const { message } = decodeAll([
			{
				type: "response.output_item.added",
				output_index: 0,
				item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "f", arguments: "" },
			},
			{ type: "response.function_call_arguments.done", output_index: 0, item_id: "fc_1", arguments: '{"x":1}' },
			{
				type: "response.output_item.done",
				output_index: 0,
				item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "f", arguments: '{"x":1}' },
			},
			completed(),
		]);
		expect(message.content[0]).toMatchObject({ arguments: { x: 1 } });
	});

	it("opens items that arrive only as output_item.done (compatible servers)", () => {
		const { message } = decodeAll([
			{
				type: "response.output_item.done",
				output_index: 0,
				item: {
					type: "message",
					id: "m",
					role: "assistant",
					status: "completed",
					content: [{ type: "output_text", text: "whole", annotations: [] }],
				},
			},
			completed(),
		]);
		expect(message.content).toEqual([{ type: "text", text: "whole", textSignature: '{"v":1,"id":"m"}' }]);
	});

	it("sets usage without cached tokens in input and without adding reasoning tokens again", () => {
		const { message } = decodeAll([
			...messageEvents(0, ["x"]),
			completed({ input_tokens: 1_000_000, cached: 400_000, output_tokens: 500_000, reasoning: 200_000 }),
		]);
		expect(message.usage).toMatchObject({
			input: 600_000,
			cacheRead: 400_000,
			output: 500_000,
			totalTokens: 1_500_000,
		});
		expect(message.usage.cost).toMatchObject({ input: 1.2, cacheRead: 0.2, output: 4, total: 5.4 });
	});

	it("scales the cost by the service tier the response reports", () => {
		const flex = decodeAll([
			...messageEvents(0, ["x"]),
			completed({ input_tokens: 1_000_000, output_tokens: 0 }, "flex"),
		]);
		expect(flex.message.usage.cost.total).toBe(1);
		const priority = decodeAll([
			...messageEvents(0, ["x"]),
			completed({ input_tokens: 1_000_000, output_tokens: 0 }, "priority"),
		]);
		expect(priority.message.usage.cost.total).toBe(4);
	});

	it("maps response.incomplete with max_output_tokens to length, keeping content", () => {
		const { message } = decodeAll([
			...messageEvents(0, ["cut sh"]),
			{
				type: "response.incomplete",
				response: responseObject("incomplete", {
					incomplete: "max_output_tokens",
					usage: { input_tokens: 3, output_tokens: 7 },
				}),
			},
		]);
		expect(message.stopReason).toBe("length");
		expect(message.rawStopReason).toBe("max_output_tokens");
		expect(message.usage.output).toBe(7);
	});

	it("maps an incomplete response stopped by the content filter to an error that keeps content", () => {
		const { message } = decodeAll([
			...messageEvents(0, ["partial"]),
			{ type: "response.incomplete", response: responseObject("incomplete", { incomplete: "content_filter" }) },
		]);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("OpenAI stopped the response: content_filter");
		expect(message.rawStopReason).toBe("content_filter");
		expect(message.content[0]).toMatchObject({ text: "partial" });
	});

	it("maps response.failed to an error with the code and message", () => {
		const { message } = decodeAll([
			created(),
			{
				type: "response.failed",
				response: responseObject("failed", {
					error: { code: "server_error", message: "The model crashed" },
					usage: { input_tokens: 4, output_tokens: 0 },
				}),
			},
		]);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("OpenAI response failed: server_error: The model crashed");
		expect(message.usage.input).toBe(4);
	});

	it("does not crash on an unknown status: an error keeping the raw status", () => {
		const { message } = decodeAll([
			...messageEvents(0, ["hi"]),
			{ type: "response.completed", response: responseObject("paused_for_review") },
		]);
		expect(message.stopReason).toBe("error");
		expect(message.rawStopReason).toBe("paused_for_review");
		expect(message.content[0]).toMatchObject({ text: "hi" });
	});

	it("treats cancelled as an error", () => {
		const { message } = decodeAll([{ type: "response.completed", response: responseObject("cancelled") }]);
		expect(message.errorMessage).toBe("OpenAI response cancelled: cancelled");
	});

	it("throws on an in-stream error event, with its code", () => {
		let thrown: unknown;
		try {
			decodeAll([{ type: "error", code: "rate_limit_exceeded", message: "Slow down", param: null }]);
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(ProviderStreamError);
		expect(thrown).toMatchObject({
			message: "OpenAI stream error rate_limit_exceeded: Slow down",
			code: "rate_limit_exceeded",
		});
	});

	it("reads the code and message of an error event nested under error", () => {
		expect(() =>
			decodeAll([{ type: "error", error: { code: "rate_limit_exceeded", message: "Slow down" } } as never]),
		).toThrow("OpenAI stream error rate_limit_exceeded: Slow down");
	});

	it("throws on argument deltas for an item that is not an open function call", () => {
		expect(() =>
			decodeAll([
				...messageEvents(0, ["x"]).slice(0, 2),
				{ type: "response.function_call_arguments.delta", output_index: 0, item_id: "m", delta: "{" },
			]),
		).toThrow("Malformed OpenAI stream: response.function_call_arguments.delta for output 0, which is a message");
	});

	it("accepts response.created without a response object, but not a terminal event without one", () => {
		expect(() => decodeAll([{ type: "response.created" }, ...messageEvents(0, ["x"]), completed()])).not.toThrow();
		expect(() => decodeAll([{ type: "response.completed" }])).toThrow(
			"Malformed OpenAI stream: response.completed without a response object",
		);
	});

	it("ignores unknown and hosted-tool events", () => {
		const { message } = decodeAll([
			{ type: "response.web_search_call.in_progress", output_index: 0, item_id: "ws" },
			{ type: "response.something_new", foo: 1 },
			...messageEvents(1, ["ok"]),
			completed(),
		]);
		expect(message.content).toHaveLength(1);
		expect(message.stopReason).toBe("stop");
	});

	it("emits refusal deltas as text", () => {
		const { message } = decodeAll([
			{
				type: "response.output_item.added",
				output_index: 0,
				item: { type: "message", id: "m", role: "assistant", status: "in_progress", content: [] },
			},
			{ type: "response.refusal.delta", output_index: 0, item_id: "m", content_index: 0, delta: "I can't" },
			{
				type: "response.output_item.done",
				output_index: 0,
				item: {
					type: "message",
					id: "m",
					role: "assistant",
					status: "completed",
					content: [{ type: "refusal", refusal: "I can't" }],
				},
			},
			completed(),
		]);
		expect(message.content[0]).toMatchObject({ type: "text", text: "I can't" });
	});
});

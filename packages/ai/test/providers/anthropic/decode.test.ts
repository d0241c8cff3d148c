import type Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { AssistantMessageBuilder } from "../../../src/message/assistant-message-builder.js";
import { AnthropicStreamDecoder, decodeAnthropicStreamEvents } from "../../../src/providers/anthropic/decode.js";
import { anthropicContentBlock, anthropicToolCaller } from "../../../src/providers/anthropic/server-blocks.js";
import { mapAnthropicStopReason } from "../../../src/providers/anthropic/stop-reason.js";
import type { AssistantMessageEvent, ToolCall } from "../../../src/types.js";
import {
	blockStop,
	claudeModel,
	inputJsonDelta,
	messageDelta,
	messageStart,
	messageStop,
	ping,
	textDelta,
	textStart,
	thinkingDelta,
	toolUseStart,
} from "./fixtures.js";

type RawEvent = Anthropic.Messages.RawMessageStreamEvent;

function decode(events: unknown[]) {
	const emitted: AssistantMessageEvent[] = [];
	const builder = new AssistantMessageBuilder(claudeModel(), (event) => emitted.push(event));
	builder.start();
	decodeAnthropicStreamEvents(events as RawEvent[], builder);
	return { message: builder.message, emitted };
}

describe("mapAnthropicStopReason", () => {
	it.each([
		["end_turn", "stop"],
		["stop_sequence", "stop"],
		["pause_turn", "stop"],
		["tool_use", "toolUse"],
		["max_tokens", "length"],
		["model_context_window_exceeded", "length"],
		["refusal", undefined],
		["sensitive", undefined],
		["constructor", undefined],
		["brand_new_reason", undefined],
	])("%s → %s", (raw, expected) => {
		expect(mapAnthropicStopReason(raw)).toBe(expected);
	});
});

describe("AnthropicStreamDecoder", () => {
	const body = [messageStart(), textStart(0), textDelta(0, "partial answer"), blockStop(0)];

	it.each([
		["end_turn", "stop"],
		["stop_sequence", "stop"],
		["pause_turn", "stop"],
		["max_tokens", "length"],
		["model_context_window_exceeded", "length"],
	])("ends %s as done with %s and keeps the raw reason", (raw, reason) => {
		const { message, emitted } = decode([...body, messageDelta(raw), messageStop]);
		expect(emitted.at(-1)?.type).toBe("done");
		expect(message.stopReason).toBe(reason);
		expect(message.rawStopReason).toBe(raw);
	});

	it.each(["refusal", "sensitive", "some_future_reason"])(
		"ends %s as an error that keeps the content and the raw reason",
		(raw) => {
			const { message, emitted } = decode([...body, messageDelta(raw), messageStop]);
			expect(emitted.at(-1)?.type).toBe("error");
			expect(message.stopReason).toBe("error");
			expect(message.errorMessage).toBe(`Anthropic stopped the response: ${raw}`);
			expect(message.rawStopReason).toBe(raw);
			expect(message.content).toEqual([{ type: "text", text: "partial answer" }]);
		},
	);

	it("fails when message_stop arrives without any stop reason", () => {
		const { message } = decode([...body, messageStop]);
		expect(message.errorMessage).toBe("Anthropic ended the message without a stop reason");
	});

	it("skips ping, unknown event types and citations", () => {
		const { message } = decode([
			messageStart(),
			ping,
			{ type: "some_new_event", payload: 1 },
			textStart(0),
			textDelta(0, "cited"),
			{
				type: "content_block_delta",
				index: 0,
				delta: { type: "citations_delta", citation: { type: "char_location" } },
			},
			blockStop(0),
			messageDelta("end_turn"),
			messageStop,
		]);
		expect(message.content).toEqual([{ type: "text", text: "cited" }]);
		expect(message.stopReason).toBe("stop");
	});

	it("keeps server tool use, with its streamed input, and the server tool's result as raw blocks", () => {
		const searchResult = {
			type: "web_search_tool_result",
			tool_use_id: "srvtoolu_01",
			content: [{ type: "web_search_result", url: "https://example.com", title: "Example", encrypted_content: "EqgB" }],
		};
		const { message, emitted } = decode([
			messageStart(),
			{
				type: "content_block_start",
				index: 0,
				content_block: { type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: {} },
			},
			inputJsonDelta(0, '{"query":'),
			inputJsonDelta(0, '"weather"}'),
			blockStop(0),
			{ type: "content_block_start", index: 1, content_block: searchResult },
			blockStop(1),
			textStart(2),
			textDelta(2, "Sunny."),
			blockStop(2),
			messageDelta("end_turn"),
			messageStop,
		]);
		expect(message.stopReason).toBe("stop");
		expect(message.content.map((block) => block.type === "text" && anthropicContentBlock(block))).toEqual([
			{ type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: { query: "weather" } },
			searchResult,
			undefined,
		]);
		expect(message.content.map((block) => block.type === "text" && block.text)).toEqual(["", "", "Sunny."]);
		expect(emitted.filter((event) => event.type === "text_end")).toHaveLength(3);
	});

	it("keeps the blocks and the stop reason of a message_start that arrives finished (programmatic tool calling)", () => {
		const start = messageStart();
		Object.assign(start.message, {
			stop_reason: "tool_use",
			content: [
				{ type: "text", text: "Running the script." },
				{
					type: "server_tool_use",
					id: "srvtoolu_02",
					name: "code_execution",
					input: { code: "print(await get_weather('Paris'))" },
				},
				{
					type: "tool_use",
					id: "toolu_03",
					name: "get_weather",
					input: { city: "Paris" },
					caller: { type: "code_execution_20250825", tool_id: "srvtoolu_02" },
				},
			],
		});
		const { message, emitted } = decode([start, messageStop]);
		expect(message.errorMessage).toBeUndefined();
		expect(message.stopReason).toBe("toolUse");
		expect(message.content[0]).toEqual({ type: "text", text: "Running the script." });
		expect(message.content[1].type === "text" && anthropicContentBlock(message.content[1])).toMatchObject({
			type: "server_tool_use",
			id: "srvtoolu_02",
		});
		const toolCall = message.content[2] as ToolCall;
		expect(toolCall).toMatchObject({
			type: "toolCall",
			id: "toolu_03",
			name: "get_weather",
			arguments: { city: "Paris" },
		});
		expect(anthropicToolCaller(toolCall)).toEqual({ type: "code_execution_20250825", tool_id: "srvtoolu_02" });
		expect(emitted.map((event) => event.type)).toContain("toolcall_end");
	});

	it("takes the stop reason of message_delta over the one in message_start", () => {
		const start = messageStart();
		Object.assign(start.message, { stop_reason: "tool_use" });
		const { message } = decode([
			start,
			textStart(0),
			textDelta(0, "hi"),
			blockStop(0),
			messageDelta("end_turn"),
			messageStop,
		]);
		expect(message.stopReason).toBe("stop");
	});

	it("keeps tool arguments sent whole in content_block_start, with no deltas", () => {
		const { message } = decode([
			messageStart(),
			{
				type: "content_block_start",
				index: 0,
				content_block: { type: "tool_use", id: "t", name: "f", input: { a: 1 }, caller: { type: "direct" } },
			},
			blockStop(0),
			messageDelta("tool_use"),
			messageStop,
		]);
		expect(message.content).toEqual([{ type: "toolCall", id: "t", name: "f", arguments: { a: 1 } }]);
	});

	it("never replaces a tool_use input sent whole in content_block_start with an empty delta", () => {
		const { message } = decode([
			messageStart(),
			{
				type: "content_block_start",
				index: 0,
				content_block: { type: "tool_use", id: "t", name: "f", input: { a: 1 } },
			},
			inputJsonDelta(0, ""),
			blockStop(0),
			messageDelta("tool_use"),
			messageStop,
		]);
		expect(message.content).toEqual([{ type: "toolCall", id: "t", name: "f", arguments: { a: 1 } }]);
		expect(message.diagnostics).toBeUndefined();
	});

	it("records invalid tool arguments as a diagnostic instead of crashing", () => {
		const { message } = decode([
			messageStart(),
			toolUseStart(0, "t", "f"),
			inputJsonDelta(0, '{"a": '),
			blockStop(0),
			messageDelta("tool_use"),
			messageStop,
		]);
		expect(message.stopReason).toBe("toolUse");
		expect(message.diagnostics?.[0]?.type).toBe("invalid_tool_arguments");
	});

	it("updates usage on message_start and again on message_delta", () => {
		const emitted: AssistantMessageEvent[] = [];
		const builder = new AssistantMessageBuilder(claudeModel(), (event) => emitted.push(event));
		const decoder = new AnthropicStreamDecoder(builder);
		decoder.decode(messageStart({ input_tokens: 100, output_tokens: 1 }) as RawEvent);
		expect(builder.message.usage.input).toBe(100);
		decoder.decode(messageDelta("end_turn", { output_tokens: 50, cache_read_input_tokens: 7 }) as RawEvent);
		expect(builder.message.usage).toMatchObject({ input: 100, output: 50, cacheRead: 7, totalTokens: 157 });
	});

	it.each([
		["a delta of the wrong kind for its block", [messageStart(), textStart(0), thinkingDelta(0, "x")]],
		[
			"a text_delta without text",
			[messageStart(), textStart(0), { type: "content_block_delta", index: 0, delta: { type: "text_delta" } }],
		],
		["a block started twice", [messageStart(), textStart(0), textStart(0)]],
		["message_start without a message", [{ type: "message_start" }]],
		[
			"a tool_use without an id",
			[
				messageStart(),
				{ type: "content_block_start", index: 0, content_block: { type: "tool_use", name: "f", input: {} } },
			],
		],
	])("throws a clear error for %s", (_name, events) => {
		expect(() => decode(events)).toThrow(/Malformed Anthropic stream event/);
	});
});

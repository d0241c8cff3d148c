import { describe, expect, it } from "vitest";
import { anthropicContentBlock, streamAnthropic } from "../../../src/providers/anthropic/index.js";
import { splitBytes } from "../../../src/testing/wire-test-server.js";
import type { Context, ToolCall } from "../../../src/types.js";
import { collectEvents } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import {
	anthropicSse,
	blockStop,
	claudeModel,
	inputJsonDelta,
	messageDelta,
	messageStart,
	messageStop,
	redactedThinking,
	signatureDelta,
	sseResponse,
	TEST_KEY,
	textDelta,
	textResponseEvents,
	textStart,
	thinkingDelta,
	thinkingStart,
	toolUseStart,
} from "./fixtures.js";

const wire = useWireTestServer();

const context: Context = { messages: [{ role: "user", content: "Hello", timestamp: 1 }] };
const model = () => claudeModel({ baseUrl: wire.server.url });

describe("anthropic streaming over HTTP", () => {
	it("streams text deltas as our events and ends with done", async () => {
		wire.server.enqueue(sseResponse(textResponseEvents(["Hel", "lo ", "world"])));
		const stream = streamAnthropic(model(), context, { apiKey: TEST_KEY });
		const events = await collectEvents(stream);
		expect(events.map((event) => event.type)).toEqual([
			"start",
			"text_start",
			"text_delta",
			"text_delta",
			"text_delta",
			"text_end",
			"done",
		]);
		const result = await stream.result();
		expect(result.content).toEqual([{ type: "text", text: "Hello world" }]);
		expect(result.stopReason).toBe("stop");
		expect(result.responseId).toBe("msg_01TEST");
		expect(wire.server.lastRequest?.url).toBe("/v1/messages");
	});

	it("keeps thinking with its signature, and redacted thinking with its data", async () => {
		wire.server.enqueue(
			sseResponse([
				messageStart(),
				thinkingStart(0),
				thinkingDelta(0, "Let me "),
				thinkingDelta(0, "think."),
				signatureDelta(0, "sig-part-1"),
				signatureDelta(0, "+part-2"),
				blockStop(0),
				redactedThinking(1, "ENCRYPTED=="),
				blockStop(1),
				textStart(2),
				textDelta(2, "Answer"),
				blockStop(2),
				messageDelta("end_turn"),
				messageStop,
			]),
		);
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY }).result();
		expect(result.content).toEqual([
			{ type: "thinking", thinking: "Let me think.", thinkingSignature: "sig-part-1+part-2" },
			{ type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "ENCRYPTED==", redacted: true },
			{ type: "text", text: "Answer" },
		]);
	});

	it("interleaves thinking between tool calls (interleaved thinking)", async () => {
		wire.server.enqueue(
			sseResponse([
				messageStart(),
				thinkingStart(0),
				thinkingDelta(0, "first"),
				signatureDelta(0, "s1"),
				blockStop(0),
				toolUseStart(1, "toolu_1", "read"),
				inputJsonDelta(1, '{"path":"a"}'),
				blockStop(1),
				thinkingStart(2),
				thinkingDelta(2, "second"),
				signatureDelta(2, "s2"),
				blockStop(2),
				toolUseStart(3, "toolu_2", "read"),
				inputJsonDelta(3, '{"path":"b"}'),
				blockStop(3),
				messageDelta("tool_use"),
				messageStop,
			]),
		);
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY }).result();
		expect(result.content.map((block) => block.type)).toEqual(["thinking", "toolCall", "thinking", "toolCall"]);
		expect(result.stopReason).toBe("toolUse");
	});

	it("assembles tool arguments streamed in pieces split inside UTF-8 characters and SSE lines", async () => {
		const argumentsJson = JSON.stringify({ city: "Zürich", note: "→ 日本語 🙂", count: 3 });
		const events = [
			messageStart(),
			toolUseStart(0, "toolu_01A", "weather"),
			...argumentsJson.match(/.{1,5}/gsu)!.map((piece) => inputJsonDelta(0, piece)),
			blockStop(0),
			toolUseStart(1, "toolu_01B", "clock"),
			inputJsonDelta(1, ""),
			blockStop(1),
			messageDelta("tool_use"),
			messageStop,
		];
		// 7-byte pieces cut through multi-byte characters, `data:` lines and event boundaries.
		wire.server.enqueue({ body: splitBytes(anthropicSse(events), 7) });
		const stream = streamAnthropic(model(), context, { apiKey: TEST_KEY });
		const all = await collectEvents(stream);
		const result = await stream.result();
		const calls = result.content.filter((block): block is ToolCall => block.type === "toolCall");
		expect(calls).toEqual([
			{
				type: "toolCall",
				id: "toolu_01A",
				name: "weather",
				arguments: { city: "Zürich", note: "→ 日本語 🙂", count: 3 },
			},
			{ type: "toolCall", id: "toolu_01B", name: "clock", arguments: {} },
		]);
		expect(all.filter((event) => event.type === "toolcall_end")).toHaveLength(2);
		expect(result.stopReason).toBe("toolUse");
	});

	it("reads usage and cost from message_start and message_delta, cache included", async () => {
		wire.server.enqueue(
			sseResponse([
				messageStart({
					input_tokens: 1000,
					output_tokens: 1,
					cache_read_input_tokens: 2000,
					cache_creation_input_tokens: 500,
				}),
				textStart(0),
				textDelta(0, "ok"),
				blockStop(0),
				// message_delta repeats input fields as null on some paths: only numbers overwrite.
				messageDelta("end_turn", { output_tokens: 300, input_tokens: null, cache_read_input_tokens: null }),
				messageStop,
			]),
		);
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY }).result();
		expect(result.usage).toMatchObject({
			input: 1000,
			output: 300,
			cacheRead: 2000,
			cacheWrite: 500,
			totalTokens: 3800,
		});
		// $3/M input, $15/M output, $0.3/M cache read, $3.75/M cache write.
		expect(result.usage.cost.input).toBeCloseTo(0.003);
		expect(result.usage.cost.output).toBeCloseTo(0.0045);
		expect(result.usage.cost.cacheRead).toBeCloseTo(0.0006);
		expect(result.usage.cost.cacheWrite).toBeCloseTo(0.001875);
		expect(result.usage.cost.total).toBeCloseTo(0.009975);
	});

	it("records the model the API reports when it differs", async () => {
		wire.server.enqueue(
			sseResponse([messageStart({}, "claude-sonnet-4-20250514-v2"), messageDelta("end_turn"), messageStop]),
		);
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY }).result();
		expect(result.responseModel).toBe("claude-sonnet-4-20250514-v2");
		expect(result.content).toEqual([]);
	});

	it.each([
		["end_turn", "stop", undefined],
		["stop_sequence", "stop", undefined],
		["pause_turn", "stop", undefined],
		["max_tokens", "length", undefined],
		["model_context_window_exceeded", "length", undefined],
		["refusal", "error", "Anthropic stopped the response: refusal"],
		["sensitive", "error", "Anthropic stopped the response: sensitive"],
		["a_reason_from_the_future", "error", "Anthropic stopped the response: a_reason_from_the_future"],
	])("maps stop reason %s to %s over the wire, keeping the text", async (raw, reason, errorMessage) => {
		wire.server.enqueue(sseResponse(textResponseEvents(["kept"], raw)));
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY }).result();
		expect(result.stopReason).toBe(reason);
		expect(result.rawStopReason).toBe(raw);
		expect(result.errorMessage).toBe(errorMessage);
		expect(result.content).toEqual([{ type: "text", text: "kept" }]);
		expect(result.usage.output).toBe(5);
	});

	it("sends images to an image model and a note to a text-only model", async () => {
		const withImage: Context = {
			messages: [
				{
					role: "user",
					content: [
						{ type: "text", text: "what is this?" },
						{ type: "image", data: "R0lGODlhAQABAAAAACw=", mimeType: "image/gif" },
					],
					timestamp: 1,
				},
			],
		};
		wire.server.enqueue(sseResponse(textResponseEvents(["a pixel"])), sseResponse(textResponseEvents(["cannot see"])));
		await streamAnthropic(model(), withImage, { apiKey: TEST_KEY, cacheRetention: "none" }).result();
		await streamAnthropic(claudeModel({ baseUrl: wire.server.url, input: ["text"] }), withImage, {
			apiKey: TEST_KEY,
			cacheRetention: "none",
		}).result();
		const [imageRequest, textRequest] = wire.server.requests.map(
			(request) => (request.json as { messages: { content: unknown[] }[] }).messages[0].content,
		);
		expect(imageRequest[1]).toEqual({
			type: "image",
			source: { type: "base64", media_type: "image/gif", data: "R0lGODlhAQABAAAAACw=" },
		});
		expect(textRequest[1]).toEqual({ type: "text", text: "(image omitted: this model does not accept images)" });
	});

	it("ends a message whose message_start already holds finished blocks and the stop reason (programmatic tool calling)", async () => {
		const start = messageStart();
		Object.assign(start.message, {
			stop_reason: "tool_use",
			content: [
				{ type: "server_tool_use", id: "srvtoolu_01", name: "code_execution", input: { code: "get_weather('Paris')" } },
				{
					type: "tool_use",
					id: "toolu_01",
					name: "get_weather",
					input: { city: "Paris" },
					caller: { type: "code_execution_20250825", tool_id: "srvtoolu_01" },
				},
			],
		});
		wire.server.enqueue(sseResponse([start, messageStop]));
		const stream = streamAnthropic(model(), context, { apiKey: TEST_KEY });
		const events = await collectEvents(stream);
		const result = await stream.result();
		expect(events.at(-1)?.type).toBe("done");
		expect(result.stopReason).toBe("toolUse");
		const toolCall = result.content.find((block): block is ToolCall => block.type === "toolCall");
		expect(toolCall).toMatchObject({ id: "toolu_01", name: "get_weather", arguments: { city: "Paris" } });
		expect(events.some((event) => event.type === "toolcall_end" && event.toolCall.id === "toolu_01")).toBe(true);
	});

	it("shows a web search's blocks to the caller and sends them back unchanged on the next turn", async () => {
		const searchResult = {
			type: "web_search_tool_result",
			tool_use_id: "srvtoolu_01",
			content: [
				{ type: "web_search_result", url: "https://example.com/w", title: "Weather", encrypted_content: "Eq0B" },
			],
		};
		wire.server.enqueue(
			sseResponse([
				messageStart(),
				{
					type: "content_block_start",
					index: 0,
					content_block: { type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: {} },
				} as never,
				inputJsonDelta(0, '{"query": "weather in Paris"}'),
				blockStop(0),
				{ type: "content_block_start", index: 1, content_block: searchResult } as never,
				blockStop(1),
				textStart(2),
				textDelta(2, "Sunny."),
				blockStop(2),
				messageDelta("end_turn"),
				messageStop,
			]),
			sseResponse(textResponseEvents(["You're welcome."])),
		);
		const first = await streamAnthropic(model(), context, { apiKey: TEST_KEY }).result();
		expect(
			first.content.map((block) => (block.type === "text" ? anthropicContentBlock(block)?.type : block.type)),
		).toEqual(["server_tool_use", "web_search_tool_result", undefined]);
		const next: Context = {
			messages: [...context.messages, first, { role: "user", content: "Thanks", timestamp: 3 }],
		};
		await streamAnthropic(model(), next, { apiKey: TEST_KEY, cacheRetention: "none" }).result();
		const sent = (wire.server.requests[1].json as { messages: { content: unknown[] }[] }).messages[1].content;
		expect(sent).toEqual([
			{ type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: { query: "weather in Paris" } },
			searchResult,
			{ type: "text", text: "Sunny." },
		]);
	});
});

import { describe, expect, it } from "vitest";
import {
	AssistantMessageBuilder,
	MAX_TOOL_ARGUMENTS_LENGTH,
	TOOL_ARGUMENTS_REJECTED,
} from "../src/message/assistant-message-builder.js";
import type { AssistantMessageEvent, Model } from "../src/types.js";

const model: Model<"test-api"> = {
	id: "test-model",
	name: "Test",
	api: "test-api",
	provider: "test-provider",
	baseUrl: "http://127.0.0.1:1",
	reasoning: true,
	input: ["text"],
	cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
	contextWindow: 1000,
	maxTokens: 100,
};

function setup() {
	const events: AssistantMessageEvent[] = [];
	const builder = new AssistantMessageBuilder(model, (event) => events.push(event));
	return { builder, events };
}

function summary(events: AssistantMessageEvent[]): string[] {
	return events.map((event) => ("contentIndex" in event ? `${event.type}:${event.contentIndex}` : event.type));
}

describe("AssistantMessageBuilder", () => {
	it("emits start once, then block events with the index into partial.content", () => {
		const { builder, events } = setup();
		builder.start();
		const thinking = builder.startThinking();
		builder.appendThinking(thinking, "hmm");
		builder.endThinking(thinking, "sig");
		const text = builder.startText();
		builder.appendText(text, "Hel");
		builder.appendText(text, "lo");
		builder.endText(text);
		const call = builder.startToolCall("call_1", "read");
		builder.appendToolCallArguments(call, '{"path":');
		builder.appendToolCallArguments(call, '"a"}');
		builder.endToolCall(call);
		builder.finish("stop");
		expect(summary(events)).toEqual([
			"start",
			"thinking_start:0",
			"thinking_delta:0",
			"thinking_end:0",
			"text_start:1",
			"text_delta:1",
			"text_delta:1",
			"text_end:1",
			"toolcall_start:2",
			"toolcall_delta:2",
			"toolcall_delta:2",
			"toolcall_end:2",
			"done",
		]);
		expect(builder.message.content).toEqual([
			{ type: "thinking", thinking: "hmm", thinkingSignature: "sig" },
			{ type: "text", text: "Hello" },
			{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a" } },
		]);
	});

	it("shares one partial object across events (mutated, never copied)", () => {
		const { builder, events } = setup();
		builder.appendText(builder.startText(), "x");
		builder.finish("stop");
		const partials = events.map((event) =>
			"partial" in event ? event.partial : event.type === "done" ? event.message : undefined,
		);
		expect(new Set(partials).size).toBe(1);
		expect(partials[0]).toBe(builder.message);
	});

	it("starts implicitly when the first block is added", () => {
		const { builder, events } = setup();
		builder.startText();
		expect(summary(events)).toEqual(["start", "text_start:0"]);
	});

	it("upgrades stop to toolUse when the message holds tool calls, keeps length as is", () => {
		const withCall = setup();
		withCall.builder.endToolCall(withCall.builder.startToolCall("c", "run"));
		expect(withCall.builder.finish("stop").stopReason).toBe("toolUse");
		const done = withCall.events.at(-1);
		expect(done?.type === "done" && done.reason).toBe("toolUse");

		const truncated = setup();
		truncated.builder.endToolCall(truncated.builder.startToolCall("c", "run"));
		expect(truncated.builder.finish("length").stopReason).toBe("length");
	});

	it("records the raw stop reason it was given", () => {
		const { builder } = setup();
		expect(builder.finish("stop", "sensitive").rawStopReason).toBe("sensitive");
	});

	it("turns truncated tool JSON into a diagnostic, keeping what was parsed", () => {
		const { builder, events } = setup();
		const call = builder.startToolCall("call_9", "write");
		builder.appendToolCallArguments(call, '{"path":"a.txt","text":"unfinis');
		builder.endToolCall(call);
		const message = builder.finish("stop");
		expect(message.content[0]).toMatchObject({ type: "toolCall", arguments: { path: "a.txt" } });
		expect(message.diagnostics?.[0]).toMatchObject({
			type: "invalid_tool_arguments",
			details: { toolCallId: "call_9", received: '{"path":"a.txt","text":"unfinis' },
		});
		expect(message.diagnostics?.[0].error?.message).toMatch(
			/Tool call "write" \(call_9\) arguments are not a complete JSON object/,
		);
		expect(events.some((event) => event.type === "toolcall_end")).toBe(true);
	});

	it("turns JSON that is not an object into a diagnostic with empty arguments", () => {
		const { builder } = setup();
		const call = builder.startToolCall("call_a", "list");
		builder.appendToolCallArguments(call, "[1,2]");
		builder.endToolCall(call);
		const message = builder.finish("stop");
		expect(message.content[0]).toMatchObject({ arguments: {} });
		expect(message.diagnostics?.[0].type).toBe("invalid_tool_arguments");
	});

	it("drops tool arguments longer than the limit: empty arguments and a diagnostic with the length", () => {
		const { builder, events } = setup();
		const index = builder.startToolCall("call_1", "write");
		const content = "x".repeat(MAX_TOOL_ARGUMENTS_LENGTH);
		builder.appendToolCallArguments(index, '{"content":"');
		builder.appendToolCallArguments(index, content);
		builder.appendToolCallArguments(index, '"}');
		builder.finish("toolUse");
		expect(builder.message.content[index]).toMatchObject({ type: "toolCall", arguments: {} });
		expect(builder.message.diagnostics).toEqual([
			expect.objectContaining({
				type: TOOL_ARGUMENTS_REJECTED,
				error: {
					message: `Tool call "write" (call_1) arguments were dropped: they are longer than ${MAX_TOOL_ARGUMENTS_LENGTH} characters (the limit for one tool call). The tool was not given them; send smaller, flatter arguments.`,
				},
				details: { toolCallId: "call_1", receivedLength: MAX_TOOL_ARGUMENTS_LENGTH + 14 },
			}),
		]);
		// Every delta still reached the caller.
		expect(events.filter((event) => event.type === "toolcall_delta")).toHaveLength(3);
	});

	it("adds no diagnostic for a tool call without arguments", () => {
		const { builder } = setup();
		builder.endToolCall(builder.startToolCall("c", "noop"));
		expect(builder.finish("stop").diagnostics).toBeUndefined();
	});

	it("lets endToolCall patch the id and name that arrive late", () => {
		const { builder } = setup();
		const call = builder.startToolCall("", "");
		builder.endToolCall(call, { id: "late_id", name: "late_name" });
		expect(builder.message.content[0]).toMatchObject({ id: "late_id", name: "late_name" });
	});

	it("throws a decoding error when a delta targets the wrong block type", () => {
		const { builder } = setup();
		const text = builder.startText();
		expect(() => builder.appendThinking(text, "x")).toThrow(
			"Stream decoding error: block 0 is text, expected thinking",
		);
		expect(() => builder.appendText(5, "x")).toThrow("block 5 is missing");
	});

	it("closes open blocks in index order on fail and keeps the partial content", () => {
		const { builder, events } = setup();
		const text = builder.startText();
		builder.appendText(text, "partial");
		builder.startToolCall("c", "run");
		const message = builder.fail("aborted", "Request was aborted");
		expect(summary(events).slice(-3)).toEqual(["text_end:0", "toolcall_end:1", "error"]);
		expect(message).toMatchObject({ stopReason: "aborted", errorMessage: "Request was aborted" });
		expect(message.content[0]).toEqual({ type: "text", text: "partial" });
	});

	it("ending a block twice emits one end event", () => {
		const { builder, events } = setup();
		const text = builder.startText();
		builder.endText(text);
		builder.endText(text);
		expect(events.filter((event) => event.type === "text_end")).toHaveLength(1);
	});

	it("is sealed after the terminal event: late data throws instead of mutating the result", () => {
		const { builder, events } = setup();
		const text = builder.startText();
		builder.finish("stop");
		expect(builder.isSealed).toBe(true);
		expect(() => builder.appendText(text, "late")).toThrow("already finished");
		expect(() => builder.startText()).toThrow("already finished");
		expect(() => builder.finish("stop")).toThrow("already finished");
		expect(() => builder.fail("error", "late")).toThrow("already finished");
		expect(() => builder.updateUsage({ output: 5 })).toThrow("already finished");
		expect(events.filter((event) => event.type === "done" || event.type === "error")).toHaveLength(1);
	});

	it("recomputes the total and the cost on every usage update", () => {
		const { builder } = setup();
		builder.updateUsage({ input: 1_000_000, output: 100_000 });
		expect(builder.message.usage.totalTokens).toBe(1_100_000);
		expect(builder.message.usage.cost).toMatchObject({ input: 3, output: 1.5, total: 4.5 });
		builder.updateUsage({ cacheRead: 1_000_000, cacheWrite: 1_000_000 });
		expect(builder.message.usage.totalTokens).toBe(3_100_000);
		expect(builder.message.usage.cost.total).toBeCloseTo(3 + 1.5 + 0.3 + 3.75);
		builder.updateUsage({ totalTokens: 42 });
		expect(builder.message.usage.totalTokens).toBe(42);
	});

	it("applies the service tier multiplier to the cost, also to later usage", () => {
		const { builder } = setup();
		builder.updateUsage({ input: 1_000_000 });
		builder.setServiceTier("priority");
		expect(builder.message.usage.cost.input).toBe(6);
		builder.setServiceTier("flex");
		builder.updateUsage({ output: 1_000_000 });
		expect(builder.message.usage.cost).toMatchObject({ input: 1.5, output: 7.5, total: 9 });
		builder.setServiceTier("unknown-tier");
		expect(builder.message.usage.cost.input).toBe(3);
	});

	it("keeps responseModel only when it differs from the requested model", () => {
		const { builder } = setup();
		builder.setResponseIdentity({ responseId: "resp_1", responseModel: "test-model" });
		expect(builder.message.responseId).toBe("resp_1");
		expect(builder.message.responseModel).toBeUndefined();
		builder.setResponseIdentity({ responseModel: "test-model-2025" });
		expect(builder.message.responseModel).toBe("test-model-2025");
	});

	it("resetForRetry forgets content and usage", () => {
		const { builder } = setup();
		builder.updateUsage({ input: 10 });
		builder.startText();
		builder.resetForRetry();
		expect(builder.hasContent).toBe(false);
		expect(builder.message.usage).toMatchObject({ input: 0, totalTokens: 0 });
		expect(builder.message.usage.cost.total).toBe(0);
	});

	it("concatenates thinking signatures that arrive in pieces, without events", () => {
		const { builder, events } = setup();
		const index = builder.startThinking({ redacted: true });
		const before = events.length;
		builder.appendThinkingSignature(index, "abc");
		builder.appendThinkingSignature(index, "def");
		expect(events.length).toBe(before);
		builder.endThinking(index);
		expect(builder.message.content[0]).toEqual({
			type: "thinking",
			thinking: "",
			thinkingSignature: "abcdef",
			redacted: true,
		});
	});
});

import {
	type AssistantMessage,
	AssistantMessageBuilder,
	createAssistantMessageEventStream,
	type Message,
	type ToolResultMessage,
} from "@keel/ai";
import { describe, expect, it } from "vitest";
import {
	ABORTED_TOOL_TEXT,
	type AgentEvent,
	type AgentTool,
	defaultConvertToLlm,
	runAgentLoop,
	type StreamFn,
} from "../src/index.js";
import {
	call,
	controlledTool,
	describeEvents,
	echoTool,
	scriptedStreamFn,
	testModel,
	text,
	textOf,
	user,
} from "./helpers.js";

function collector() {
	const events: AgentEvent[] = [];
	return { events, sink: (event: AgentEvent) => void events.push(event) };
}

describe("abort", () => {
	it("ends the run promptly when a tool ignores its signal, and discards the late result", async () => {
		const stubborn = controlledTool("stubborn");
		const controller = new AbortController();
		const { events, sink } = collector();
		const streamFn = scriptedStreamFn([{ blocks: [call("stubborn", {}, "c1")] }, { blocks: [text("never")] }]);
		const run = runAgentLoop(
			[user("go")],
			{ systemPrompt: "", messages: [], tools: [stubborn.tool] },
			{ model: testModel, convertToLlm: defaultConvertToLlm },
			sink,
			controller.signal,
			streamFn,
		);
		await stubborn.whenStarted(1);
		controller.abort();
		const messages = await run;
		const eventCount = events.length;
		stubborn.finish("c1", "too late");
		await Promise.resolve();

		expect(events).toHaveLength(eventCount);
		const results = messages.filter(
			(message): message is ToolResultMessage => (message as Message).role === "toolResult",
		);
		expect(results.map((result) => [result.toolCallId, textOf(result), result.isError])).toEqual([
			["c1", ABORTED_TOOL_TEXT, true],
		]);
		// The model is not called again after the abort.
		expect(streamFn.calls).toHaveLength(1);
		const last = messages.at(-1) as AssistantMessage;
		expect([last.role, last.stopReason]).toEqual(["assistant", "aborted"]);
		expect(describeEvents(events).slice(-10)).toEqual([
			"tool_execution_start:c1",
			"tool_execution_end:c1:error",
			"message_start:toolResult(c1)",
			"message_end:toolResult(c1)",
			"turn_end:1",
			"turn_start",
			"message_start:assistant(aborted)",
			"message_end:assistant(aborted)",
			"turn_end:0",
			"agent_end",
		]);
	});

	it("gives every running parallel call an aborted result, honouring or not", async () => {
		const stubborn = controlledTool("stubborn");
		const polite: AgentTool = {
			...echoTool("polite"),
			execute: (_id, _params, signal) =>
				new Promise((_resolve, reject) => signal?.addEventListener("abort", () => reject(new Error("stopped")))),
		};
		const controller = new AbortController();
		const run = runAgentLoop(
			[user("go")],
			{ systemPrompt: "", messages: [], tools: [stubborn.tool, polite] },
			{ model: testModel, convertToLlm: defaultConvertToLlm },
			() => {},
			controller.signal,
			scriptedStreamFn([{ blocks: [call("stubborn", {}, "c1"), call("polite", { value: "x" }, "c2")] }]),
		);
		await stubborn.whenStarted(1);
		controller.abort();
		const messages = await run;
		const results = messages.filter(
			(message): message is ToolResultMessage => (message as Message).role === "toolResult",
		);
		expect(results.map((result) => [result.toolCallId, result.isError])).toEqual([
			["c1", true],
			["c2", true],
		]);
	});

	it("stops waiting for a stream function that ignores the abort, keeping the partial content", async () => {
		const controller = new AbortController();
		let started: () => void = () => {};
		const streaming = new Promise<void>((resolve) => {
			started = resolve;
		});
		const hanging = scriptedStreamFn([{ blocks: [text("half an ans")], hang: true }]);
		const messages = await Promise.all([
			runAgentLoop(
				[user("go")],
				{ systemPrompt: "", messages: [], tools: [] },
				{ model: testModel, convertToLlm: defaultConvertToLlm },
				(event) => {
					if (event.type === "message_update") started();
				},
				controller.signal,
				hanging,
			),
			streaming.then(() => controller.abort()),
		]).then(([result]) => result);
		const last = messages.at(-1) as AssistantMessage;
		expect([last.stopReason, textOf(last)]).toEqual(["aborted", "half an ans"]);
	});

	it("keeps the provider's own aborted message when the stream function honours the signal", async () => {
		const controller = new AbortController();
		const honouring: StreamFn = (model, _context, options) => {
			const stream = createAssistantMessageEventStream();
			const builder = new AssistantMessageBuilder(model, (event) => stream.push(event));
			const index = builder.startText();
			builder.appendText(index, "partial");
			options?.signal?.addEventListener("abort", () => builder.fail("aborted", "Request aborted by the provider"));
			queueMicrotask(() => controller.abort());
			return stream;
		};
		const messages = await runAgentLoop(
			[user("go")],
			{ systemPrompt: "", messages: [], tools: [] },
			{ model: testModel, convertToLlm: defaultConvertToLlm },
			() => {},
			controller.signal,
			honouring,
		);
		const last = messages.at(-1) as AssistantMessage;
		expect([last.stopReason, last.errorMessage, textOf(last)]).toEqual([
			"aborted",
			"Request aborted by the provider",
			"partial",
		]);
	});

	it("does not call the model when the signal is already aborted", async () => {
		const controller = new AbortController();
		controller.abort();
		const streamFn = scriptedStreamFn([{ blocks: [text("x")] }]);
		const messages = await runAgentLoop(
			[user("go")],
			{ systemPrompt: "", messages: [], tools: [] },
			{ model: testModel, convertToLlm: defaultConvertToLlm },
			() => {},
			controller.signal,
			streamFn,
		);
		expect(streamFn.calls).toHaveLength(0);
		expect((messages.at(-1) as AssistantMessage).stopReason).toBe("aborted");
	});

	it("stops waiting for a hanging transformContext and ends the run as aborted", async () => {
		const controller = new AbortController();
		const streamFn = scriptedStreamFn([{ blocks: [text("never")] }]);
		const messages = await runAgentLoop(
			[user("go")],
			{ systemPrompt: "", messages: [], tools: [] },
			{
				model: testModel,
				convertToLlm: defaultConvertToLlm,
				transformContext: () => {
					queueMicrotask(() => controller.abort());
					return new Promise(() => {});
				},
			},
			() => {},
			controller.signal,
			streamFn,
		);
		const last = messages.at(-1) as AssistantMessage;
		expect([last.stopReason, last.errorMessage]).toEqual(["aborted", "Aborted while waiting for transformContext"]);
		expect(streamFn.calls).toHaveLength(0);
	});

	it("gives a call whose beforeToolCall hangs an aborted result", async () => {
		const controller = new AbortController();
		const messages = await runAgentLoop(
			[user("go")],
			{ systemPrompt: "", messages: [], tools: [echoTool()] },
			{
				model: testModel,
				convertToLlm: defaultConvertToLlm,
				beforeToolCall: () => {
					queueMicrotask(() => controller.abort());
					return new Promise(() => {});
				},
			},
			() => {},
			controller.signal,
			scriptedStreamFn([{ blocks: [call("echo", { value: "x" }, "c1")] }]),
		);
		const result = messages.find((message): message is ToolResultMessage => (message as Message).role === "toolResult");
		expect([textOf(result as ToolResultMessage), result?.isError]).toEqual([ABORTED_TOOL_TEXT, true]);
		expect((messages.at(-1) as AssistantMessage).stopReason).toBe("aborted");
	});
});

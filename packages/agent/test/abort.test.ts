import {
	type AssistantMessage,
	AssistantMessageBuilder,
	createAssistantMessageEventStream,
	type Message,
	type ToolResultMessage,
} from "@keel/ai";
import { describe, expect, it } from "vitest";
import { toolPairingProblems } from "../../ai/test/helpers/tool-pairing.js";
import {
	ABORTED_TOOL_TEXT,
	type AgentEvent,
	type AgentTool,
	defaultConvertToLlm,
	runAgentLoop,
	runAgentLoopContinue,
	type StreamFn,
} from "../src/index.js";
import {
	call,
	controlledTool,
	describeEvents,
	echoTool,
	eventTreeProblems,
	isSecondToolCallDelta,
	scriptedStreamFn,
	testModel,
	text,
	textOf,
	toolCallsCutShortStreamFn,
	transcriptProblems,
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

describe("abort while the model streams tool calls", () => {
	for (const toolExecution of ["parallel", "sequential"] as const) {
		for (const honoursAbort of [true, false]) {
			const stream = honoursAbort ? "a stream that ends itself as aborted" : "a stream that ignores the abort";
			it(`${toolExecution}, ${stream}: each call streamed so far gets a not-run result, and the transcript continues on every API`, async () => {
				const controller = new AbortController();
				const events: AgentEvent[] = [];
				let executed = 0;
				const echo: AgentTool = { ...echoTool(), execute: () => Promise.reject(new Error(`ran ${++executed}`)) };
				const messages = await runAgentLoop(
					[user("go")],
					{ systemPrompt: "", messages: [], tools: [echo] },
					{ model: testModel, convertToLlm: defaultConvertToLlm, toolExecution },
					(event) => {
						events.push(event);
						if (isSecondToolCallDelta(event)) controller.abort();
					},
					controller.signal,
					toolCallsCutShortStreamFn(honoursAbort),
				);

				expect(executed).toBe(0);
				expect(describeEvents(events).slice(4)).toEqual([
					"message_start:assistant",
					"message_end:assistant(aborted)",
					"tool_execution_start:c1",
					"tool_execution_end:c1:error",
					"message_start:toolResult(c1)",
					"message_end:toolResult(c1)",
					"tool_execution_start:c2",
					"tool_execution_end:c2:error",
					"message_start:toolResult(c2)",
					"message_end:toolResult(c2)",
					"turn_end:2",
					"agent_end",
				]);
				const results = messages.filter(
					(message): message is ToolResultMessage => (message as Message).role === "toolResult",
				);
				expect(results.map((result) => [result.toolCallId, textOf(result), result.isError])).toEqual([
					["c1", "Tool call was not run: the response was aborted", true],
					["c2", "Tool call was not run: the response was aborted", true],
				]);
				expect([...eventTreeProblems(events), ...transcriptProblems(messages)]).toEqual([]);

				// Continued as it is: the model is asked again, and every API accepts what it is sent.
				const next = scriptedStreamFn([{ blocks: [text("trying again")] }]);
				await runAgentLoopContinue(
					{ systemPrompt: "", messages, tools: [echo] },
					{ model: testModel, convertToLlm: defaultConvertToLlm, toolExecution },
					() => {},
					undefined,
					next,
				);
				expect(next.calls).toHaveLength(1);
				expect(toolPairingProblems(next.calls[0].context)).toEqual([]);
			});
		}
	}
});

describe("abort of a stream function or tool preparation that ignores it", () => {
	it("ends aborted with no unhandled rejection when the abandoned iterator's return() rejects", async () => {
		const unhandled: unknown[] = [];
		const onUnhandled = (reason: unknown) => unhandled.push(reason);
		process.on("unhandledRejection", onUnhandled);
		try {
			const controller = new AbortController();
			let started!: () => void;
			const nextCalled = new Promise<void>((resolve) => {
				started = resolve;
			});
			const ignoringStream = {
				[Symbol.asyncIterator]() {
					return {
						next: () => {
							started();
							return new Promise<IteratorResult<never>>(() => {});
						},
						return: () => Promise.reject(new Error("return failed")),
					};
				},
				result: () => new Promise<never>(() => {}),
			};
			const run = runAgentLoop(
				[user("hi")],
				{ systemPrompt: "", messages: [], tools: [] },
				{ model: testModel, convertToLlm: defaultConvertToLlm },
				() => {},
				controller.signal,
				(() => ignoringStream) as unknown as StreamFn,
			);
			await nextCalled;
			controller.abort();
			const messages = await run;
			expect((messages.at(-1) as { stopReason?: string }).stopReason).toBe("aborted");
			// Node reports unhandled rejections once the microtask queue has drained.
			await new Promise((resolve) => setImmediate(resolve));
			expect(unhandled).toEqual([]);
		} finally {
			process.off("unhandledRejection", onUnhandled);
		}
	});

	it("ends aborted without waiting on a result() that never settles, after a stream ended without a terminal event", async () => {
		const controller = new AbortController();
		let resultCalled!: () => void;
		const waitingForResult = new Promise<void>((resolve) => {
			resultCalled = resolve;
		});
		const endedStream = {
			[Symbol.asyncIterator]() {
				return { next: async (): Promise<IteratorResult<never>> => ({ done: true, value: undefined }) };
			},
			result: () => {
				resultCalled();
				return new Promise<never>(() => {});
			},
		};
		const run = runAgentLoop(
			[user("hi")],
			{ systemPrompt: "", messages: [], tools: [] },
			{ model: testModel, convertToLlm: defaultConvertToLlm },
			() => {},
			controller.signal,
			(() => endedStream) as unknown as StreamFn,
		);
		await waitingForResult;
		controller.abort();
		const messages = await run;
		expect((messages.at(-1) as { stopReason?: string }).stopReason).toBe("aborted");
	});

	it.each(["parallel", "sequential"] as const)(
		"%s: never starts a call prepared before the abort, and gives every call an aborted result",
		async (toolExecution) => {
			const controller = new AbortController();
			const executed: string[] = [];
			const recording = {
				...echoTool(),
				async execute(toolCallId: string) {
					executed.push(toolCallId);
					return { content: [{ type: "text" as const, text: "ran" }], details: {} };
				},
			};
			const messages = await runAgentLoop(
				[user("hi")],
				{ systemPrompt: "", messages: [], tools: [recording] },
				{
					model: testModel,
					convertToLlm: defaultConvertToLlm,
					toolExecution,
					// The user presses stop while the first call is being prepared.
					beforeToolCall: ({ toolCall }) => {
						if (toolCall.id === "c1") controller.abort();
						return undefined;
					},
				},
				() => {},
				controller.signal,
				scriptedStreamFn([{ blocks: [call("echo", { value: "1" }, "c1"), call("echo", { value: "2" }, "c2")] }]),
			);
			expect(executed).toEqual([]);
			const results = messages.filter((message) => (message as { role: string }).role === "toolResult");
			expect(results.map((message) => textOf(message))).toEqual([ABORTED_TOOL_TEXT, ABORTED_TOOL_TEXT]);
			expect((messages.at(-1) as { stopReason?: string }).stopReason).toBe("aborted");
		},
	);
});

describe("abort at any event", () => {
	for (const toolExecution of ["parallel", "sequential"] as const) {
		it(`${toolExecution}: the event tree and the transcript stay well formed and the run ends aborted, with a tool that ignores its signal`, async () => {
			const run = async (abortAt: number | "at-stubborn-start") => {
				const controller = new AbortController();
				const events: AgentEvent[] = [];
				const stubborn = {
					...echoTool("stubborn"),
					// Ignores its signal and never finishes: only the loop's own abort handling ends the wait.
					execute: () => new Promise<never>(() => {}),
				};
				const messages = await runAgentLoop(
					[user("hi")],
					{ systemPrompt: "", messages: [], tools: [echoTool(), stubborn] },
					{ model: testModel, convertToLlm: defaultConvertToLlm, toolExecution },
					(event) => {
						events.push(event);
						const stubbornStarted = event.type === "tool_execution_start" && event.toolCallId === "c2";
						if (events.length === abortAt || (abortAt === "at-stubborn-start" && stubbornStarted)) controller.abort();
					},
					controller.signal,
					scriptedStreamFn([
						{ blocks: [call("echo", { value: "1" }, "c1"), call("stubborn", { value: "2" }, "c2")] },
						{ blocks: [text("done")] },
					]),
				);
				return { events, messages };
			};
			// Without an abort the stubborn tool would hang the run, so every position up to its start is tried.
			const probe = await run("at-stubborn-start");
			const positions =
				probe.events.findIndex((event) => event.type === "tool_execution_start" && event.toolCallId === "c2") + 1;
			expect(positions).toBeGreaterThan(8);
			const failures: string[] = [];
			for (let abortAt = 1; abortAt <= positions; abortAt++) {
				const { events, messages } = await run(abortAt);
				for (const problem of [...eventTreeProblems(events), ...transcriptProblems(messages)]) {
					failures.push(`abort at ${abortAt} (${events[abortAt - 1]?.type}): ${problem}`);
				}
				const last = messages.at(-1) as AssistantMessage;
				if (last.stopReason !== "aborted") failures.push(`abort at ${abortAt}: last message ${last.stopReason}`);
			}
			expect(failures).toEqual([]);
		});
	}
});

import { describe, expect, it } from "vitest";
import { ABORTED_TOOL_TEXT, type AgentEvent, defaultConvertToLlm, runAgentLoop, type StreamFn } from "../src/index.js";
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

describe("review: agent_end exactly once", () => {
	it("emits agent_end once when the sink throws on agent_end itself", async () => {
		const events: AgentEvent[] = [];
		await runAgentLoop(
			[user("hi")],
			{ systemPrompt: "", messages: [], tools: [] },
			{ model: testModel, convertToLlm: defaultConvertToLlm },
			(event) => {
				events.push(event);
				if (event.type === "agent_end") throw new Error("sink failed on agent_end");
			},
			undefined,
			scriptedStreamFn([{ blocks: [text("answer")] }]),
		);
		expect(events.filter((event) => event.type === "agent_end")).toHaveLength(1);
		expect(events.at(-1)?.type).toBe("agent_end");
	});

	it("gives each call one start and one end, and emits nothing after agent_end, when the sink throws on a tool_execution_end", async () => {
		const slow = controlledTool("slow");
		const events: AgentEvent[] = [];
		const messages = await runAgentLoop(
			[user("hi")],
			{ systemPrompt: "", messages: [], tools: [slow.tool, echoTool()] },
			{ model: testModel, convertToLlm: defaultConvertToLlm },
			(event) => {
				events.push(event);
				if (event.type === "tool_execution_end" && event.toolCallId === "c2") throw new Error("sink failed");
			},
			undefined,
			scriptedStreamFn([
				{ blocks: [call("slow", {}, "c1"), call("echo", { value: "x" }, "c2")] },
				{ blocks: [text("done")] },
			]),
		);
		const ended = events.length;
		slow.finish("c1");
		await new Promise((resolve) => setImmediate(resolve));
		expect(events.slice(ended)).toEqual([]);
		// One start and one end per call, though the sink threw on c2's end: no second c2 tree.
		expect(describeEvents(events).filter((line) => line.startsWith("tool_execution"))).toEqual([
			"tool_execution_start:c1",
			"tool_execution_start:c2",
			"tool_execution_end:c2",
			"tool_execution_end:c1:error",
		]);
		expect(messages.map((message) => (message as { role: string }).role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"toolResult",
			"assistant",
		]);
		expect(events.at(-1)?.type).toBe("agent_end");
	});
});

describe("review: abort of a stream function that ignores it", () => {
	it("leaves no unhandled rejection when the abandoned iterator's return() rejects", async () => {
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
});

describe("review: abort after a stream ended without a terminal event", () => {
	it("does not wait on a result() that never settles once the run is aborted", async () => {
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
});

describe("review: abort during tool preparation", () => {
	it.each(["parallel", "sequential"] as const)(
		"%s: never starts a prepared call once the run was aborted",
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

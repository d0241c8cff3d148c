import {
	AssistantMessageBuilder,
	createAssistantMessageEventStream,
	type Message,
	type ToolResultMessage,
	Type,
} from "@keel/ai";
import { describe, expect, it } from "vitest";
import {
	type AgentContext,
	type AgentEvent,
	type AgentLoopConfig,
	type AgentMessage,
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

interface RunOutcome {
	events: AgentEvent[];
	messages: AgentMessage[];
	toolResults: ToolResultMessage[];
}

async function runWithTools(
	tools: AgentTool[],
	calls: ReturnType<typeof call>[],
	overrides: Partial<AgentLoopConfig> = {},
): Promise<RunOutcome> {
	const events: AgentEvent[] = [];
	const context: AgentContext = { systemPrompt: "", messages: [], tools };
	const messages = await runAgentLoop(
		[user("go")],
		context,
		{ model: testModel, convertToLlm: defaultConvertToLlm, ...overrides },
		(event) => {
			events.push(event);
		},
		undefined,
		scriptedStreamFn([{ blocks: calls }, { blocks: [text("finished")] }]),
	);
	const toolResults = messages.filter(
		(message): message is ToolResultMessage => (message as Message).role === "toolResult",
	);
	return { events, messages, toolResults };
}

describe("tool preparation errors become error results", () => {
	it("names an unknown tool and the available ones", async () => {
		const { toolResults, events } = await runWithTools([echoTool()], [call("missing", {}, "c1")]);
		expect(toolResults[0].isError).toBe(true);
		expect(textOf(toolResults[0])).toBe('Tool "missing" not found. Available tools: echo');
		expect(describeEvents(events)).toContain("tool_execution_end:c1:error");
	});

	it("gives the validation text for invalid arguments and never runs the tool", async () => {
		let ran = false;
		const tool: AgentTool = {
			...echoTool(),
			async execute() {
				ran = true;
				return { content: [], details: {} };
			},
		};
		const { toolResults } = await runWithTools([tool], [call("echo", { other: "x" }, "c1")]);
		expect(ran).toBe(false);
		expect(toolResults[0].isError).toBe(true);
		expect(textOf(toolResults[0])).toContain('Validation failed for tool "echo"');
	});

	it("answers a call whose arguments @keel/ai dropped (nested too deep) with that reason, without running the tool", async () => {
		let ran = false;
		const tool: AgentTool = {
			...echoTool(),
			parameters: Type.Object({ value: Type.Optional(Type.String()) }),
			async execute() {
				ran = true;
				return { content: [], details: {} };
			},
		};
		let turn = 0;
		const streamFn: StreamFn = (model) => {
			const stream = createAssistantMessageEventStream();
			const builder = new AssistantMessageBuilder(model, (event) => stream.push(event));
			if (turn++ === 0) {
				const index = builder.startToolCall("c1", "echo");
				builder.appendToolCallArguments(index, `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`);
				builder.finish("toolUse");
			} else {
				builder.appendText(builder.startText(), "finished");
				builder.finish("stop");
			}
			stream.end(builder.message);
			return stream;
		};
		const context: AgentContext = { systemPrompt: "", messages: [], tools: [tool] };
		const messages = await runAgentLoop(
			[user("go")],
			context,
			{ model: testModel, convertToLlm: defaultConvertToLlm },
			() => {},
			undefined,
			streamFn,
		);
		const results = messages.filter(
			(message): message is ToolResultMessage => (message as Message).role === "toolResult",
		);
		expect(ran).toBe(false);
		expect(results[0].isError).toBe(true);
		expect(textOf(results[0])).toContain("nested deeper than 100 levels");
		expect(textOf(messages.at(-1) as ToolResultMessage)).toBe("finished");
	});

	it("explains a tool without an execute function", async () => {
		const schemaOnly = { ...echoTool(), execute: undefined } as unknown as AgentTool;
		const { toolResults } = await runWithTools([schemaOnly], [call("echo", { value: "x" }, "c1")]);
		expect(textOf(toolResults[0])).toBe('Tool "echo" cannot run: it has no execute function');
	});

	it("runs prepareArguments before validation", async () => {
		const tool: AgentTool = {
			...echoTool(),
			prepareArguments: (args) => ({ value: String((args as { legacyValue: string }).legacyValue) }),
		};
		const { toolResults } = await runWithTools([tool], [call("echo", { legacyValue: "old" }, "c1")]);
		expect(textOf(toolResults[0])).toBe("echo:old");
		expect(toolResults[0].isError).toBe(false);
	});

	it("reports a throwing prepareArguments", async () => {
		const tool: AgentTool = {
			...echoTool(),
			prepareArguments: () => {
				throw new Error("cannot shim");
			},
		};
		const { toolResults } = await runWithTools([tool], [call("echo", {}, "c1")]);
		expect(textOf(toolResults[0])).toBe('prepareArguments of tool "echo" failed: cannot shim');
	});
});

describe("execution results", () => {
	it("turns a throw (or a synchronous throw) into an error result with empty details", async () => {
		const rejecting: AgentTool = {
			...echoTool("rejecting"),
			async execute() {
				throw new Error("disk full");
			},
		};
		const throwing: AgentTool = {
			...echoTool("throwing"),
			execute() {
				throw new Error("sync boom");
			},
		};
		const { toolResults } = await runWithTools(
			[rejecting, throwing],
			[call("rejecting", { value: "x" }, "c1"), call("throwing", { value: "y" }, "c2")],
		);
		expect(toolResults.map((result) => [textOf(result), result.isError, result.details])).toEqual([
			["disk full", true, {}],
			["sync boom", true, {}],
		]);
	});

	it("rejects a malformed tool result with a clear error", async () => {
		const broken: AgentTool = {
			...echoTool(),
			execute: async () => ({ text: "not content" }) as never,
		};
		const { toolResults } = await runWithTools([broken], [call("echo", { value: "x" }, "c1")]);
		expect(textOf(toolResults[0])).toBe(
			'Tool "echo" returned an invalid result: expected { content: [...], details }, got {"text":"not content"}',
		);
	});

	it("emits updates before tool_execution_end and drops updates sent after the result", async () => {
		let lateUpdate: (() => void) | undefined;
		const streaming: AgentTool = {
			...echoTool(),
			async execute(_id, _params, _signal, onUpdate) {
				onUpdate?.({ content: [{ type: "text", text: "25%" }], details: { progress: 25 } });
				onUpdate?.({ content: [{ type: "text", text: "50%" }], details: { progress: 50 } });
				lateUpdate = () => onUpdate?.({ content: [], details: { progress: 99 } });
				return { content: [{ type: "text", text: "all done" }], details: { progress: 100 } };
			},
		};
		const { events } = await runWithTools([streaming], [call("echo", { value: "x" }, "c1")]);
		lateUpdate?.();
		const toolEvents = describeEvents(events).filter((entry) => entry.startsWith("tool_execution"));
		expect(toolEvents).toEqual([
			"tool_execution_start:c1",
			"tool_execution_update:c1",
			"tool_execution_update:c1",
			"tool_execution_end:c1",
		]);
		const end = events.find((event) => event.type === "tool_execution_end");
		expect(end?.type === "tool_execution_end" && end.result.details).toEqual({ progress: 100 });
	});

	it("passes the validated, coerced arguments to execute", async () => {
		let received: unknown;
		const counter: AgentTool = {
			name: "count",
			label: "Count",
			description: "counts",
			parameters: Type.Object({ times: Type.Number() }),
			async execute(_id, params) {
				received = params;
				return { content: [{ type: "text", text: "ok" }], details: {} };
			},
		};
		await runWithTools([counter], [call("count", { times: "3" }, "c1")]);
		expect(received).toEqual({ times: 3 });
	});
});

describe("beforeToolCall and afterToolCall", () => {
	it("blocks a call with the hook's reason, or pi's default text", async () => {
		const { toolResults } = await runWithTools(
			[echoTool()],
			[call("echo", { value: "a" }, "c1"), call("echo", { value: "b" }, "c2"), call("echo", { value: "c" }, "c3")],
			{
				beforeToolCall: ({ toolCall, args }) => {
					if (toolCall.id === "c1") return { block: true, reason: `not allowed: ${(args as { value: string }).value}` };
					if (toolCall.id === "c2") return { block: true };
					return undefined;
				},
			},
		);
		expect(toolResults.map((result) => [textOf(result), result.isError])).toEqual([
			["not allowed: a", true],
			["Tool execution was blocked", true],
			["echo:c", false],
		]);
	});

	it("turns a throwing beforeToolCall into an error result for that call", async () => {
		const { toolResults } = await runWithTools([echoTool()], [call("echo", { value: "a" }, "c1")], {
			beforeToolCall: () => {
				throw new Error("policy service down");
			},
		});
		expect(textOf(toolResults[0])).toBe("beforeToolCall failed: policy service down");
	});

	it("replaces content, details and isError field by field", async () => {
		const { toolResults } = await runWithTools(
			[echoTool()],
			[call("echo", { value: "a" }, "c1"), call("echo", { value: "b" }, "c2")],
			{
				afterToolCall: ({ toolCall, result }) => {
					if (toolCall.id === "c1") return { content: [{ type: "text", text: "redacted" }], isError: true };
					return { details: undefined, content: [...result.content, { type: "text", text: "+note" }] };
				},
			},
		);
		expect(toolResults.map((result) => [textOf(result), result.isError, result.details])).toEqual([
			["redacted", true, { name: "echo" }],
			["echo:b+note", false, { name: "echo" }],
		]);
	});

	it("turns a throwing afterToolCall into an error result", async () => {
		const { toolResults } = await runWithTools([echoTool()], [call("echo", { value: "a" }, "c1")], {
			afterToolCall: () => {
				throw new Error("audit failed");
			},
		});
		expect([textOf(toolResults[0]), toolResults[0].isError]).toEqual(["afterToolCall failed: audit failed", true]);
	});
});

describe("parallel and sequential batches", () => {
	it("runs calls concurrently and records results in call order, with mixed errors", async () => {
		const slow = controlledTool("slow");
		const events: AgentEvent[] = [];
		const context: AgentContext = { systemPrompt: "", messages: [], tools: [slow.tool, echoTool()] };
		const run = runAgentLoop(
			[user("go")],
			context,
			{ model: testModel, convertToLlm: defaultConvertToLlm },
			(event) => {
				events.push(event);
			},
			undefined,
			scriptedStreamFn([
				{
					blocks: [call("slow", {}, "s1"), call("missing", {}, "m1"), call("slow", {}, "s2"), call("echo", {}, "bad")],
				},
				{ blocks: [text("finished")] },
			]),
		);
		await slow.whenStarted(2);
		// Both slow calls are running at once; finish them in reverse order.
		expect(slow.started).toEqual(["s1", "s2"]);
		slow.finish("s2");
		slow.finish("s1");
		const messages = await run;
		const results = messages.filter(
			(message): message is ToolResultMessage => (message as Message).role === "toolResult",
		);
		expect(results.map((result) => [result.toolCallId, result.isError])).toEqual([
			["s1", false],
			["m1", true],
			["s2", false],
			["bad", true],
		]);
		// tool_execution_end follows completion: the immediate errors first, then s2 before s1.
		const ends = events.filter((event) => event.type === "tool_execution_end").map((event) => event.toolCallId);
		expect(ends).toEqual(["m1", "bad", "s2", "s1"]);
	});

	it("runs one call at a time in sequential mode", async () => {
		const slow = controlledTool("slow");
		const context: AgentContext = { systemPrompt: "", messages: [], tools: [slow.tool] };
		const run = runAgentLoop(
			[user("go")],
			context,
			{ model: testModel, convertToLlm: defaultConvertToLlm, toolExecution: "sequential" },
			() => {},
			undefined,
			scriptedStreamFn([{ blocks: [call("slow", {}, "s1"), call("slow", {}, "s2")] }, { blocks: [text("end")] }]),
		);
		await slow.whenStarted(1);
		await Promise.resolve();
		expect(slow.started).toEqual(["s1"]);
		slow.finish("s1");
		await slow.whenStarted(2);
		slow.finish("s2");
		expect((await run).filter((message) => (message as Message).role === "toolResult")).toHaveLength(2);
	});

	it("runs the whole batch sequentially when one tool asks for it", async () => {
		const slow = controlledTool("slow");
		const exclusive: AgentTool = { ...echoTool("exclusive"), executionMode: "sequential" };
		const context: AgentContext = { systemPrompt: "", messages: [], tools: [slow.tool, exclusive] };
		const order: string[] = [];
		const run = runAgentLoop(
			[user("go")],
			context,
			{ model: testModel, convertToLlm: defaultConvertToLlm },
			(event) => {
				if (event.type === "tool_execution_end") order.push(event.toolCallId);
			},
			undefined,
			scriptedStreamFn([
				{ blocks: [call("slow", {}, "s1"), call("exclusive", { value: "x" }, "e1")] },
				{ blocks: [text("end")] },
			]),
		);
		await slow.whenStarted(1);
		slow.finish("s1");
		await run;
		expect(order).toEqual(["s1", "e1"]);
	});
});

describe("ending a run from tools and hooks", () => {
	const terminating = (name: string, terminate: boolean): AgentTool => ({
		...echoTool(name),
		async execute() {
			return { content: [{ type: "text", text: name }], details: {}, terminate };
		},
	});

	it("ends the run after the turn when every result sets terminate", async () => {
		const streamFn = scriptedStreamFn([
			{ blocks: [call("stop", { value: "1" }, "c1"), call("stop", { value: "2" }, "c2")] },
		]);
		const events: AgentEvent[] = [];
		await runAgentLoop(
			[user("go")],
			{ systemPrompt: "", messages: [], tools: [terminating("stop", true)] },
			{ model: testModel, convertToLlm: defaultConvertToLlm },
			(event) => {
				events.push(event);
			},
			undefined,
			streamFn,
		);
		expect(streamFn.calls).toHaveLength(1);
		expect(describeEvents(events).slice(-2)).toEqual(["turn_end:2", "agent_end"]);
	});

	it("keeps going when only some results set terminate", async () => {
		const streamFn = scriptedStreamFn([
			{ blocks: [call("stop", { value: "1" }, "c1"), call("go", { value: "2" }, "c2")] },
			{ blocks: [text("more")] },
		]);
		await runAgentLoop(
			[user("go")],
			{ systemPrompt: "", messages: [], tools: [terminating("stop", true), terminating("go", false)] },
			{ model: testModel, convertToLlm: defaultConvertToLlm },
			() => {},
			undefined,
			streamFn,
		);
		expect(streamFn.calls).toHaveLength(2);
	});

	it("stops after the turn when shouldStopAfterTurn says so", async () => {
		const streamFn = scriptedStreamFn([{ blocks: [call("echo", { value: "1" }, "c1")] }, { blocks: [text("x")] }]);
		let seen: { toolResults: number; newMessages: number } | undefined;
		await runAgentLoop(
			[user("go")],
			{ systemPrompt: "", messages: [], tools: [echoTool()] },
			{
				model: testModel,
				convertToLlm: defaultConvertToLlm,
				shouldStopAfterTurn: ({ toolResults, newMessages }) => {
					seen = { toolResults: toolResults.length, newMessages: newMessages.length };
					return true;
				},
			},
			() => {},
			undefined,
			streamFn,
		);
		expect(streamFn.calls).toHaveLength(1);
		expect(seen).toEqual({ toolResults: 1, newMessages: 3 });
	});

	it("does not stop while steering messages taken during the batch are waiting", async () => {
		const queue: AgentMessage[] = [];
		const stopper: AgentTool = {
			...echoTool("stop"),
			async execute() {
				queue.push(user("wait, one more thing"));
				return { content: [{ type: "text", text: "stopping" }], details: {}, terminate: true };
			},
		};
		const streamFn = scriptedStreamFn([{ blocks: [call("stop", { value: "1" }, "c1")] }, { blocks: [text("sure")] }]);
		const messages = await runAgentLoop(
			[user("go")],
			{ systemPrompt: "", messages: [], tools: [stopper] },
			{ model: testModel, convertToLlm: defaultConvertToLlm, getSteeringMessages: () => queue.splice(0) },
			() => {},
			undefined,
			streamFn,
		);
		expect(streamFn.calls).toHaveLength(2);
		expect(messages.map(textOf).slice(-2)).toEqual(["wait, one more thing", "sure"]);
	});
});

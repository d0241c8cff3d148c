import {
	type AssistantMessage,
	AssistantMessageBuilder,
	createAssistantMessageEventStream,
	type Message,
} from "@keel/ai";
import { describe, expect, it } from "vitest";
import {
	type AgentEvent,
	type AgentLoopConfig,
	type AgentMessage,
	agentLoop,
	defaultConvertToLlm,
	runAgentLoop,
	type StreamFn,
} from "../src/index.js";
import {
	call,
	controlledTool,
	describeEvents,
	echoTool,
	eventTreeProblems,
	scriptedStreamFn,
	testModel,
	text,
	textOf,
	user,
} from "./helpers.js";

const boom = () => {
	throw new Error("boom");
};

/** Each case breaks one callback; every run must still end with a full, well-formed event tree. */
const cases: { name: string; expected: string; config: Partial<AgentLoopConfig>; streamFn?: StreamFn }[] = [
	{ name: "streamFn throws", expected: "streamFn failed: boom", config: {}, streamFn: boom },
	{
		name: "streamFn rejects",
		expected: "streamFn failed: nope",
		config: {},
		streamFn: () => Promise.reject(new Error("nope")),
	},
	{
		name: "streamFn returns something that is not a stream",
		expected: "streamFn must return an AssistantMessageEventStream",
		config: {},
		streamFn: (() => ({ not: "a stream" })) as unknown as StreamFn,
	},
	{ name: "convertToLlm throws", expected: "convertToLlm failed: boom", config: { convertToLlm: boom } },
	{ name: "transformContext throws", expected: "transformContext failed: boom", config: { transformContext: boom } },
	{
		name: "transformContext rejects with a string",
		expected: "transformContext failed: plain string",
		config: { transformContext: () => Promise.reject("plain string") },
	},
	{ name: "getApiKey throws", expected: "getApiKey failed: boom", config: { getApiKey: boom } },
	{
		name: "getSteeringMessages throws",
		expected: "getSteeringMessages failed: boom",
		config: { getSteeringMessages: boom },
	},
	{
		name: "getFollowUpMessages throws",
		expected: "getFollowUpMessages failed: boom",
		config: { getFollowUpMessages: boom },
	},
	{
		name: "shouldStopAfterTurn throws",
		expected: "shouldStopAfterTurn failed: boom",
		config: { shouldStopAfterTurn: boom },
	},
	{
		name: "getSteeringMessages returns a non-array",
		expected: "getSteeringMessages must return an array of messages, got string",
		config: { getSteeringMessages: (() => "oops") as unknown as AgentLoopConfig["getSteeringMessages"] },
	},
];

describe("a throwing callback ends the run cleanly", () => {
	for (const testCase of cases) {
		it(`${testCase.name}: error message, turn_end, agent_end, result() resolves`, async () => {
			const stream = agentLoop(
				[user("hi")],
				{ systemPrompt: "", messages: [], tools: [] },
				{ model: testModel, convertToLlm: defaultConvertToLlm, ...testCase.config },
				undefined,
				testCase.streamFn ?? scriptedStreamFn([{ blocks: [text("answer")] }]),
			);
			const events: AgentEvent[] = [];
			for await (const event of stream) events.push(event);
			const messages = await stream.result();
			const last = messages.at(-1) as AssistantMessage;
			expect([last.role, last.stopReason, last.errorMessage]).toEqual(["assistant", "error", testCase.expected]);
			const tree = describeEvents(events);
			expect(tree.slice(-4)).toEqual([
				"message_start:assistant(error)",
				"message_end:assistant(error)",
				"turn_end:0",
				"agent_end",
			]);
			expect(tree.filter((entry) => entry === "turn_start").length).toBe(
				tree.filter((entry) => entry === "turn_end:0" || entry.startsWith("turn_end")).length,
			);
			expect(tree.filter((entry) => entry === "agent_end")).toHaveLength(1);
		});
	}

	it("closes a message that was streaming when the failure happened, keeping its content", async () => {
		let updates = 0;
		const messages = await runAgentLoop(
			[user("hi")],
			{ systemPrompt: "", messages: [], tools: [] },
			{ model: testModel, convertToLlm: defaultConvertToLlm },
			(event) => {
				if (event.type === "message_update" && ++updates === 2) throw new Error("listener broke");
			},
			undefined,
			scriptedStreamFn([{ blocks: [text("partial answer")] }]),
		);
		const last = messages.at(-1) as AssistantMessage;
		expect([last.stopReason, last.errorMessage, textOf(last)]).toEqual(["error", "listener broke", "partial answer"]);
		expect(messages.filter((message) => (message as Message).role === "assistant")).toHaveLength(1);
	});

	it("gives the tool calls of a message that was streaming when the failure happened a not-run result", async () => {
		const events: AgentEvent[] = [];
		const messages = await runAgentLoop(
			[user("hi")],
			{ systemPrompt: "", messages: [], tools: [echoTool()] },
			{ model: testModel, convertToLlm: defaultConvertToLlm },
			(event) => {
				events.push(event);
				if (event.type === "message_update" && event.assistantMessageEvent.type === "toolcall_end") {
					throw new Error("listener broke");
				}
			},
			undefined,
			scriptedStreamFn([{ blocks: [text("let me look"), call("echo", { value: "1" }, "c1")] }]),
		);
		expect(messages.map(textOf)).toEqual([
			"hi",
			"let me look",
			"Tool call was not run: the run failed (listener broke)",
		]);
		expect(describeEvents(events).slice(-7)).toEqual([
			"message_end:assistant(error)",
			"tool_execution_start:c1",
			"tool_execution_end:c1:error",
			"message_start:toolResult(c1)",
			"message_end:toolResult(c1)",
			"turn_end:1",
			"agent_end",
		]);
		expect(eventTreeProblems(events)).toEqual([]);
	});

	it("gives every tool call a result when a failure interrupts the batch", async () => {
		let polls = 0;
		const events: AgentEvent[] = [];
		const messages = await runAgentLoop(
			[user("hi")],
			{ systemPrompt: "", messages: [], tools: [echoTool()] },
			{
				model: testModel,
				convertToLlm: defaultConvertToLlm,
				toolExecution: "sequential",
				getSteeringMessages: () => {
					// The first poll is before the first turn; the second is after the first tool.
					if (++polls === 2) throw new Error("queue unavailable");
					return [];
				},
			},
			(event) => {
				events.push(event);
			},
			undefined,
			scriptedStreamFn([{ blocks: [call("echo", { value: "1" }, "c1"), call("echo", { value: "2" }, "c2")] }]),
		);
		const results = messages.filter((message) => (message as Message).role === "toolResult") as AgentMessage[];
		expect(results.map(textOf)).toEqual([
			"echo:1",
			"Tool call was not run: the run failed (getSteeringMessages failed: queue unavailable)",
		]);
		const tree = describeEvents(events);
		expect(tree.filter((entry) => entry.startsWith("tool_execution_start"))).toEqual([
			"tool_execution_start:c1",
			"tool_execution_start:c2",
		]);
		expect(tree.slice(-7)).toEqual([
			"tool_execution_end:c2:error",
			"message_start:toolResult(c2)",
			"message_end:toolResult(c2)",
			"message_start:assistant(error)",
			"message_end:assistant(error)",
			"turn_end:0",
			"agent_end",
		]);
	});

	it("ends with agent_end even when the sink throws on every event", async () => {
		const messages = await runAgentLoop(
			[user("hi")],
			{ systemPrompt: "", messages: [], tools: [] },
			{ model: testModel, convertToLlm: defaultConvertToLlm },
			() => {
				throw new Error("sink down");
			},
			undefined,
			scriptedStreamFn([{ blocks: [text("answer")] }]),
		);
		expect((messages.at(-1) as AssistantMessage).errorMessage).toBe("sink down");
	});

	it("keeps steering messages taken before the failure, ahead of the error message", async () => {
		const queue: AgentMessage[] = [];
		let turnStarts = 0;
		const typing = {
			...echoTool(),
			async execute() {
				queue.push(user("typed during the tool"));
				return { content: [{ type: "text" as const, text: "ok" }], details: {} };
			},
		};
		const messages = await runAgentLoop(
			[user("hi")],
			{ systemPrompt: "", messages: [], tools: [typing] },
			{ model: testModel, convertToLlm: defaultConvertToLlm, getSteeringMessages: () => queue.splice(0) },
			(event) => {
				if (event.type === "turn_start" && ++turnStarts === 2) throw new Error("sink failed");
			},
			undefined,
			scriptedStreamFn([{ blocks: [call("echo", { value: "1" }, "c1")] }, { blocks: [text("never")] }]),
		);
		expect(messages.map((message) => `${(message as Message).role}:${textOf(message)}`)).toEqual([
			"user:hi",
			"assistant:",
			"toolResult:ok",
			"user:typed during the tool",
			"assistant:",
		]);
		expect((messages.at(-1) as AssistantMessage).errorMessage).toBe("sink failed");
	});

	it("keeps steering messages polled during a tool batch when the run fails before the batch ends", async () => {
		const queue: AgentMessage[] = [];
		const typing = {
			...echoTool("typing"),
			async execute() {
				queue.push(user("typed during the tool"));
				return { content: [{ type: "text" as const, text: "ok" }], details: {} };
			},
		};
		const messages = await runAgentLoop(
			[user("hi")],
			{ systemPrompt: "", messages: [], tools: [typing, echoTool()] },
			{
				model: testModel,
				convertToLlm: defaultConvertToLlm,
				toolExecution: "sequential",
				getSteeringMessages: () => queue.splice(0),
			},
			(event) => {
				if (event.type === "tool_execution_end" && event.toolCallId === "c2") throw new Error("sink failed");
			},
			undefined,
			scriptedStreamFn([{ blocks: [call("typing", { value: "1" }, "c1"), call("echo", { value: "2" }, "c2")] }]),
		);
		expect(messages.map((message) => `${(message as Message).role}:${textOf(message)}`)).toEqual([
			"user:hi",
			"assistant:",
			"toolResult:ok",
			"toolResult:Tool call was not run: the run failed (sink failed)",
			"user:typed during the tool",
			"assistant:",
		]);
	});

	it("ends with an error message when the stream ends without done or error", async () => {
		const unterminated: StreamFn = (model) => {
			const stream = createAssistantMessageEventStream();
			const builder = new AssistantMessageBuilder(model, (event) => stream.push(event));
			const index = builder.startText();
			builder.appendText(index, "cut off");
			stream.end();
			return stream;
		};
		const messages = await runAgentLoop(
			[user("hi")],
			{ systemPrompt: "", messages: [], tools: [] },
			{ model: testModel, convertToLlm: defaultConvertToLlm },
			() => {},
			undefined,
			unterminated,
		);
		const last = messages.at(-1) as AssistantMessage;
		expect([last.stopReason, last.errorMessage, textOf(last)]).toEqual([
			"error",
			"The stream ended without a done or error event",
			"cut off",
		]);
		expect(messages.filter((message) => (message as Message).role === "assistant")).toHaveLength(1);
	});
});

describe("a sink that throws: agent_end exactly once", () => {
	it("emits agent_end once, and last, when the sink throws on agent_end itself", async () => {
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

	it("gives each parallel call one start and one end, and emits nothing after agent_end, when the sink throws on a tool_execution_end", async () => {
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

async function runWithSinkFailingAt(failAt: number, toolExecution: "parallel" | "sequential") {
	const events: AgentEvent[] = [];
	// One steering message and one follow-up, so their message paths are covered too.
	const steering = [user("steer")];
	const followUps = [user("follow")];
	await runAgentLoop(
		[user("hi")],
		{ systemPrompt: "", messages: [], tools: [echoTool()] },
		{
			model: testModel,
			convertToLlm: defaultConvertToLlm,
			toolExecution,
			steeringCheck: "after-turn",
			getSteeringMessages: () => steering.splice(0),
			getFollowUpMessages: () => followUps.splice(0),
		},
		(event) => {
			events.push(event);
			if (events.length === failAt) throw new Error(`sink failed on ${event.type}`);
		},
		undefined,
		scriptedStreamFn([
			{ blocks: [call("echo", { value: "1" }, "c1"), call("echo", { value: "2" }, "c2")] },
			{ blocks: [text("answer to the steering")], noStart: true },
			{ blocks: [text("answer to the follow-up")] },
		]),
	);
	return events;
}

describe("a sink that throws on any one event", () => {
	for (const toolExecution of ["parallel", "sequential"] as const) {
		it(`${toolExecution}: the event tree stays well formed and ends with one agent_end, whichever event fails`, async () => {
			const complete = await runWithSinkFailingAt(0, toolExecution);
			expect(eventTreeProblems(complete)).toEqual([]);
			const failures: string[] = [];
			for (let failAt = 1; failAt <= complete.length; failAt++) {
				const events = await runWithSinkFailingAt(failAt, toolExecution);
				for (const problem of eventTreeProblems(events))
					failures.push(`fail at ${failAt} (${events[failAt - 1].type}): ${problem}`);
			}
			expect(failures).toEqual([]);
		});
	}
});

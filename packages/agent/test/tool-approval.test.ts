import { type AssistantMessage, type Message, type ToolResultMessage, Type } from "@keel/ai";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxToolCall,
	registerFauxProvider,
} from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import {
	ABORTED_WHILE_WAITING_TEXT,
	Agent,
	type AgentEvent,
	type AgentMessage,
	type AgentTool,
	type AgentToolResult,
	DENIED_TOOL_TEXT,
	type PausedToolRun,
	runAgentLoop,
	runAgentLoopAfterApprovals,
} from "../src/index.js";
import { describeEvents, eventTreeProblems, textOf } from "./helpers.js";

let faux: FauxProviderRegistration;
beforeEach(() => {
	faux = registerFauxProvider();
});
afterEach(() => faux.unregister());

/** A tool that answers `<name>:<value>` and counts its runs. */
function countingTool(name: string, extra: Partial<AgentTool> = {}): AgentTool & { runs: string[] } {
	const runs: string[] = [];
	return {
		name,
		label: name,
		description: `answers with its value (${name})`,
		parameters: Type.Object({ value: Type.String() }),
		async execute(toolCallId, params): Promise<AgentToolResult> {
			runs.push(toolCallId);
			return { content: [{ type: "text", text: `${name}:${(params as { value: string }).value}` }], details: {} };
		},
		runs,
		...extra,
	};
}

function toolResultsOf(messages: readonly (AgentMessage | Message)[]): ToolResultMessage[] {
	return messages.filter((message): message is ToolResultMessage => (message as Message).role === "toolResult");
}

function roles(messages: AgentMessage[]): string[] {
	return messages.map((message) => (message as Message).role);
}

/** An agent over the faux model whose first answer calls read(a), write(b), read(c) in one message. */
function mixedBatchAgent(options: ConstructorParameters<typeof Agent>[0] = {}) {
	const read = countingTool("read");
	const write = countingTool("write", { requiresApproval: true });
	faux.setResponses([
		fauxAssistantMessage([
			fauxToolCall("read", { value: "a" }, "call-a"),
			fauxToolCall("write", { value: "b" }, "call-b"),
			fauxToolCall("read", { value: "c" }, "call-c"),
		]),
		fauxAssistantMessage("all done"),
	]);
	const agent = new Agent({
		...options,
		initialState: { model: faux.getModel(), tools: [read, write], ...options.initialState },
	});
	const events: AgentEvent[] = [];
	agent.subscribe((event) => {
		events.push(event);
	});
	return { agent, read, write, events };
}

describe("tool approval: a parallel batch mixing gated and ungated calls", () => {
	it("runs the ungated calls, pauses for the gated one, and ends the run with a serialisable paused state", async () => {
		const { agent, read, write, events } = mixedBatchAgent();
		await agent.prompt("go");

		expect(read.runs).toEqual(["call-a", "call-c"]);
		expect(write.runs).toEqual([]);
		expect(agent.pendingApprovals).toEqual([{ toolCallId: "call-b", toolName: "write", args: { value: "b" } }]);
		// Nothing of the batch is in the transcript yet: the results go in together, in call order.
		expect(roles(agent.state.messages)).toEqual(["user", "assistant"]);
		const last = events[events.length - 1];
		expect(last.type).toBe("agent_end");
		const paused = (last as { pausedRun?: PausedToolRun }).pausedRun;
		expect(paused && JSON.parse(JSON.stringify(paused))).toEqual(paused);
		expect(paused?.calls.map((call) => call.status)).toEqual(["done", "pending", "done"]);
		expect(describeEvents(events)).toContain("tool_approval_request");
		const requestIndex = events.findIndex((event) => event.type === "tool_approval_request");
		expect(events[requestIndex]).toEqual({
			type: "tool_approval_request",
			toolCallId: "call-b",
			toolName: "write",
			args: { value: "b" },
		});
		expect(faux.state.callCount).toBe(1);
	});

	it("approving runs the gated call and reports every result in call order, then the model goes on", async () => {
		const { agent, write, events } = mixedBatchAgent();
		await agent.prompt("go");
		events.length = 0;
		await agent.approve("call-b");

		expect(write.runs).toEqual(["call-b"]);
		expect(toolResultsOf(agent.state.messages).map((result) => result.toolCallId)).toEqual([
			"call-a",
			"call-b",
			"call-c",
		]);
		const sent = toolResultsOf(faux.state.requests[1].context.messages);
		expect(sent.map((result) => textOf(result))).toEqual(["read:a", "write:b", "read:c"]);
		expect(textOf(agent.state.messages[agent.state.messages.length - 1])).toBe("all done");
		expect(agent.pausedRun).toBeUndefined();
		// The resumed run: the decision, the gated call's end, the three results, the next turn.
		expect(describeEvents(events)).toEqual([
			"agent_start",
			"turn_start",
			"tool_approval_response",
			"tool_execution_end:call-b",
			"message_start:toolResult(call-a)",
			"message_end:toolResult(call-a)",
			"message_start:toolResult(call-b)",
			"message_end:toolResult(call-b)",
			"message_start:toolResult(call-c)",
			"message_end:toolResult(call-c)",
			"turn_end:3",
			"turn_start",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end:0",
			"agent_end",
		]);
		expect(eventTreeProblems(events)).toEqual([]);
	});

	it("a denial's reason reaches the model as the call's error result, and the tool never runs", async () => {
		const { agent, write } = mixedBatchAgent();
		await agent.prompt("go");
		await agent.deny("call-b", "writes are frozen today");

		expect(write.runs).toEqual([]);
		const sent = toolResultsOf(faux.state.requests[1].context.messages);
		expect(sent.map((result) => [result.toolCallId, result.isError, textOf(result)])).toEqual([
			["call-a", false, "read:a"],
			["call-b", true, "Tool call was denied: writes are frozen today"],
			["call-c", false, "read:c"],
		]);
	});

	it("a denial without a reason gives the model a default text", async () => {
		const { agent } = mixedBatchAgent();
		await agent.prompt("go");
		await agent.deny("call-b");
		const denied = toolResultsOf(agent.state.messages).find((result) => result.toolCallId === "call-b");
		expect(denied && textOf(denied)).toBe(DENIED_TOOL_TEXT);
	});

	it("abort while waiting gives the waiting call an aborted result and keeps the ungated results", async () => {
		const { agent, write, events } = mixedBatchAgent();
		await agent.prompt("go");
		events.length = 0;
		agent.abort();
		await agent.waitForIdle();

		expect(write.runs).toEqual([]);
		const results = toolResultsOf(agent.state.messages);
		expect(results.map((result) => [result.toolCallId, textOf(result)])).toEqual([
			["call-a", "read:a"],
			["call-b", ABORTED_WHILE_WAITING_TEXT],
			["call-c", "read:c"],
		]);
		expect(agent.pausedRun).toBeUndefined();
		expect(faux.state.callCount).toBe(1);
		// As after any abort during tool calls, the run ends with an aborted assistant message.
		expect(roles(agent.state.messages)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"toolResult",
			"toolResult",
			"assistant",
		]);
		expect(eventTreeProblems(events)).toEqual([]);
	});

	it("abort while ungated calls still run ends the run without pausing: the waiting call is aborted too", async () => {
		let release!: () => void;
		const slow = countingTool("read", {
			execute: (_id, _params, signal) =>
				new Promise<AgentToolResult>((resolve) => {
					release = () => resolve({ content: [{ type: "text", text: "late" }], details: {} });
					signal?.addEventListener("abort", () => release());
				}),
		});
		const write = countingTool("write", { requiresApproval: true });
		faux.setResponses([
			fauxAssistantMessage([
				fauxToolCall("read", { value: "a" }, "call-a"),
				fauxToolCall("write", { value: "b" }, "call-b"),
			]),
		]);
		const agent = new Agent({ initialState: { model: faux.getModel(), tools: [slow, write] } });
		agent.subscribe((event) => {
			if (event.type === "tool_approval_request") agent.abort();
		});
		await agent.prompt("go");
		expect(agent.pausedRun).toBeUndefined();
		const results = toolResultsOf(agent.state.messages);
		expect(results.map((result) => result.toolCallId)).toEqual(["call-a", "call-b"]);
		expect(textOf(results[1])).toBe(ABORTED_WHILE_WAITING_TEXT);
	});
});

describe("tool approval: deciding", () => {
	it("approving the same call twice runs it once (concurrently, and after the run ended)", async () => {
		const { agent, write } = mixedBatchAgent();
		await agent.prompt("go");
		await Promise.all([agent.approve("call-b"), agent.approve("call-b")]);
		await agent.approve("call-b");
		expect(write.runs).toEqual(["call-b"]);
		expect(faux.state.callCount).toBe(2);
		expect(toolResultsOf(agent.state.messages)).toHaveLength(3);
	});

	it("changing a decision is refused", async () => {
		const { agent } = mixedBatchAgent();
		await agent.prompt("go");
		await agent.approve("call-b");
		await expect(agent.deny("call-b", "changed my mind")).rejects.toThrow(
			'Tool call "call-b" was already approved; a decision cannot be changed',
		);
	});

	it("approving an unknown id is a clear error naming the calls that wait, and changes nothing", async () => {
		const { agent, write } = mixedBatchAgent();
		await agent.prompt("go");
		await expect(agent.approve("call-z")).rejects.toThrow(
			'No tool call "call-z" is waiting for approval; waiting: "call-b"',
		);
		await expect(agent.approve("call-a")).rejects.toThrow('No tool call "call-a" is waiting for approval');
		expect(agent.pendingApprovals.map((request) => request.toolCallId)).toEqual(["call-b"]);
		expect(write.runs).toEqual([]);
	});

	it("approving with no paused run is a clear error", async () => {
		const agent = new Agent({ initialState: { model: faux.getModel() } });
		await expect(agent.approve("call-1")).rejects.toThrow(
			'No tool call "call-1" is waiting for approval: the agent has no paused run',
		);
	});

	it("an Agent given a paused run whose assistant message is not its last message refuses to start", async () => {
		const { agent } = mixedBatchAgent();
		await agent.prompt("go");
		const pausedRun = agent.pausedRun;
		expect(() => new Agent({ initialState: { messages: [] }, pausedRun })).toThrow(
			"Cannot resume the paused run: the transcript does not end with its assistant message (tool calls call-a, call-b, call-c)",
		);
	});

	it("a new prompt or continue() while calls wait is refused with what to do", async () => {
		const { agent } = mixedBatchAgent();
		await agent.prompt("go");
		await expect(agent.prompt("another")).rejects.toThrow(
			'Agent is waiting for tool approval ("call-b" (write)): call approve(), deny() or abort() first',
		);
		await expect(agent.continue()).rejects.toThrow("Agent is waiting for tool approval");
	});

	it("deciding one of two waiting calls runs it and pauses again for the other; results keep call order", async () => {
		const write = countingTool("write", { requiresApproval: true });
		const read = countingTool("read");
		faux.setResponses([
			fauxAssistantMessage([
				fauxToolCall("write", { value: "1" }, "w1"),
				fauxToolCall("read", { value: "r" }, "r1"),
				fauxToolCall("write", { value: "2" }, "w2"),
			]),
			fauxAssistantMessage("ok"),
		]);
		const agent = new Agent({ initialState: { model: faux.getModel(), tools: [write, read] } });
		await agent.prompt("go");
		expect(agent.pendingApprovals.map((request) => request.toolCallId)).toEqual(["w1", "w2"]);
		await agent.approve("w2");
		expect(write.runs).toEqual(["w2"]);
		expect(agent.pendingApprovals.map((request) => request.toolCallId)).toEqual(["w1"]);
		expect(roles(agent.state.messages)).toEqual(["user", "assistant"]);
		await agent.deny("w1", "no");
		expect(toolResultsOf(agent.state.messages).map((result) => [result.toolCallId, textOf(result)])).toEqual([
			["w1", "Tool call was denied: no"],
			["r1", "read:r"],
			["w2", "write:2"],
		]);
		expect(faux.state.callCount).toBe(2);
	});
});

describe("tool approval: what decides", () => {
	it("requiresApproval receives the arguments typed by the schema, and a typed tool fits the Agent", () => {
		const parameters = Type.Object({ path: Type.String() });
		const remove: AgentTool<typeof parameters> = {
			name: "remove",
			label: "Remove",
			description: "removes a file",
			parameters,
			requiresApproval: (args) => {
				expectTypeOf(args).toEqualTypeOf<{ path: string }>();
				return args.path.startsWith("/");
			},
			async execute() {
				return { content: [], details: {} };
			},
		};
		const agent = new Agent({ initialState: { tools: [remove] } });
		expect(agent.state.tools).toHaveLength(1);
	});

	it("requiresApproval as a function of the validated arguments gates only the calls it returns true for", async () => {
		const shell = countingTool("shell", {
			requiresApproval: (args) => (args as { value: string }).value.startsWith("rm"),
		});
		faux.setResponses([
			fauxAssistantMessage([
				fauxToolCall("shell", { value: "ls" }, "s1"),
				fauxToolCall("shell", { value: "rm -rf /" }, "s2"),
			]),
			fauxAssistantMessage("ok"),
		]);
		const agent = new Agent({ initialState: { model: faux.getModel(), tools: [shell] } });
		await agent.prompt("go");
		expect(shell.runs).toEqual(["s1"]);
		expect(agent.pendingApprovals.map((request) => request.toolCallId)).toEqual(["s2"]);
	});

	it("the approval policy decides over the tool's flag when it returns a boolean, and defers with undefined", async () => {
		const write = countingTool("write", { requiresApproval: true });
		const read = countingTool("read");
		faux.setResponses([
			fauxAssistantMessage([
				fauxToolCall("write", { value: "b" }, "w"),
				fauxToolCall("read", { value: "secret" }, "r"),
			]),
			fauxAssistantMessage("ok"),
		]);
		const seen: string[] = [];
		const agent = new Agent({
			initialState: { model: faux.getModel(), tools: [write, read] },
			approvalPolicy: ({ tool, args }) => {
				seen.push(tool.name);
				if (tool.name === "write") return false;
				return (args as { value: string }).value === "secret" ? true : undefined;
			},
		});
		await agent.prompt("go");
		expect(seen).toEqual(["write", "read"]);
		expect(write.runs).toEqual(["w"]);
		expect(agent.pendingApprovals.map((request) => request.toolCallId)).toEqual(["r"]);
	});

	it("a check that throws refuses the call with an error result instead of running it", async () => {
		const write = countingTool("write", {
			requiresApproval: () => {
				throw new Error("policy store offline");
			},
		});
		faux.setResponses([fauxAssistantMessage([fauxToolCall("write", { value: "b" }, "w")]), fauxAssistantMessage("ok")]);
		const agent = new Agent({ initialState: { model: faux.getModel(), tools: [write] } });
		await agent.prompt("go");
		expect(write.runs).toEqual([]);
		expect(agent.pausedRun).toBeUndefined();
		const [result] = toolResultsOf(agent.state.messages);
		expect(result.isError).toBe(true);
		expect(textOf(result)).toBe(
			'requiresApproval of tool "write" failed, so the call was not run: policy store offline',
		);
	});

	it("an asynchronous approval policy is awaited", async () => {
		const write = countingTool("write");
		faux.setResponses([fauxAssistantMessage([fauxToolCall("write", { value: "b" }, "w")])]);
		const agent = new Agent({
			initialState: { model: faux.getModel(), tools: [write] },
			approvalPolicy: async () => true,
		});
		await agent.prompt("go");
		expect(agent.pendingApprovals.map((request) => request.toolCallId)).toEqual(["w"]);
	});
});

describe("tool approval: a sequential batch", () => {
	it("records the results before the waiting call, runs nothing after it until it is decided", async () => {
		const { agent, read, write } = mixedBatchAgent({ toolExecution: "sequential" });
		await agent.prompt("go");
		expect(read.runs).toEqual(["call-a"]);
		expect(roles(agent.state.messages)).toEqual(["user", "assistant", "toolResult"]);
		expect(agent.pausedRun?.calls.map((call) => call.status)).toEqual(["recorded", "pending", "not-started"]);
		await agent.approve("call-b");
		expect(read.runs).toEqual(["call-a", "call-c"]);
		expect(write.runs).toEqual(["call-b"]);
		expect(toolResultsOf(agent.state.messages).map((result) => result.toolCallId)).toEqual([
			"call-a",
			"call-b",
			"call-c",
		]);
	});
});

describe("tool approval: the loop functions", () => {
	it("a paused run resumes from its JSON form with runAgentLoopAfterApprovals", async () => {
		const read = countingTool("read");
		const write = countingTool("write", { requiresApproval: true });
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("write", { value: "b" }, "w"), fauxToolCall("read", { value: "a" }, "r")]),
			fauxAssistantMessage("finished"),
		]);
		const config = { model: faux.getModel(), convertToLlm: (messages: AgentMessage[]) => messages as Message[] };
		const context = { systemPrompt: "", messages: [] as AgentMessage[], tools: [read, write] };
		let paused: PausedToolRun | undefined;
		const first = await runAgentLoop([{ role: "user", content: "go", timestamp: 1 }], context, config, (event) => {
			if (event.type === "agent_end") paused = event.pausedRun;
		});
		const stored = JSON.parse(JSON.stringify({ messages: first, paused }));
		const events: AgentEvent[] = [];
		const added = await runAgentLoopAfterApprovals(
			{ systemPrompt: "", messages: stored.messages, tools: [read, write] },
			stored.paused,
			[{ toolCallId: "w", approved: true }],
			config,
			(event) => {
				events.push(event);
			},
		);
		expect(roles(added)).toEqual(["toolResult", "toolResult", "assistant"]);
		expect(toolResultsOf(added).map((result) => textOf(result))).toEqual(["write:b", "read:a"]);
		expect((added[2] as AssistantMessage).stopReason).toBe("stop");
		expect(events[events.length - 1].type).toBe("agent_end");
	});

	it("refuses to resume a transcript that does not end with the paused assistant message", async () => {
		const write = countingTool("write", { requiresApproval: true });
		faux.setResponses([fauxAssistantMessage([fauxToolCall("write", { value: "b" }, "w")])]);
		const config = { model: faux.getModel(), convertToLlm: (messages: AgentMessage[]) => messages as Message[] };
		let paused: PausedToolRun | undefined;
		await runAgentLoop(
			[{ role: "user", content: "go", timestamp: 1 }],
			{ systemPrompt: "", messages: [], tools: [write] },
			config,
			(event) => {
				if (event.type === "agent_end") paused = event.pausedRun;
			},
		);
		await expect(
			runAgentLoopAfterApprovals(
				{ systemPrompt: "", messages: [{ role: "user", content: "other", timestamp: 2 }], tools: [write] },
				paused as PausedToolRun,
				[{ toolCallId: "w", approved: true }],
				config,
				() => {},
			),
		).rejects.toThrow("Cannot resume the paused run: the transcript does not end with its assistant message");
		await expect(
			runAgentLoopAfterApprovals({ systemPrompt: "", messages: [] }, { version: 2 } as never, [], config, () => {}),
		).rejects.toThrow("Invalid paused run: version must be 1");
	});
});

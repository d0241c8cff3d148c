// Steering that interrupts: steer(message, { interrupt: true }) cuts the model call or tool batch in
// flight short, keeps what was said (marked), answers every call, and the steering goes next, while
// the run goes on. Every test steers on an event (a delta, a tool's start), never after a delay.
import { type AssistantMessage, type Message, type ToolResultMessage, Type } from "@keel/ai";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxText,
	fauxThinking,
	fauxToolCall,
	registerFauxProvider,
} from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { toolPairingProblems } from "../../ai/test/helpers/tool-pairing.js";
import {
	Agent,
	type AgentEvent,
	type AgentMessage,
	type AgentTool,
	defaultConvertToLlm,
	INTERRUPTED_BY_STEERING_TEXT,
	INTERRUPTED_TOOL_TEXT,
	isInterruptedMessage,
	runAgentLoop,
	SKIPPED_FOR_INTERRUPT_TEXT,
	SKIPPED_FOR_STEERING_TEXT,
} from "../src/index.js";
import { bindSession, createMemoryTranscriptStore, resumeAgent, Session } from "../src/session/index.js";
import { echoTool, eventTreeProblems, textOf, transcriptProblems, user } from "./helpers.js";

const LONG_THINKING = "Let me think about which log file to open first, then the config, then the tests. ".repeat(4);
const LONG_TEXT = "Here is a long explanation of the build system, file by file, with examples. ".repeat(4);
const STOP = "stop, production is down";

let faux: FauxProviderRegistration;

beforeEach(() => {
	// A priced model, so the interrupted message's cost shows in the run's usage.
	faux = registerFauxProvider({
		models: [{ id: "faux-model", cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } }],
	});
});
afterEach(() => {
	faux.unregister();
});

function createAgent(options: ConstructorParameters<typeof Agent>[0] = {}): Agent {
	return new Agent({ ...options, initialState: { model: faux.getModel(), ...options.initialState } });
}

/** Records every event; `when(event)` true the first time → the agent is steered with an interrupt. */
function steerOn(agent: Agent, when: (event: AgentEvent) => boolean, message = STOP): AgentEvent[] {
	const events: AgentEvent[] = [];
	let steered = false;
	agent.subscribe((event) => {
		events.push(event);
		if (!steered && when(event)) {
			steered = true;
			agent.steer(user(message), { interrupt: true });
		}
	});
	return events;
}

function isDelta(type: string) {
	return (event: AgentEvent) => event.type === "message_update" && event.assistantMessageEvent.type === type;
}

function roles(messages: AgentMessage[]): string[] {
	return messages.map((message) => (message as Message).role);
}

function assistants(messages: AgentMessage[]): AssistantMessage[] {
	return messages.filter((message): message is AssistantMessage => (message as Message).role === "assistant");
}

function toolResults(messages: AgentMessage[]): ToolResultMessage[] {
	return messages.filter((message): message is ToolResultMessage => (message as Message).role === "toolResult");
}

/** A tool that runs until its signal aborts (it honours abort), recording the signal it got. */
function untilAbortedTool(name: string) {
	const signals: AbortSignal[] = [];
	let notify: (() => void) | undefined;
	const started = new Promise<void>((resolve) => {
		notify = resolve;
	});
	const tool: AgentTool = {
		name,
		label: name,
		description: "runs until aborted",
		parameters: Type.Object({}),
		execute(_id, _params, signal) {
			if (signal) signals.push(signal);
			notify?.();
			return new Promise((_resolve, reject) => {
				signal?.addEventListener("abort", () => reject(new Error("stopped")), { once: true });
			});
		},
	};
	return { tool, signals, started };
}

/** echo, counting its runs. */
function countingEcho() {
	const runs: string[] = [];
	const base = echoTool();
	const tool: AgentTool = {
		...base,
		execute(id, params, signal, onUpdate) {
			runs.push(id);
			return base.execute(id, params, signal, onUpdate);
		},
	};
	return { tool, runs };
}

describe("steering that interrupts the model call", () => {
	it("during thinking: the partial answer is kept and marked, the model is not shown it, the steering goes next", async () => {
		faux.setResponses([
			fauxAssistantMessage([fauxThinking(LONG_THINKING), fauxText(LONG_TEXT)]),
			"Looking at production now.",
		]);
		const agent = createAgent({ initialState: { thinkingLevel: "high" } });
		const events = steerOn(agent, isDelta("thinking_delta"));
		await agent.prompt("explain the build");

		expect(roles(agent.state.messages)).toEqual(["user", "assistant", "user", "assistant"]);
		const [interrupted, answer] = assistants(agent.state.messages);
		expect(interrupted.stopReason).toBe("aborted");
		expect(interrupted.errorMessage).toBe(INTERRUPTED_BY_STEERING_TEXT);
		expect(isInterruptedMessage(interrupted)).toBe(true);
		const thinking = interrupted.content.find((block) => block.type === "thinking");
		expect(thinking && thinking.type === "thinking" && LONG_THINKING.startsWith(thinking.thinking)).toBe(true);
		expect(thinking && thinking.type === "thinking" && thinking.thinking.length).toBeLessThan(LONG_THINKING.length);
		expect(interrupted.content.some((block) => block.type === "text")).toBe(false);
		expect(textOf(agent.state.messages[2])).toBe(STOP);
		expect(textOf(answer)).toBe("Looking at production now.");
		// Interrupted, not failed: the run went on and the agent reports no error.
		expect(agent.state.errorMessage).toBeUndefined();
		expect(eventTreeProblems(events)).toEqual([]);
		// Only thinking was said: the next call does not carry the interrupted message at all.
		expect(faux.state.callCount).toBe(2);
		expect(roles(faux.state.requests[1].context.messages)).toEqual(["user", "user"]);
	});

	it("during text: the model is shown the text it had written, as a finished answer", async () => {
		faux.setResponses([LONG_TEXT, "Stopping; checking production."]);
		const agent = createAgent();
		// After the second delta, so there is text to keep.
		let deltas = 0;
		const events = steerOn(agent, (event) => isDelta("text_delta")(event) && ++deltas === 2);
		await agent.prompt("explain the build");

		const [interrupted, answer] = assistants(agent.state.messages);
		expect(isInterruptedMessage(interrupted)).toBe(true);
		const said = textOf(interrupted);
		expect(said.length).toBeGreaterThan(0);
		expect(said.length).toBeLessThan(LONG_TEXT.length);
		expect(LONG_TEXT.startsWith(said)).toBe(true);
		expect(textOf(answer)).toBe("Stopping; checking production.");
		expect(eventTreeProblems(events)).toEqual([]);

		const sent = faux.state.requests[1].context;
		expect(roles(sent.messages)).toEqual(["user", "assistant", "user"]);
		const shown = sent.messages[1] as AssistantMessage;
		expect(shown.content).toEqual([{ type: "text", text: said }]);
		expect(shown.stopReason).toBe("stop");
		expect(shown.errorMessage).toBeUndefined();
		expect(toolPairingProblems(sent)).toEqual([]);
	});

	it("during a tool-call stream: no call runs, each gets the skipped result, none is sent as a call", async () => {
		const echo = countingEcho();
		faux.setResponses([
			fauxAssistantMessage([
				fauxText("Let me check."),
				fauxToolCall("echo", { value: "a long argument ".repeat(8) }, "call_1"),
				fauxToolCall("echo", { value: "second" }, "call_2"),
			]),
			"OK, production first.",
		]);
		const agent = createAgent({ initialState: { tools: [echo.tool] } });
		const events = steerOn(agent, isDelta("toolcall_delta"));
		await agent.prompt("check the files");

		expect(roles(agent.state.messages)).toEqual(["user", "assistant", "toolResult", "user", "assistant"]);
		const [interrupted] = assistants(agent.state.messages);
		expect(isInterruptedMessage(interrupted)).toBe(true);
		// The call cut short is kept in the transcript (what the model had started), answered, never run.
		expect(interrupted.content.filter((block) => block.type === "toolCall").map((block) => block.id)).toEqual([
			"call_1",
		]);
		expect(echo.runs).toEqual([]);
		expect(
			toolResults(agent.state.messages).map((result) => [result.toolCallId, textOf(result), result.isError]),
		).toEqual([["call_1", SKIPPED_FOR_INTERRUPT_TEXT, true]]);
		expect(transcriptProblems(agent.state.messages)).toEqual([]);
		expect(eventTreeProblems(events)).toEqual([]);
		expect(agent.state.pendingToolCalls.size).toBe(0);

		// The model sees "Let me check." and the steering; the half call and its result are left out.
		const sent = faux.state.requests[1].context;
		expect(roles(sent.messages)).toEqual(["user", "assistant", "user"]);
		expect((sent.messages[1] as AssistantMessage).content).toEqual([{ type: "text", text: "Let me check." }]);
		expect(toolPairingProblems(sent)).toEqual([]);
	});

	it("counts the interrupted message's tokens and cost in the run's usage", async () => {
		faux.setResponses([LONG_TEXT, "ok"]);
		const agent = createAgent();
		let ended: AgentMessage[] = [];
		agent.subscribe((event) => {
			if (event.type === "agent_end") ended = event.messages;
		});
		steerOn(agent, isDelta("text_delta"));
		await agent.prompt("explain the build");

		const [interrupted] = assistants(ended);
		expect(isInterruptedMessage(interrupted)).toBe(true);
		expect(interrupted.usage.input).toBeGreaterThan(0);
		expect(interrupted.usage.output).toBeGreaterThan(0);
		expect(interrupted.usage.cost.total).toBeGreaterThan(0);
		// The faux provider counts a token per 4 characters streamed: the output is what was written.
		expect(interrupted.usage.output).toBe(Math.ceil(textOf(interrupted).length / 4));
		const runOutput = assistants(ended).reduce((sum, message) => sum + message.usage.output, 0);
		expect(runOutput).toBeGreaterThan(assistants(ended)[1].usage.output);
	});
});

describe("steering that interrupts running tools", () => {
	it("sequential: the running tool's signal aborts (result: interrupted), later calls are skipped, the run's signal is not aborted", async () => {
		const slow = untilAbortedTool("slow");
		const echo = countingEcho();
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("slow", {}, "call_1"), fauxToolCall("echo", { value: "x" }, "call_2")]),
			"Switching to production.",
		]);
		const agent = createAgent({ initialState: { tools: [slow.tool, echo.tool] }, toolExecution: "sequential" });
		const events: AgentEvent[] = [];
		agent.subscribe((event) => {
			events.push(event);
		});
		const running = agent.prompt("run the checks");
		await slow.started;
		const runSignal = agent.signal;
		expect(agent.steer(user(STOP), { interrupt: true })).toBe(true);
		await running;

		expect(slow.signals[0].aborted).toBe(true);
		expect(runSignal?.aborted).toBe(false);
		expect(echo.runs).toEqual([]);
		expect(
			toolResults(agent.state.messages).map((result) => [result.toolCallId, textOf(result), result.isError]),
		).toEqual([
			["call_1", INTERRUPTED_TOOL_TEXT, true],
			["call_2", SKIPPED_FOR_INTERRUPT_TEXT, true],
		]);
		expect(roles(agent.state.messages)).toEqual(["user", "assistant", "toolResult", "toolResult", "user", "assistant"]);
		expect(textOf(agent.state.messages[4])).toBe(STOP);
		expect(textOf(agent.state.messages[5])).toBe("Switching to production.");
		expect(eventTreeProblems(events)).toEqual([]);
		expect(toolPairingProblems(faux.state.requests[1].context)).toEqual([]);
	});

	it("parallel, with steering checked only after the turn: every running tool is interrupted at once", async () => {
		const first = untilAbortedTool("first");
		const second = untilAbortedTool("second");
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("first", {}, "call_1"), fauxToolCall("second", {}, "call_2")]),
			"Switching.",
		]);
		const agent = createAgent({ initialState: { tools: [first.tool, second.tool] }, steeringCheck: "after-turn" });
		const running = agent.prompt("run the checks");
		await Promise.all([first.started, second.started]);
		agent.steer(user(STOP), { interrupt: true });
		await running;

		expect([first.signals[0].aborted, second.signals[0].aborted]).toEqual([true, true]);
		expect(toolResults(agent.state.messages).map((result) => textOf(result))).toEqual([
			INTERRUPTED_TOOL_TEXT,
			INTERRUPTED_TOOL_TEXT,
		]);
		expect(roles(agent.state.messages).slice(-2)).toEqual(["user", "assistant"]);
		expect(textOf(agent.state.messages.at(-1) as AgentMessage)).toBe("Switching.");
	});
});

describe("steering that interrupts a batch with a call waiting for approval", () => {
	it("answers the waiting call with the skipped result instead of pausing the run", async () => {
		const slow = untilAbortedTool("slow");
		const guarded = countingEcho();
		const write: AgentTool = { ...guarded.tool, name: "write", requiresApproval: true };
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("slow", {}, "call_1"), fauxToolCall("write", { value: "x" }, "call_2")]),
			"Switching.",
		]);
		const agent = createAgent({ initialState: { tools: [slow.tool, write] } });
		let ended: AgentEvent | undefined;
		agent.subscribe((event) => {
			if (event.type === "agent_end") ended = event;
		});
		const running = agent.prompt("run the checks");
		await slow.started;
		agent.steer(user(STOP), { interrupt: true });
		await running;

		expect(ended?.type === "agent_end" && ended.pausedRun).toBeUndefined();
		expect(agent.pendingApprovals).toEqual([]);
		expect(guarded.runs).toEqual([]);
		expect(toolResults(agent.state.messages).map((result) => [result.toolCallId, textOf(result)])).toEqual([
			["call_1", INTERRUPTED_TOOL_TEXT],
			["call_2", SKIPPED_FOR_INTERRUPT_TEXT],
		]);
		expect(textOf(agent.state.messages.at(-1) as AgentMessage)).toBe("Switching.");
	});
});

describe("steering that interrupts, in the loop without an Agent", () => {
	it("listenForInterrupts hands out the interrupt and takes back the unsubscribe when the run ends", async () => {
		faux.setResponses([LONG_TEXT, "Production first."]);
		const queue: AgentMessage[] = [];
		let interrupt: (() => void) | undefined;
		let stoppedListening = 0;
		const events: AgentEvent[] = [];
		const messages = await runAgentLoop(
			[user("explain the build")],
			{ systemPrompt: "", messages: [] },
			{
				model: faux.getModel(),
				convertToLlm: defaultConvertToLlm,
				getSteeringMessages: () => queue.splice(0),
				listenForInterrupts: (given) => {
					interrupt = given;
					return () => {
						stoppedListening++;
					};
				},
			},
			(event) => {
				events.push(event);
				if (queue.length === 0 && isDelta("text_delta")(event) && stoppedListening === 0 && interrupt) {
					queue.push(user(STOP));
					interrupt();
					interrupt = undefined;
				}
			},
		);

		expect(roles(messages)).toEqual(["user", "assistant", "user", "assistant"]);
		expect(isInterruptedMessage(messages[1])).toBe(true);
		expect(textOf(messages[3])).toBe("Production first.");
		expect(stoppedListening).toBe(1);
		expect(eventTreeProblems(events)).toEqual([]);
	});
});

describe("steering that interrupts: edges", () => {
	it("steering without interrupt still waits for the answer being streamed", async () => {
		faux.setResponses([LONG_TEXT, "Now production."]);
		const agent = createAgent();
		let steered = false;
		agent.subscribe((event) => {
			if (!steered && isDelta("text_delta")(event)) {
				steered = true;
				agent.steer(user(STOP));
			}
		});
		await agent.prompt("explain the build");

		const [first, second] = assistants(agent.state.messages);
		expect(first.stopReason).toBe("stop");
		expect(textOf(first)).toBe(LONG_TEXT);
		expect(roles(agent.state.messages)).toEqual(["user", "assistant", "user", "assistant"]);
		expect(textOf(second)).toBe("Now production.");
	});

	it("interrupt() with no steering queued does nothing, running or idle", async () => {
		faux.setResponses([LONG_TEXT]);
		const agent = createAgent();
		expect(agent.interrupt()).toBe(false);
		const answers: boolean[] = [];
		agent.subscribe((event) => {
			if (answers.length === 0 && isDelta("text_delta")(event)) answers.push(agent.interrupt());
		});
		await agent.prompt("explain the build");

		expect(answers).toEqual([false]);
		expect(roles(agent.state.messages)).toEqual(["user", "assistant"]);
		expect(textOf(agent.state.messages[1])).toBe(LONG_TEXT);
		expect(faux.state.callCount).toBe(1);
	});

	it("steering again with an equal message already queued is not queued twice, but still interrupts", async () => {
		faux.setResponses([LONG_TEXT, "Production first."]);
		const agent = createAgent();
		const answers: boolean[] = [];
		agent.subscribe((event) => {
			if (answers.length === 0 && isDelta("text_delta")(event)) {
				agent.steer(user(STOP));
				answers.push(agent.steer(user(STOP), { interrupt: true }));
			}
		});
		await agent.prompt("explain the build");

		expect(answers).toEqual([false]);
		expect(isInterruptedMessage(agent.state.messages[1])).toBe(true);
		expect(roles(agent.state.messages)).toEqual(["user", "assistant", "user", "assistant"]);
		expect(agent.hasQueuedMessages()).toBe(false);
	});

	it("abort() during the handoff to the steering still ends the run once, cleanly, with nothing lost", async () => {
		faux.setResponses([LONG_TEXT, "never asked for"]);
		const agent = createAgent();
		const events = steerOn(agent, isDelta("text_delta"));
		agent.subscribe((event) => {
			if (event.type === "message_end" && isInterruptedMessage(event.message)) agent.abort();
		});
		await agent.prompt("explain the build");

		expect(eventTreeProblems(events)).toEqual([]);
		expect(events.at(-1)?.type).toBe("agent_end");
		expect(agent.state.isStreaming).toBe(false);
		expect(faux.state.callCount).toBe(1);
		const last = agent.state.messages.at(-1) as AssistantMessage;
		expect(last.stopReason).toBe("aborted");
		expect(isInterruptedMessage(last)).toBe(false);
		// The steering message was taken before the abort was seen: it is in the transcript, not lost.
		const delivered = agent.state.messages.some((message) => textOf(message) === STOP);
		expect(delivered || agent.hasQueuedMessages()).toBe(true);
	});

	it("an interrupt while the next call is prepared skips that call: the steering goes first", async () => {
		faux.setResponses([fauxAssistantMessage([fauxToolCall("echo", { value: "x" }, "call_1")]), "Production first."]);
		let preparations = 0;
		const agent: Agent = createAgent({
			initialState: { tools: [echoTool()] },
			transformContext: (messages) => {
				// The second call is being prepared: the user steers now.
				if (++preparations === 2) agent.steer(user(STOP), { interrupt: true });
				return messages;
			},
		});
		await agent.prompt("check");

		expect(faux.state.callCount).toBe(2);
		expect(roles(agent.state.messages)).toEqual(["user", "assistant", "toolResult", "assistant", "user", "assistant"]);
		const skipped = agent.state.messages[3] as AssistantMessage;
		expect(isInterruptedMessage(skipped)).toBe(true);
		expect(skipped.content).toEqual([]);
		expect(roles(faux.state.requests[1].context.messages)).toEqual(["user", "assistant", "toolResult", "user"]);
		expect(textOf(agent.state.messages[5])).toBe("Production first.");
	});
});

describe("steering that interrupts, in a session", () => {
	it("stores the interrupted message and the skipped results like any others, and a resumed agent shows the model what was said", async () => {
		const store = createMemoryTranscriptStore();
		const session = await Session.create(store);
		faux.setResponses([
			fauxAssistantMessage([fauxText(LONG_TEXT), fauxToolCall("echo", { value: "x" }, "call_1")]),
			"Production first.",
		]);
		const agent = createAgent({ initialState: { tools: [echoTool()] }, store: bindSession(session) });
		// Steered in the tool-call stream, so the stored turn has text, a call and its skipped result.
		steerOn(agent, isDelta("toolcall_delta"));
		await agent.prompt("explain the build");
		const said = textOf(assistants(agent.state.messages)[0]);
		await session.close();

		const reopened = await Session.open(store, session.id);
		const stored = reopened.messages();
		expect(roles(stored)).toEqual(["user", "assistant", "toolResult", "user", "assistant"]);
		expect(isInterruptedMessage(stored[1])).toBe(true);
		expect(textOf(stored[2])).toBe(SKIPPED_FOR_INTERRUPT_TEXT);
		expect(reopened.pendingQueueItems()).toEqual([]);

		faux.setResponses(["Still on production."]);
		const resumed = await resumeAgent(reopened, { initialState: { model: faux.getModel(), tools: [echoTool()] } });
		await resumed.prompt("status?");
		const sent = faux.state.requests[2].context;
		expect(roles(sent.messages)).toEqual(["user", "assistant", "user", "assistant", "user"]);
		expect((sent.messages[1] as AssistantMessage).content).toEqual([{ type: "text", text: said }]);
		expect(toolPairingProblems(sent)).toEqual([]);
		await reopened.close();
	});
});

describe("the skipped-result texts", () => {
	it("say the call was skipped or interrupted by steering, and differ from the queued-message text", () => {
		expect(SKIPPED_FOR_INTERRUPT_TEXT).toBe("Skipped: interrupted by a steering message.");
		expect(INTERRUPTED_TOOL_TEXT).toBe("Tool execution was interrupted by a steering message.");
		expect(INTERRUPTED_BY_STEERING_TEXT).toBe("Interrupted by a steering message");
		expect(SKIPPED_FOR_STEERING_TEXT).not.toBe(SKIPPED_FOR_INTERRUPT_TEXT);
	});
});

describe("isInterruptedMessage", () => {
	it("tells an answer cut off by steering from one the run's abort ended, and keeps the other answers typed", () => {
		const base = {
			role: "assistant" as const,
			content: [],
			api: "faux",
			provider: "faux",
			model: "faux-model",
			usage: {
				input: 0,
				output: 0,
				cacheRead: 0,
				cacheWrite: 0,
				totalTokens: 0,
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
			},
			timestamp: 0,
		};
		const interrupted: AssistantMessage = {
			...base,
			stopReason: "aborted",
			errorMessage: INTERRUPTED_BY_STEERING_TEXT,
		};
		const aborted: AssistantMessage = { ...base, stopReason: "aborted", errorMessage: "Request was aborted" };
		expect(isInterruptedMessage(interrupted)).toBe(true);
		expect(isInterruptedMessage(aborted)).toBe(false);
		const message: AssistantMessage = aborted;
		if (!isInterruptedMessage(message)) expectTypeOf(message).toEqualTypeOf<AssistantMessage>();
		else expectTypeOf(message.errorMessage).toEqualTypeOf<string>();
	});
});

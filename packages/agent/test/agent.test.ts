import type { AssistantMessage, ImageContent, Message } from "@keel/ai";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxText,
	fauxToolCall,
	registerFauxProvider,
} from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { toolPairingProblems } from "../../ai/test/helpers/tool-pairing.js";
import {
	ABORTED_TOOL_TEXT,
	Agent,
	type AgentEvent,
	type AgentMessage,
	NO_MODEL_TEXT,
	SKIPPED_FOR_STEERING_TEXT,
} from "../src/index.js";
import {
	controlledTool,
	describeEvents,
	echoTool,
	isSecondToolCallDelta,
	scriptedStreamFn,
	text,
	textOf,
	toolCallsCutShortStreamFn,
	user,
} from "./helpers.js";

let faux: FauxProviderRegistration;

beforeEach(() => {
	faux = registerFauxProvider();
});
afterEach(() => {
	faux.unregister();
});

function createAgent(options: ConstructorParameters<typeof Agent>[0] = {}): Agent {
	return new Agent({ ...options, initialState: { model: faux.getModel(), ...options.initialState } });
}

function roles(messages: AgentMessage[]): string[] {
	return messages.map((message) => (message as Message).role);
}

describe("Agent: prompt and state", () => {
	it("runs a prompt on the faux provider and keeps the transcript", async () => {
		faux.setResponses(["Hello there."]);
		const agent = createAgent({ initialState: { systemPrompt: "be nice" } });
		const events: AgentEvent[] = [];
		agent.subscribe((event) => {
			events.push(event);
		});
		await agent.prompt("hi");
		expect(roles(agent.state.messages)).toEqual(["user", "assistant"]);
		expect(textOf(agent.state.messages[1])).toBe("Hello there.");
		expect(agent.state.isStreaming).toBe(false);
		expect(agent.state.errorMessage).toBeUndefined();
		expect(describeEvents(events)).toEqual([
			"agent_start",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end:0",
			"agent_end",
		]);
		expect(faux.state.requests[0].context.systemPrompt).toBe("be nice");
	});

	it("builds a user message from text and images, and accepts messages", async () => {
		faux.setResponses(["one", "two", "three"]);
		const agent = createAgent();
		const image: ImageContent = { type: "image", data: "aGk=", mimeType: "image/png" };
		await agent.prompt("look", [image]);
		expect((agent.state.messages[0] as Message).content).toEqual([{ type: "text", text: "look" }, image]);
		await agent.prompt([user("a"), user("b")]);
		expect(agent.state.messages.slice(2).map(textOf)).toEqual(["a", "b", "two"]);
	});

	it("rejects a prompt that is not text, a message or messages, before starting a run", async () => {
		const agent = createAgent();
		await expect(agent.prompt(42 as unknown as string)).rejects.toThrow(
			"prompt() takes a string, a message with a role, or a non-empty array of messages; got number 42",
		);
		await expect(agent.prompt([])).rejects.toThrow("got an empty array");
		await expect(agent.prompt({ content: "no role" } as unknown as AgentMessage)).rejects.toThrow(
			'got {"content":"no role"}',
		);
		expect(agent.state.isStreaming).toBe(false);
		expect(faux.state.callCount).toBe(0);
	});

	it("rejects prompt() and continue() while running, with pi's texts", async () => {
		const slow = controlledTool("slow");
		faux.setResponses([fauxAssistantMessage(fauxToolCall("slow", {}, "s1")), "done"]);
		const agent = createAgent({ initialState: { tools: [slow.tool] } });
		const running = agent.prompt("go");
		await expect(agent.prompt("again")).rejects.toThrow(
			"Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.",
		);
		await expect(agent.continue()).rejects.toThrow(
			"Agent is already processing. Wait for completion before continuing.",
		);
		await slow.whenStarted(1);
		expect(agent.state.pendingToolCalls.has("s1")).toBe(true);
		slow.finish("s1");
		await running;
		expect(agent.state.pendingToolCalls.size).toBe(0);
	});

	it("sets errorMessage from a provider error and keeps the event tree", async () => {
		faux.setResponses([fauxAssistantMessage("", { stopReason: "error", errorMessage: "overloaded" })]);
		const agent = createAgent();
		const events: AgentEvent[] = [];
		agent.subscribe((event) => void events.push(event));
		await agent.prompt("hi");
		expect([agent.state.errorMessage, agent.state.streamingMessage]).toEqual(["overloaded", null]);
		// message_start shows the message as it was when streaming began (not failed yet, or already
		// failed when the provider failed before the loop read its first event).
		const lastFour = describeEvents(events).slice(-4);
		expect(lastFour[0]).toMatch(/^message_start:assistant/);
		expect(lastFour.slice(1)).toEqual(["message_end:assistant(error)", "turn_end:0", "agent_end"]);
	});

	it("fails clearly, without a network call, when no model was set", async () => {
		const agent = new Agent();
		expect(agent.state.model.id).toBe("unknown");
		await agent.prompt("hi");
		const last = agent.state.messages.at(-1) as AssistantMessage;
		expect([last.stopReason, last.errorMessage]).toEqual(["error", NO_MODEL_TEXT]);
		expect(agent.state.errorMessage).toBe(NO_MODEL_TEXT);
	});

	it("tracks the streaming message and clears it at the end", async () => {
		faux.setResponses(["a longer answer in several chunks"]);
		const agent = createAgent();
		const seen: string[] = [];
		agent.subscribe((event) => {
			if (event.type === "message_update") seen.push(textOf(agent.state.streamingMessage as AgentMessage));
		});
		await agent.prompt("hi");
		expect(seen.length).toBeGreaterThan(2);
		expect(seen.at(-1)).toBe("a longer answer in several chunks");
		expect(agent.state.streamingMessage).toBeNull();
	});
});

describe("Agent: messages are snapshots", () => {
	it("never changes an array read from state.messages; a new read sees the new messages", async () => {
		faux.setResponses(["one", "two", "three"]);
		const agent = createAgent();
		const seen: AgentMessage[][] = [];
		agent.subscribe((event) => {
			if (event.type === "message_end") seen.push(agent.state.messages);
		});
		await agent.prompt("a");
		await agent.prompt("b");
		expect(seen.map((messages) => messages.length)).toEqual([1, 2, 3, 4]);
		expect(new Set(seen).size).toBe(4);
		const before = agent.state.messages;
		await agent.prompt("c");
		expect(before).toHaveLength(4);
		expect(agent.state.messages).toHaveLength(6);
	});
});

describe("Agent: options reach the stream function", () => {
	it("forwards every run option, and maps thinking level off to no reasoning", async () => {
		faux.setResponses(["a", "b"]);
		const onPayload = vi.fn();
		const onResponse = vi.fn();
		const agent = createAgent({
			sessionId: "session-7",
			onPayload,
			onResponse,
			thinkingBudgets: { low: 1000 },
			transport: "sse",
			maxRetryDelayMs: 1234,
			getApiKey: (provider) => `key-for-${provider}`,
		});
		await agent.prompt("one");
		expect(faux.state.requests[0].options).toMatchObject({
			sessionId: "session-7",
			onPayload,
			onResponse,
			thinkingBudgets: { low: 1000 },
			transport: "sse",
			maxRetryDelayMs: 1234,
			apiKey: "key-for-faux",
		});
		expect((faux.state.requests[0].options as { reasoning?: string }).reasoning).toBeUndefined();
		agent.state.thinkingLevel = "high";
		agent.sessionId = "session-8";
		await agent.prompt("two");
		expect(faux.state.requests[1].options).toMatchObject({ reasoning: "high", sessionId: "session-8" });
	});

	it("has plain properties for state and run options; assigning tools or messages stores a copy", () => {
		const agent = createAgent();
		agent.transport = "websocket";
		agent.toolExecution = "sequential";
		agent.steeringMode = "all";
		agent.followUpMode = "all";
		agent.state.systemPrompt = "s";
		expect([agent.transport, agent.toolExecution, agent.steeringMode, agent.followUpMode]).toEqual([
			"websocket",
			"sequential",
			"all",
			"all",
		]);
		expect(agent.state.systemPrompt).toBe("s");
		const tools = [echoTool()];
		agent.state.tools = tools;
		tools.push(echoTool("other"));
		expect(agent.state.tools).toHaveLength(1);
		const messages = [user("x")];
		agent.state.messages = messages;
		messages.push(user("y"));
		expect(agent.state.messages.map(textOf)).toEqual(["x"]);
	});
});

describe("Agent: listeners", () => {
	it("awaits listeners in order and is idle only after the agent_end listeners finish", async () => {
		faux.setResponses(["ok"]);
		const agent = createAgent();
		const log: string[] = [];
		let release: () => void = () => {};
		const gate = new Promise<void>((resolve) => {
			release = resolve;
		});
		agent.subscribe(async (event) => {
			if (event.type !== "agent_end") return;
			log.push(`first:start streaming=${agent.state.isStreaming}`);
			await gate;
			log.push("first:end");
		});
		agent.subscribe((event, signal) => {
			if (event.type === "agent_end") log.push(`second signal=${signal instanceof AbortSignal}`);
		});
		let idle = false;
		const running = agent.prompt("hi").then(() => {
			idle = true;
		});
		while (log.length === 0) await new Promise((resolve) => setImmediate(resolve));
		expect(idle).toBe(false);
		expect(agent.state.isStreaming).toBe(true);
		release();
		await running;
		expect(log).toEqual(["first:start streaming=true", "first:end", "second signal=true"]);
		expect(agent.state.isStreaming).toBe(false);
	});

	it("is already running when the first listener is called", async () => {
		faux.setResponses(["ok"]);
		const agent = createAgent();
		let nested: Promise<void> | undefined;
		let idleResolvedEarly = false;
		agent.subscribe((event) => {
			if (event.type !== "agent_start") return;
			nested = agent.prompt("again");
			// Observed at once so the rejection is not reported as unhandled before the test awaits it.
			nested.catch(() => {});
			void agent.waitForIdle().then(() => {
				idleResolvedEarly = agent.state.isStreaming;
			});
		});
		await agent.prompt("hi");
		await expect(nested).rejects.toThrow("Agent is already processing a prompt.");
		expect(idleResolvedEarly).toBe(false);
		expect(agent.state.messages.map(textOf)).toEqual(["hi", "ok"]);
	});

	it("unsubscribes, and isolates a listener that throws", async () => {
		faux.setResponses(["a", "b"]);
		const errors: string[] = [];
		const agent = createAgent({ onListenerError: (error, event) => errors.push(`${event.type}:${String(error)}`) });
		let calls = 0;
		const unsubscribe = agent.subscribe(() => {
			calls++;
		});
		agent.subscribe((event) => {
			if (event.type === "agent_start") throw new Error("bad listener");
		});
		await agent.prompt("one");
		const afterFirst = calls;
		unsubscribe();
		await agent.prompt("two");
		expect(calls).toBe(afterFirst);
		expect(errors).toEqual(["agent_start:Error: bad listener", "agent_start:Error: bad listener"]);
		expect(roles(agent.state.messages)).toEqual(["user", "assistant", "user", "assistant"]);
	});
});

describe("Agent: queues", () => {
	it("steer() during a tool skips the remaining calls and is heard before the next call", async () => {
		const agent = createAgent({ toolExecution: "sequential" });
		const typing = {
			...echoTool("typing"),
			execute: async () => {
				agent.steer(user("change of plan"));
				return { content: [{ type: "text" as const, text: "typed" }], details: {} };
			},
		};
		agent.state.tools = [typing, echoTool()];
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("typing", { value: "1" }, "c1"), fauxToolCall("echo", { value: "2" }, "c2")]),
			"understood",
		]);
		await agent.prompt("go");
		expect(agent.state.messages.map(textOf)).toEqual([
			"go",
			"",
			"typed",
			SKIPPED_FOR_STEERING_TEXT,
			"change of plan",
			"understood",
		]);
		expect(agent.hasQueuedMessages()).toBe(false);
	});

	it("takes one follow-up per poll in one-at-a-time mode and all of them in all mode", async () => {
		for (const mode of ["one-at-a-time", "all"] as const) {
			faux.setResponses(["r1", "r2", "r3"]);
			const agent = createAgent({ followUpMode: mode });
			agent.followUp(user("f1"));
			agent.followUp(user("f2"));
			expect(agent.hasQueuedMessages()).toBe(true);
			await agent.prompt("start");
			const texts = agent.state.messages.map(textOf);
			if (mode === "one-at-a-time") expect(texts).toEqual(["start", "r1", "f1", "r2", "f2", "r3"]);
			else expect(texts).toEqual(["start", "r1", "f1", "f2", "r2"]);
			faux.setResponses([]);
		}
	});

	it("clears the queues", () => {
		const agent = createAgent();
		agent.steer(user("s"));
		agent.followUp(user("f"));
		agent.clearSteeringQueue();
		expect(agent.hasQueuedMessages()).toBe(true);
		agent.clearFollowUpQueue();
		expect(agent.hasQueuedMessages()).toBe(false);
		agent.steer(user("s"));
		agent.followUp(user("f"));
		agent.clearAllQueues();
		expect(agent.hasQueuedMessages()).toBe(false);
	});
});

describe("Agent: continue, abort, reset", () => {
	it("continue() rejects with pi's texts when there is nothing to run", async () => {
		const agent = createAgent();
		await expect(agent.continue()).rejects.toThrow("No messages to continue from");
		faux.setResponses(["answer"]);
		await agent.prompt("hi");
		await expect(agent.continue()).rejects.toThrow("Cannot continue from message role: assistant");
	});

	it("continue() runs from a user message, and runs queued steering after an assistant message", async () => {
		const agent = createAgent();
		agent.state.messages = [user("left here")];
		faux.setResponses(["resumed", "steered answer", "second answer"]);
		await agent.continue();
		expect(agent.state.messages.map(textOf)).toEqual(["left here", "resumed"]);
		agent.steer(user("now this"));
		agent.steer(user("and this"));
		await agent.continue();
		// One-at-a-time: continue() takes the first message (no second poll before the first turn);
		// the poll after that turn takes the second.
		expect(agent.state.messages.map(textOf).slice(2)).toEqual([
			"now this",
			"steered answer",
			"and this",
			"second answer",
		]);
	});

	it("abort() ends a run whose tool ignores the signal, and the agent is idle", async () => {
		const stubborn = controlledTool("stubborn");
		faux.setResponses([fauxAssistantMessage(fauxToolCall("stubborn", {}, "s1")), "never used"]);
		const agent = createAgent({ initialState: { tools: [stubborn.tool] } });
		const running = agent.prompt("go");
		await stubborn.whenStarted(1);
		expect(agent.signal?.aborted).toBe(false);
		agent.abort();
		await running;
		expect(agent.state.isStreaming).toBe(false);
		expect(agent.signal).toBeUndefined();
		const toolResult = agent.state.messages.find((message) => (message as Message).role === "toolResult");
		expect(textOf(toolResult as AgentMessage)).toBe(ABORTED_TOOL_TEXT);
		expect((agent.state.messages.at(-1) as AssistantMessage).stopReason).toBe("aborted");
		expect(faux.getPendingResponseCount()).toBe(1);
		agent.abort();
		await agent.waitForIdle();
	});

	it("abort() while tool calls stream: the transcript ends with their not-run results, and continue() sends every API a valid conversation", async () => {
		const agent = createAgent({ initialState: { tools: [echoTool()] }, streamFn: toolCallsCutShortStreamFn(true) });
		agent.subscribe((event) => {
			if (isSecondToolCallDelta(event)) agent.abort();
		});
		await agent.prompt("go");
		expect(roles(agent.state.messages)).toEqual(["user", "assistant", "toolResult", "toolResult"]);
		expect(agent.state.errorMessage).toBe("Request was aborted");
		expect(agent.state.pendingToolCalls.size).toBe(0);

		const next = scriptedStreamFn([{ blocks: [text("trying again")] }]);
		agent.streamFn = next;
		await agent.continue();
		expect(toolPairingProblems(next.calls[0].context)).toEqual([]);
		expect(textOf(agent.state.messages.at(-1) as AgentMessage)).toBe("trying again");
	});

	it("reset() during a run throws and leaves the running transcript alone", async () => {
		const slow = controlledTool();
		faux.setResponses([fauxAssistantMessage(fauxToolCall("slow", {}, "call_1")), fauxAssistantMessage("done")]);
		const agent = createAgent({ initialState: { tools: [slow.tool] } });
		const running = agent.prompt("hi");
		await slow.whenStarted(1);
		expect(() => agent.reset()).toThrow(
			"agent.reset() cannot run while the agent is processing: call abort() and await waitForIdle() first",
		);
		slow.finish("call_1");
		await running;
		expect(roles(agent.state.messages)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		agent.reset();
		expect(agent.state.messages).toEqual([]);
	});

	it("reset() clears the transcript, the error and the queues", async () => {
		faux.setResponses([fauxAssistantMessage([fauxText("x")], { stopReason: "error", errorMessage: "bad" })]);
		const agent = createAgent();
		await agent.prompt("hi");
		agent.followUp(user("later"));
		agent.reset();
		expect([agent.state.messages.length, agent.state.errorMessage, agent.hasQueuedMessages()]).toEqual([
			0,
			undefined,
			false,
		]);
	});
});

describe("Agent: steering in both queue modes and both tool modes", () => {
	for (const toolExecution of ["sequential", "parallel"] as const) {
		for (const steeringMode of ["one-at-a-time", "all"] as const) {
			it(`${steeringMode}, ${toolExecution}: every steering message is heard exactly once`, async () => {
				const agent = new Agent({ initialState: { model: faux.getModel() }, toolExecution, steeringMode });
				const typing = {
					...echoTool("typing"),
					execute: async () => {
						agent.steer(user("s1"));
						agent.steer(user("s2"));
						return { content: [{ type: "text" as const, text: "typed" }], details: {} };
					},
				};
				agent.state.tools = [typing, echoTool()];
				faux.setResponses([
					fauxAssistantMessage([
						fauxToolCall("typing", { value: "1" }, "c1"),
						fauxToolCall("echo", { value: "2" }, "c2"),
					]),
					"a1",
					"a2",
					"a3",
				]);
				await agent.prompt("go");
				// The second call is skipped in sequential mode; in parallel mode it already ran with the first.
				const second = toolExecution === "sequential" ? SKIPPED_FOR_STEERING_TEXT : "echo:2";
				const expected =
					steeringMode === "all"
						? ["go", "", "typed", second, "s1", "s2", "a1"]
						: ["go", "", "typed", second, "s1", "a1", "s2", "a2"];
				expect(agent.state.messages.map(textOf)).toEqual(expected);
				expect(agent.hasQueuedMessages()).toBe(false);
			});
		}
	}
});

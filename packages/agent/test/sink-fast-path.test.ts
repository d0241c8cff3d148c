// The per-turn path awaits a sink's result only when it is a promise. These tests pin that this
// shortcut changes nothing a consumer can see: a promise still holds the loop until it settles,
// wherever it is returned, and the event tree is the same for synchronous and asynchronous sinks.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
	Agent,
	type AgentEvent,
	type AgentEventSink,
	type AgentLoopConfig,
	defaultConvertToLlm,
	runAgentLoop,
} from "../src/index.js";
import { ABORTED, AbortWatch } from "../src/user-code.js";
import { call, describeEvents, echoTool, scriptedStreamFn, testModel, text, user } from "./helpers.js";

function scriptedRun() {
	return scriptedStreamFn([
		{ blocks: [text("calling"), call("echo", { value: "a" }, "c1"), call("echo", { value: "b" }, "c2")] },
		{ blocks: [call("echo", { value: "c" }, "c3")] },
		{ blocks: [text("done")] },
	]);
}

async function runWith(emit: AgentEventSink, toolExecution: AgentLoopConfig["toolExecution"]): Promise<void> {
	// A steering message arrives after the first poll, so the steering branch runs too.
	let polls = 0;
	const config: AgentLoopConfig = {
		model: testModel,
		convertToLlm: defaultConvertToLlm,
		toolExecution,
		getSteeringMessages: () => (++polls === 3 ? [user("also this")] : []),
	};
	await runAgentLoop(
		[user("hi")],
		{ systemPrompt: "", messages: [], tools: [echoTool()] },
		config,
		emit,
		undefined,
		scriptedRun(),
	);
}

/** Settles after a few microtasks: long enough that an event emitted without waiting would overtake it. */
async function slowAcknowledgement(): Promise<void> {
	for (let tick = 0; tick < 10; tick++) await null;
}

describe("event sink results", () => {
	for (const toolExecution of ["sequential", "parallel"] as const) {
		it(`waits for every promise a sink returns, mixed with plain returns (${toolExecution})`, async () => {
			const synchronous: AgentEvent[] = [];
			await runWith((event) => {
				synchronous.push(event);
			}, toolExecution);

			const asynchronous: AgentEvent[] = [];
			let pending = false;
			let overtaken = 0;
			await runWith((event) => {
				if (pending) overtaken++;
				asynchronous.push(event);
				// Every other event answers with a promise: both the plain and the promise path run at
				// every emission point (message start/update/end, tool start/end, results, turn end).
				if (asynchronous.length % 2 === 0) return;
				pending = true;
				return slowAcknowledgement().then(() => {
					pending = false;
				});
			}, toolExecution);

			expect(overtaken).toBe(0);
			expect(describeEvents(asynchronous)).toEqual(describeEvents(synchronous));
			expect(asynchronous.filter((event) => event.type === "message_update")).toHaveLength(
				synchronous.filter((event) => event.type === "message_update").length,
			);
			expect(describeEvents(synchronous)).toContain("message_start:user");
			expect(describeEvents(synchronous).filter((entry) => entry.startsWith("tool_execution_end"))).toHaveLength(3);
		});
	}

	it("accepts a sink that returns a value other than a promise", async () => {
		const events: AgentEvent[] = [];
		// Array.prototype.push returns the new length: a truthy value that is not a promise (the types
		// forbid it, a JavaScript caller may still pass such a sink).
		const countingSink = ((event: AgentEvent) => events.push(event)) as unknown as AgentEventSink;
		await runWith(countingSink, "parallel");
		expect(events[0].type).toBe("agent_start");
		expect(events[events.length - 1].type).toBe("agent_end");
	});
});

describe("AbortWatch", () => {
	afterEach(() => {
		vi.useRealTimers();
	});

	it("settles like the raced promise, value or rejection", async () => {
		const watch = new AbortWatch(new AbortController().signal, 0);
		await expect(watch.race(Promise.resolve("value"))).resolves.toBe("value");
		await expect(watch.race(Promise.reject(new Error("tool failed")))).rejects.toThrow("tool failed");
		await expect(watch.race("plain")).resolves.toBe("plain");
		watch.dispose();
	});

	it("ends a wait on a promise that never settles once the signal aborts, after the grace period", async () => {
		vi.useFakeTimers();
		const controller = new AbortController();
		const watch = new AbortWatch(controller.signal, 100);
		let outcome: unknown = "waiting";
		void watch.race(new Promise(() => {})).then((value) => {
			outcome = value;
		});
		controller.abort();
		await vi.advanceTimersByTimeAsync(99);
		expect(outcome).toBe("waiting");
		await vi.advanceTimersByTimeAsync(1);
		expect(outcome).toBe(ABORTED);
		watch.dispose();
	});

	it("answers at once when the signal had already aborted, and a late rejection stays handled", async () => {
		const controller = new AbortController();
		controller.abort();
		const watch = new AbortWatch(controller.signal, 0);
		let rejectLater!: (error: Error) => void;
		const late = new Promise<never>((_resolve, reject) => {
			rejectLater = reject;
		});
		await expect(watch.race(late)).resolves.toBe(ABORTED);
		// Vitest fails the run on an unhandled rejection, so this pins that the watch handled it.
		rejectLater(new Error("late"));
		await slowAcknowledgement();
		watch.dispose();
	});

	it("stops listening after dispose: a later abort changes nothing and starts no timer", async () => {
		vi.useFakeTimers();
		const controller = new AbortController();
		const watch = new AbortWatch(controller.signal, 100);
		watch.dispose();
		controller.abort();
		expect(vi.getTimerCount()).toBe(0);
	});
});

describe("Agent listeners", () => {
	it("a listener added during an event gets the later events only; one removed gets no later event", async () => {
		const agent = new Agent({
			initialState: { model: testModel, tools: [echoTool()] },
			streamFn: scriptedStreamFn([{ blocks: [call("echo", { value: "a" }, "c1")] }, { blocks: [text("done")] }]),
		});
		const late: string[] = [];
		const early: string[] = [];
		let unsubscribeEarly: () => void = () => {};
		agent.subscribe((event) => {
			if (event.type === "turn_start" && late.length === 0) {
				agent.subscribe((lateEvent) => {
					late.push(lateEvent.type);
				});
			}
			if (event.type === "tool_execution_end") unsubscribeEarly();
		});
		unsubscribeEarly = agent.subscribe((event) => {
			early.push(event.type);
		});
		await agent.prompt("go");
		// Added while turn_start was dispatched: it does not see that turn_start, but sees the rest.
		expect(late[0]).toBe("message_start");
		expect(late[late.length - 1]).toBe("agent_end");
		expect(late.filter((type) => type === "turn_start")).toHaveLength(1);
		// Removed while tool_execution_end was dispatched: the listeners of an event are fixed when it
		// starts, so that event still reaches it, and nothing after it does.
		expect(early[early.length - 1]).toBe("tool_execution_end");
		expect(early).toContain("message_start");
	});
});

import { registerFauxProvider } from "@keel/ai/testing";
import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../src/index.js";
import { bindSession, createMemoryTranscriptStore, resumeAgent, Session } from "../src/session/index.js";
import { describeMessages, userMessage } from "./session-helpers.js";

const faux = registerFauxProvider({ api: "faux-session-queues" });
afterEach(() => {
	faux.setResponses([]);
	faux.state.requests.length = 0;
});

function userTexts(agent: Agent): string[] {
	return describeMessages(agent.state.messages.filter((message) => message.role === "user")).map((line) =>
		line.slice("user: ".length),
	);
}

describe("queue priority", () => {
	it("delivers steering before follow-ups, and a higher priority first within a queue", async () => {
		faux.setResponses(["a", "b", "c", "d"]);
		const agent = new Agent({ initialState: { model: faux.getModel() } });
		agent.followUp(userMessage("follow-up, normal"));
		agent.followUp(userMessage("follow-up, urgent"), { priority: 5 });
		agent.steer(userMessage("steer, normal"));
		agent.steer(userMessage("steer, urgent"), { priority: 1 });
		await agent.prompt("start");
		expect(userTexts(agent)).toEqual([
			"start",
			"steer, urgent",
			"steer, normal",
			"follow-up, urgent",
			"follow-up, normal",
		]);
	});

	it("rejects a priority that is not a finite number", () => {
		const agent = new Agent();
		expect(() => agent.steer(userMessage("x"), { priority: Number.NaN })).toThrow(
			"Queue priority must be a finite number",
		);
	});
});

describe("queue deduplication", () => {
	it("coalesces the same input submitted while the first is still queued; it is delivered once", async () => {
		faux.setResponses(["a", "b", "c"]);
		const agent = new Agent({ initialState: { model: faux.getModel() } });
		expect(agent.followUp(userMessage("run the tests"))).toBe(true);
		expect(agent.followUp(userMessage("run the tests"))).toBe(false);
		expect(agent.steer(userMessage("run the tests"))).toBe(false);
		await agent.prompt("start");
		expect(userTexts(agent)).toEqual(["start", "run the tests"]);
		// Once delivered, the same input may be queued again.
		expect(agent.followUp(userMessage("run the tests"))).toBe(true);
	});

	it("queues duplicates when deduplicateQueuedMessages is false", async () => {
		faux.setResponses(["a", "b", "c"]);
		const agent = new Agent({ initialState: { model: faux.getModel() }, deduplicateQueuedMessages: false });
		agent.followUp(userMessage("again"));
		expect(agent.followUp(userMessage("again"))).toBe(true);
		await agent.prompt("start");
		expect(userTexts(agent)).toEqual(["start", "again", "again"]);
	});
});

describe("queued messages in a session", () => {
	it("survive a restart and are each delivered exactly once after resume", async () => {
		const store = createMemoryTranscriptStore();
		const session = await Session.create(store);
		const first = new Agent({ initialState: { model: faux.getModel() }, store: bindSession(session) });
		first.followUp(userMessage("pending follow-up"));
		first.steer(userMessage("pending steering"), { priority: 2 });
		first.followUp(userMessage("dropped"));
		first.followUp(userMessage("dropped too"));
		first.clearFollowUpQueue();
		first.followUp(userMessage("pending follow-up"));
		await session.close();

		const reopened = await Session.open(store, session.id);
		expect(reopened.pendingQueueItems().map((item) => [item.queue, item.priority, item.message])).toEqual([
			["steering", 2, expect.objectContaining({ content: "pending steering" })],
			["followUp", 0, expect.objectContaining({ content: "pending follow-up" })],
		]);
		faux.setResponses(["a", "b"]);
		const resumed = await resumeAgent(reopened, { initialState: { model: faux.getModel() } });
		await resumed.prompt("start");
		expect(userTexts(resumed)).toEqual(["start", "pending steering", "pending follow-up"]);
		expect(reopened.pendingQueueItems()).toEqual([]);
		await reopened.close();

		const again = await Session.open(store, session.id);
		expect(again.pendingQueueItems()).toEqual([]);
		const againAgent = await resumeAgent(again, { initialState: { model: faux.getModel() } });
		expect(againAgent.hasQueuedMessages()).toBe(false);
		expect(userTexts(againAgent)).toEqual(["start", "pending steering", "pending follow-up"]);
		await again.close();
	});
});

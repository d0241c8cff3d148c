// A paused approval run in a session's tree: its calls wait for a decision, so the session's
// tool-pairing repair (the "interrupted" results it writes for calls left without a result) must not
// touch them — not on append, fork or compaction — and a paused run belongs to its branch.
import { fauxAssistantMessage, fauxToolCall, registerFauxProvider } from "@keel/ai/testing";
import { afterEach, describe, expect, it } from "vitest";
import { Agent, type AgentMessage } from "../src/index.js";
import { bindSession, createMemoryTranscriptStore, Session } from "../src/session/index.js";
import { INTERRUPTED_TOOL_TEXT } from "../src/session/tool-result-pairing.js";
import { textOf } from "./helpers.js";
import { describeMessages, userMessage } from "./session-helpers.js";
import { answeringTool } from "./tool-approval-fixtures.js";

const faux = registerFauxProvider({ api: "faux-approval-branches" });
const summariser = registerFauxProvider({ api: "faux-approval-summariser" });
afterEach(() => {
	for (const registration of [faux, summariser]) {
		registration.setResponses([]);
		registration.state.requests.length = 0;
	}
});

const pausingAnswer = () =>
	fauxAssistantMessage([
		fauxToolCall("read", { value: "a" }, "call-a"),
		fauxToolCall("write", { value: "b" }, "call-b"),
	]);

function agentFor(session: Session) {
	const read = answeringTool("read");
	const write = answeringTool("write", true);
	const agent = new Agent({
		store: bindSession(session, { compaction: false }),
		initialState: { model: faux.getModel(), tools: [read, write] },
	});
	return { agent, read, write };
}

/** Every message of every branch of the session, for checking that no interrupted result was written. */
function everyMessage(session: Session): AgentMessage[] {
	return session.branches().flatMap((branch) => session.messages(branch.leafId));
}

function interruptedResults(session: Session): string[] {
	return everyMessage(session)
		.filter((message) => message.role === "toolResult" && textOf(message) === INTERRUPTED_TOOL_TEXT)
		.map((message) => (message as { toolCallId: string }).toolCallId);
}

describe("a paused approval run in the session's tree", () => {
	it("appending another message is refused while calls wait, instead of closing them", async () => {
		const session = await Session.create(createMemoryTranscriptStore());
		const { agent } = agentFor(session);
		faux.setResponses([pausingAnswer()]);
		await agent.prompt("go");
		expect(session.pausedToolRun()?.calls.map((call) => call.status)).toEqual(["done", "pending"]);

		await expect(session.append(userMessage("something else"))).rejects.toThrow(
			`Cannot append a user message in session ${session.id}: tool calls wait for approval ("call-b"); approve or deny them`,
		);
		expect(interruptedResults(session)).toEqual([]);
		expect(session.pausedToolRun()).toBeDefined();
	});

	it("forking at the paused message keeps the calls pending; forking away leaves the run on its branch, switching back resumes it", async () => {
		const session = await Session.create(createMemoryTranscriptStore());
		const { agent, read, write } = agentFor(session);
		faux.setResponses([pausingAnswer()]);
		await agent.prompt("go");
		const pausedLeaf = session.leafId as string;

		await agent.fork(pausedLeaf);
		expect(agent.pendingApprovals.map((request) => request.toolCallId)).toEqual(["call-b"]);
		expect(session.leafId).toBe(pausedLeaf);

		// Away: a new conversation, with no approval waiting in it, until it pauses on its own.
		await agent.fork(null);
		expect(agent.pendingApprovals).toEqual([]);
		expect(session.pausedToolRun()).toBeUndefined();
		faux.setResponses([fauxAssistantMessage([fauxToolCall("write", { value: "x" }, "call-x")])]);
		await agent.prompt("another question");
		expect(agent.pendingApprovals.map((request) => request.toolCallId)).toEqual(["call-x"]);
		const otherLeaf = session.leafId as string;

		// Back: the run waits where it paused, with the ungated result it held.
		await agent.switchBranch(pausedLeaf);
		expect(agent.pendingApprovals.map((request) => request.toolCallId)).toEqual(["call-b"]);
		faux.setResponses([fauxAssistantMessage("done")]);
		await agent.approve("call-b");
		expect(read.runs).toEqual(["call-a"]);
		expect(write.runs).toEqual(["call-b"]);
		expect(
			session.messages().map((message) => (message.role === "toolResult" ? textOf(message) : message.role)),
		).toEqual(["user", "assistant", "read:a", "write:b", "assistant"]);
		expect(interruptedResults(session)).toEqual([]);

		// The later pause on the other branch was not replaced by this one, nor this one by it.
		await agent.switchBranch(otherLeaf);
		expect(agent.pendingApprovals.map((request) => request.toolCallId)).toEqual(["call-x"]);
		faux.setResponses([fauxAssistantMessage("x written")]);
		await agent.approve("call-x");
		expect(write.runs).toEqual(["call-b", "call-x"]);
		expect(describeMessages(agent.state.messages).at(-1)).toBe("assistant: x written");
		expect(interruptedResults(session)).toEqual([]);
	});

	it("compaction is refused while calls wait; a run that paused after a compaction resumes from the compacted context", async () => {
		const store = createMemoryTranscriptStore();
		const session = await Session.create(store);
		const { agent } = agentFor(session);
		faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
		await agent.prompt("first");
		await agent.prompt("second");
		summariser.setResponses([fauxAssistantMessage("Two questions were answered.")]);
		await agent.compact({ model: summariser.getModel(), keepRecentMessages: 1 });
		faux.setResponses([pausingAnswer()]);
		await agent.prompt("go");

		const branchBefore = session.branch().length;
		await expect(agent.compact({ model: summariser.getModel(), keepRecentMessages: 1 })).rejects.toThrow(
			"Cannot compact in session",
		);
		expect(summariser.state.requests).toHaveLength(1);
		expect(session.branch()).toHaveLength(branchBefore);
		await session.close();

		// A restart: the paused run comes back from the session, over the compacted context.
		const reopened = await Session.open(store, session.id);
		const { agent: restarted, write } = agentFor(reopened);
		expect(restarted.pendingApprovals.map((request) => request.toolCallId)).toEqual(["call-b"]);
		expect(describeMessages(restarted.state.messages)[0]).toMatch(/^summary/);
		faux.setResponses([fauxAssistantMessage("finished")]);
		await restarted.deny("call-b", "not now");
		expect(write.runs).toEqual([]);
		const sent = faux.state.requests.at(-1)?.context.messages ?? [];
		expect(sent.filter((message) => message.role === "toolResult").map((message) => textOf(message))).toEqual([
			"read:a",
			"Tool call was denied: not now",
		]);
		expect(interruptedResults(reopened)).toEqual([]);
	});

	it("a sequential batch paused in a session keeps the results written before the pause, and resumes after a reopen", async () => {
		const store = createMemoryTranscriptStore();
		const session = await Session.create(store);
		const first = new Agent({
			store: bindSession(session, { compaction: false }),
			toolExecution: "sequential",
			initialState: { model: faux.getModel(), tools: [answeringTool("read"), answeringTool("write", true)] },
		});
		faux.setResponses([
			fauxAssistantMessage([
				fauxToolCall("read", { value: "a" }, "call-a"),
				fauxToolCall("write", { value: "b" }, "call-b"),
				fauxToolCall("read", { value: "c" }, "call-c"),
			]),
		]);
		await first.prompt("go");
		expect(session.pausedToolRun()?.calls.map((call) => call.status)).toEqual(["recorded", "pending", "not-started"]);
		await session.close();

		const reopened = await Session.open(store, session.id);
		const read = answeringTool("read");
		const write = answeringTool("write", true);
		const agent = new Agent({
			store: bindSession(reopened, { compaction: false }),
			toolExecution: "sequential",
			initialState: { model: faux.getModel(), tools: [read, write] },
		});
		expect(agent.pendingApprovals.map((request) => request.toolCallId)).toEqual(["call-b"]);
		faux.setResponses([fauxAssistantMessage("done")]);
		await agent.approve("call-b");
		expect(read.runs).toEqual(["call-c"]);
		expect(write.runs).toEqual(["call-b"]);
		expect(reopened.messages().flatMap((message) => (message.role === "toolResult" ? [textOf(message)] : []))).toEqual([
			"read:a",
			"write:b",
			"read:c",
		]);
		expect(interruptedResults(reopened)).toEqual([]);
	});
});

import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../src/index.js";
import { createMemoryTranscriptStore, INTERRUPTED_TOOL_TEXT, Session } from "../src/session/index.js";
import { assistantMessage, createTestSession, describeMessages, toolResult, userMessage } from "./session-helpers.js";

describe("messages with identity", () => {
	it("gives each message an id, its parent, the session id and a time; the chain survives reopening", async () => {
		const store = createMemoryTranscriptStore();
		const session = await createTestSession(store);
		const first = await session.append(userMessage("hello"));
		const second = await session.append(assistantMessage("hi"));
		expect(first.parentId).toBeNull();
		expect(second.parentId).toBe(first.id);
		expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
		expect(second.sessionId).toBe(session.id);
		expect(second.timestamp).toBeGreaterThan(0);
		expect(session.leafId).toBe(second.id);
		await session.close();

		const reopened = await Session.open(store, session.id);
		expect(reopened.branch().map((record) => record.id)).toEqual([first.id, second.id]);
		expect(describeMessages(reopened.messages())).toEqual(["user: hello", "assistant: hi"]);
		expect(reopened.idOf(reopened.messages()[1])).toBe(second.id);
		await reopened.close();
	});

	it("chains appends that are not awaited in call order", async () => {
		const session = await createTestSession();
		const records = await Promise.all([
			session.append(userMessage("a")),
			session.append(assistantMessage("b")),
			session.append(userMessage("c")),
		]);
		expect(records.map((record) => record.parentId)).toEqual([null, records[0].id, records[1].id]);
	});

	it("keeps progress beside the branch: stored, never on it, never a branch of its own", async () => {
		const session = await createTestSession();
		await session.append(userMessage("run it"));
		await session.append({ role: "progress", text: "50%", timestamp: Date.now() });
		const answer = await session.append(assistantMessage("done"));
		expect(describeMessages(session.messages())).toEqual(["user: run it", "assistant: done"]);
		expect(session.sideRecords().map((record) => record.message.role)).toEqual(["progress"]);
		expect(session.branches().map((branch) => branch.leafId)).toEqual([answer.id]);
	});

	it("stores the state; the last state record wins when reopened", async () => {
		const store = createMemoryTranscriptStore();
		const session = await Session.create(store, { state: { workingDirectory: "/tmp/a" } });
		await session.updateState({ currentTask: "write tests", permissionMode: "plan" });
		await session.updateState({ workingDirectory: "/tmp/b" });
		await session.close();
		const reopened = await Session.open(store, session.id);
		expect(reopened.state).toEqual({ workingDirectory: "/tmp/b", currentTask: "write tests", permissionMode: "plan" });
		await reopened.close();
	});
});

describe("tool calls and results", () => {
	it("refuses a tool result that answers no waiting call, naming the call", async () => {
		const session = await createTestSession();
		await session.append(userMessage("go"));
		await session.append(assistantMessage("", [{ id: "call_1", name: "echo" }]));
		await session.append(toolResult("call_1", "ok"));
		await expect(session.append(toolResult("call_1", "again"))).rejects.toThrow(
			'Cannot append the result of tool call "call_1"',
		);
		await expect(session.append(toolResult("call_9", "stray"))).rejects.toThrow("no tool call on the current branch");
	});

	it("closes calls left without a result with interrupted results before any other message", async () => {
		const session = await createTestSession();
		await session.append(userMessage("go"));
		await session.append(
			assistantMessage("", [
				{ id: "call_1", name: "echo" },
				{ id: "call_2", name: "echo" },
			]),
		);
		await session.append(toolResult("call_1", "ok"));
		await session.append(userMessage("never mind"));
		const messages = session.messages();
		expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "user"]);
		expect(messages[3]).toMatchObject({
			toolCallId: "call_2",
			isError: true,
			content: [{ text: INTERRUPTED_TOOL_TEXT }],
		});
	});
});

describe("tombstones", () => {
	it("reads the branch as if the hidden message were not there", async () => {
		const session = await createTestSession();
		await session.append(userMessage("one"));
		const noisy = await session.append(assistantMessage("oops"));
		await session.append(userMessage("two"));
		await session.tombstone(noisy.id, "wrong answer");
		expect(describeMessages(session.messages())).toEqual(["user: one", "user: two"]);
		expect(session.sideRecords()[0].message).toMatchObject({
			role: "tombstone",
			targetId: noisy.id,
			reason: "wrong answer",
		});
	});

	it("hides an assistant message's tool results with it, and refuses to hide a result alone", async () => {
		const session = await createTestSession();
		await session.append(userMessage("go"));
		const call = await session.append(assistantMessage("", [{ id: "call_1", name: "echo" }]));
		const result = await session.append(toolResult("call_1", "ok"));
		await session.append(assistantMessage("done"));
		await expect(session.tombstone(result.id)).rejects.toThrow("Cannot tombstone tool result");
		await session.tombstone(call.id);
		expect(describeMessages(session.messages())).toEqual(["user: go", "assistant: done"]);
	});

	it("moves the current leaf back when the leaf itself is hidden", async () => {
		const session = await createTestSession();
		const first = await session.append(userMessage("one"));
		const last = await session.append(assistantMessage("two"));
		await session.tombstone(last.id);
		expect(session.leafId).toBe(first.id);
		const next = await session.append(userMessage("three"));
		expect(next.parentId).toBe(first.id);
	});
});

describe("branches", () => {
	it("forks to edit an earlier prompt; both branches are listed, switchable, and survive reopening", async () => {
		const store = createMemoryTranscriptStore();
		const session = await createTestSession(store);
		await session.append(userMessage("intro"));
		const intro = await session.append(assistantMessage("hello"));
		await session.append(userMessage("what is 2+2?"));
		const oldAnswer = await session.append(assistantMessage("5"));

		await session.fork(intro.id);
		await session.append(userMessage("what is 2+3?"));
		const newAnswer = await session.append(assistantMessage("5, correct this time"));

		const branches = session.branches();
		expect(branches.map((branch) => [branch.leafId, branch.current, branch.length])).toEqual([
			[oldAnswer.id, false, 4],
			[newAnswer.id, true, 4],
		]);
		expect(describeMessages(session.messages())).toEqual([
			"user: intro",
			"assistant: hello",
			"user: what is 2+3?",
			"assistant: 5, correct this time",
		]);
		await session.switchBranch(oldAnswer.id);
		expect(describeMessages(session.messages()).slice(2)).toEqual(["user: what is 2+2?", "assistant: 5"]);
		await session.close();

		const reopened = await Session.open(store, session.id);
		expect(reopened.leafId).toBe(oldAnswer.id);
		expect(reopened.branches()).toHaveLength(2);
		await reopened.close();
	});

	it("forks from an assistant message with tool calls past its results, so the new branch stays paired", async () => {
		const session = await createTestSession();
		await session.append(userMessage("go"));
		const call = await session.append(assistantMessage("", [{ id: "call_1", name: "echo" }]));
		const result = await session.append(toolResult("call_1", "ok"));
		await session.append(assistantMessage("first try"));
		await session.fork(call.id);
		expect(session.leafId).toBe(result.id);
		await session.append(assistantMessage("second try"));
		for (const branch of session.branches()) {
			expect(session.messages(branch.leafId).map((message) => message.role)).toEqual([
				"user",
				"assistant",
				"toolResult",
				"assistant",
			]);
		}
	});

	it("answers the calls of a fork point that never got results, so every stored branch is valid", async () => {
		const session = await createTestSession();
		await session.append(userMessage("go"));
		const call = await session.append(assistantMessage("", [{ id: "call_1", name: "echo" }]));
		await session.fork(call.id);
		const messages = session.messages();
		expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(session.unansweredToolCalls()).toEqual([]);
	});

	it("starts a new root with fork(null)", async () => {
		const session = await createTestSession();
		await session.append(userMessage("old"));
		await session.fork(null);
		const root = await session.append(userMessage("fresh start"));
		expect(root.parentId).toBeNull();
		expect(session.branches()).toHaveLength(2);
	});

	it("says which message is missing when forking or switching to an unknown id", async () => {
		const session = await createTestSession();
		await expect(session.fork("nope")).rejects.toThrow(`Session ${session.id} has no message "nope"`);
		await expect(session.switchBranch("nope")).rejects.toThrow('has no message "nope"');
	});
});

describe("sidechains", () => {
	it("starts a sub-agent's transcript linked to the parent message, loadable on its own", async () => {
		const store = createMemoryTranscriptStore();
		const session = await createTestSession(store);
		await session.append(userMessage("research this"));
		const delegating = await session.append(assistantMessage("", [{ id: "task_1", name: "task" }]));
		const sidechain = await session.startSidechain(delegating.id, { title: "researcher" });
		await sidechain.append(userMessage("sub-task prompt"));
		await sidechain.close();

		const listed = (await store.list()).find((info) => info.sessionId === sidechain.id);
		expect(listed).toMatchObject({ parentSessionId: session.id, parentMessageId: delegating.id });
		const loaded = await Session.open(store, sidechain.id);
		expect(loaded.header).toMatchObject({ parentSessionId: session.id, parentMessageId: delegating.id });
		expect(describeMessages(loaded.messages())).toEqual(["user: sub-task prompt"]);
		await loaded.close();
	});
});

describe("a second writer", () => {
	it("cannot open a session another Session holds", async () => {
		const store = createMemoryTranscriptStore();
		const session = await createTestSession(store);
		await expect(Session.open(store, session.id)).rejects.toThrow();
		await session.close();
		const reopened = await Session.open(store, session.id);
		await reopened.close();
	});
});

// A type-level check: the session kinds are AgentMessage kinds once the session entry is imported.
const progressIsAgentMessage: AgentMessage = { role: "progress", text: "…", timestamp: 0 };
void progressIsAgentMessage;

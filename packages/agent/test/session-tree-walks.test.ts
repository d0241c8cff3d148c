// The session tree's walks: a branch read again after records are added (or after load: "context"
// swaps an outline for its full record) is the branch as it is now; tool results are paired over a
// long branch; compactions apply in turn; leaves with and without tombstones.
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../src/index.js";
import type { SessionMessageRecord } from "../src/session/index.js";
import { SessionTree } from "../src/session/session-tree.js";
import { assistantMessage, toolResult, userMessage } from "./session-helpers.js";

function record(id: string, parentId: string | null, message: unknown): SessionMessageRecord {
	return { v: 1, type: "message", sessionId: "walks", id, parentId, timestamp: 1, message: message as AgentMessage };
}

function user(id: string, parentId: string | null): SessionMessageRecord {
	return record(id, parentId, userMessage(id));
}

function tombstone(id: string, targetId: string): SessionMessageRecord {
	return record(id, null, { role: "tombstone", targetId, timestamp: 1 });
}

function summary(id: string, parentId: string): SessionMessageRecord {
	return record(id, parentId, { role: "summary", summary: id, summarisedMessageCount: 1, timestamp: 1 });
}

function boundary(id: string, parentId: string, summaryId: string, firstKeptMessageId?: string): SessionMessageRecord {
	return record(id, parentId, {
		role: "compact_boundary",
		summaryId,
		trigger: "manual",
		tokensBefore: 1,
		...(firstKeptMessageId === undefined ? {} : { firstKeptMessageId }),
		timestamp: 1,
	});
}

function treeOf(records: readonly SessionMessageRecord[]): SessionTree {
	const tree = new SessionTree();
	for (const entry of records) tree.add(entry);
	return tree;
}

const ids = (records: readonly SessionMessageRecord[]) => records.map((entry) => entry.id);

describe("a branch read again", () => {
	it("shows the messages and tombstones added since the last read", () => {
		const tree = treeOf([user("a", null), user("b", "a")]);
		expect(ids(tree.branch())).toEqual(["a", "b"]);
		expect(ids(tree.modelContext())).toEqual(["a", "b"]);
		tree.add(user("c", "b"));
		expect(ids(tree.branch())).toEqual(["a", "b", "c"]);
		tree.add(tombstone("t", "b"));
		expect(ids(tree.branch())).toEqual(["a", "c"]);
		expect(ids(tree.modelContext())).toEqual(["a", "c"]);
		expect(ids(tree.branch("b"))).toEqual(["a"]);
	});

	it("hands out the record a message has now, and a copy the caller may change", () => {
		const tree = treeOf([user("a", null), user("b", "a")]);
		const first = tree.branch();
		first.pop();
		const replaced = { ...(tree.messages.get("b") as SessionMessageRecord) };
		tree.messages.set("b", replaced);
		const again = tree.branch();
		expect(ids(again)).toEqual(["a", "b"]);
		expect(again[1]).toBe(replaced);
		expect(tree.modelContext()[1]).toBe(replaced);
	});
});

describe("tool results on a long branch", () => {
	it("keep the first answer to each call on the branch and drop the others", () => {
		const records: SessionMessageRecord[] = [];
		let parent: string | null = null;
		const push = (entry: SessionMessageRecord) => {
			records.push(entry);
			parent = entry.id;
		};
		const expected: string[] = [];
		for (let turn = 0; turn < 1_000; turn++) {
			push(user(`u${turn}`, parent));
			expected.push(`u${turn}`);
			if (turn % 4 === 0) {
				// Answered before its call is made: dropped; then the call and its answer, kept.
				push(record(`early${turn}`, parent, toolResult(`call${turn}`, "early")));
				push(record(`a${turn}`, parent, assistantMessage("", [{ id: `call${turn}`, name: "echo" }])));
				push(record(`r${turn}`, parent, toolResult(`call${turn}`, "ok")));
				expected.push(`a${turn}`, `r${turn}`);
			} else if (turn % 4 === 1) {
				// Answered twice: the second answer is dropped.
				push(record(`a${turn}`, parent, assistantMessage("", [{ id: `call${turn}`, name: "echo" }])));
				push(record(`r${turn}`, parent, toolResult(`call${turn}`, "ok")));
				push(record(`again${turn}`, parent, toolResult(`call${turn}`, "again")));
				expected.push(`a${turn}`, `r${turn}`);
			} else if (turn % 4 === 2) {
				// Its call is tombstoned below: the answer goes with it.
				push(record(`a${turn}`, parent, assistantMessage("", [{ id: `call${turn}`, name: "echo" }])));
				push(record(`r${turn}`, parent, toolResult(`call${turn}`, "ok")));
			} else {
				push(record(`a${turn}`, parent, assistantMessage("plain answer")));
				expected.push(`a${turn}`);
			}
		}
		const tree = treeOf(records);
		for (let turn = 2; turn < 1_000; turn += 4) tree.add(tombstone(`t${turn}`, `a${turn}`));
		expect(ids(tree.branch())).toEqual(expected);
		expect(ids(tree.modelContext())).toEqual(expected);
	});
});

describe("compactions on a branch", () => {
	it("apply in turn, each boundary cutting at its own summary and keeping from its first kept message", () => {
		const tree = treeOf([
			user("m1", null),
			user("m2", "m1"),
			user("m3", "m2"),
			summary("s1", "m3"),
			boundary("b1", "s1", "s1", "m3"),
			user("m4", "b1"),
			user("m5", "m4"),
			summary("s2", "m5"),
			boundary("b2", "s2", "s2", "m4"),
			user("m6", "b2"),
		]);
		expect(ids(tree.modelContext())).toEqual(["s2", "m4", "m5", "m6"]);
		expect(ids(tree.modelContext("m5"))).toEqual(["s1", "m3", "m4", "m5"]);
	});

	it("keep nothing from a first kept message that is not before the summary, and cut nothing without the summary", () => {
		const keepsNothing = treeOf([
			user("m1", null),
			summary("s1", "m1"),
			boundary("b1", "s1", "s1", "m2"),
			user("m2", "b1"),
		]);
		expect(ids(keepsNothing.modelContext())).toEqual(["s1", "m2"]);
		const noSummary = treeOf([user("m1", null), summary("s1", "m1"), user("m2", "s1"), boundary("b1", "m2", "other")]);
		expect(ids(noSummary.modelContext())).toEqual(["m1", "s1", "m2"]);
	});

	it("find a summary or first kept message that an earlier compaction kept, before the earlier boundary", () => {
		const keptBefore = treeOf([
			user("m1", null),
			user("m2", "m1"),
			user("m3", "m2"),
			summary("s1", "m3"),
			boundary("b1", "s1", "s1", "m2"),
			user("m4", "b1"),
			summary("s2", "m4"),
			boundary("b2", "s2", "s2", "m3"),
			user("m5", "b2"),
		]);
		expect(ids(keptBefore.modelContext())).toEqual(["s2", "m3", "m4", "m5"]);
		const earlierSummary = treeOf([
			user("m1", null),
			summary("s1", "m1"),
			boundary("b1", "s1", "s1", "m1"),
			user("m2", "b1"),
			boundary("b2", "m2", "s1"),
			user("m3", "b2"),
		]);
		expect(ids(earlierSummary.modelContext())).toEqual(["s1", "m1", "m2", "m3"]);
	});
});

describe("the leaves of a tree", () => {
	it("are the messages nothing follows, or with a tombstoned end, its nearest visible ancestor", () => {
		const tree = treeOf([user("a", null), user("b", "a"), user("c", "a"), user("d", "c")]);
		expect([...tree.leafIds()].sort()).toEqual(["b", "d"]);
		tree.add(tombstone("t", "d"));
		expect([...tree.leafIds()].sort()).toEqual(["b", "c"]);
		tree.add(tombstone("t2", "b"));
		expect([...tree.leafIds()].sort()).toEqual(["a", "c"]);
	});

	it("are found when a message's only child was appended after another branch's message", () => {
		const tree = treeOf([user("a", null), user("b", "a"), user("c", "a"), user("d", "b"), user("e", "c")]);
		expect([...tree.leafIds()].sort()).toEqual(["d", "e"]);
		expect(tree.childrenOf("a")).toEqual(["b", "c"]);
		expect(tree.childrenOf("b")).toEqual(["d"]);
		tree.add(user("f", "b"));
		expect(tree.childrenOf("b")).toEqual(["d", "f"]);
		expect([...tree.leafIds()].sort()).toEqual(["d", "e", "f"]);
	});
});

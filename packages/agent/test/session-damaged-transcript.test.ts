// A damaged transcript never silently shortens the conversation: resume keeps every readable
// message on its branch and lists, in session.damage, each line it skipped and each link it mended.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Session, type SessionMessageRecord } from "../src/session/index.js";
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";
import { header, userRecord } from "./session-fixtures.js";
import { userMessage } from "./session-helpers.js";

let directory: string;
beforeEach(() => {
	directory = mkdtempSync(join(tmpdir(), "keel-session-damage-"));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

const SESSION = "damaged";

/** m1 … m6, each following the one before: line 1 is the header, m<n> is on line n + 1. */
function chain(): SessionMessageRecord[] {
	return [1, 2, 3, 4, 5, 6].map((index) =>
		userRecord(SESSION, `m${index}`, index === 1 ? null : `m${index - 1}`, `m${index}`),
	);
}

function writeTranscript(lines: (object | string)[]): void {
	const text = [header(SESSION), ...lines].map((line) => (typeof line === "string" ? line : JSON.stringify(line)));
	writeFileSync(join(directory, `${SESSION}.jsonl`), `${text.join("\n")}\n`);
}

function texts(messages: readonly unknown[]): string[] {
	return messages.map((message) => {
		const content = (message as { content: string | { text: string }[] }).content;
		return typeof content === "string" ? content : content.map((block) => block.text).join("");
	});
}

function leafRecord(leafId: string | null): Record<string, unknown> {
	return { v: 1, type: "leaf", sessionId: SESSION, timestamp: 5_000, leafId };
}

describe.each(["all", "context"] as const)('resuming a damaged transcript (load: "%s")', (load) => {
	async function open(): Promise<Session> {
		return Session.open(createJsonlTranscriptStore({ directory }), SESSION, { load });
	}

	/** Appends m7, reopens, and returns the conversation the reopened session resumes. */
	async function appendAndReopen(session: Session): Promise<{ texts: string[]; m7: SessionMessageRecord }> {
		const m7 = await session.append(userMessage("m7"));
		await session.close();
		const reopened = await open();
		try {
			return { texts: texts(reopened.modelContext()), m7 };
		} finally {
			await reopened.close();
		}
	}

	it("a bad line in the middle skips only that line and reconnects the messages after it", async () => {
		const lines: (SessionMessageRecord | string)[] = chain();
		lines[2] = '{"v":1,"type":"message", this line is cut';
		writeTranscript(lines);
		const session = await open();
		expect(texts(session.modelContext())).toEqual(["m1", "m2", "m4", "m5", "m6"]);
		expect(session.damage.skippedLines).toEqual([expect.objectContaining({ line: 4, kind: "malformed" })]);
		expect(session.damage.repairs).toEqual([
			expect.objectContaining({
				kind: "missing-parent",
				line: 5,
				messageId: "m4",
				missingParentId: "m3",
				reconnectedTo: "m2",
			}),
		]);
		expect(session.damage.repairs[0].message).toContain('line 5: message "m4" names parent "m3"');
		const after = await appendAndReopen(session);
		expect(after.m7.parentId).toBe("m6");
		expect(after.texts).toEqual(["m1", "m2", "m4", "m5", "m6", "m7"]);
	});

	it("a parent id no line holds reconnects the message to the one before it", async () => {
		const lines = chain();
		lines[3].parentId = "ghost";
		writeTranscript(lines);
		const session = await open();
		expect(texts(session.modelContext())).toEqual(["m1", "m2", "m3", "m4", "m5", "m6"]);
		expect(session.damage.skippedLines).toEqual([]);
		expect(session.damage.repairs).toEqual([
			expect.objectContaining({
				kind: "missing-parent",
				line: 5,
				messageId: "m4",
				missingParentId: "ghost",
				reconnectedTo: "m3",
			}),
		]);
		const after = await appendAndReopen(session);
		expect(after.texts).toEqual(["m1", "m2", "m3", "m4", "m5", "m6", "m7"]);
	});

	it("a leaf record naming a missing message leaves the current branch where it was", async () => {
		writeTranscript([...chain(), leafRecord("ghost")]);
		const session = await open();
		expect(texts(session.modelContext())).toEqual(["m1", "m2", "m3", "m4", "m5", "m6"]);
		expect(session.leafId).toBe("m6");
		expect(session.damage.repairs).toEqual([
			expect.objectContaining({ kind: "missing-leaf", line: 8, missingLeafId: "ghost", keptLeafId: "m6" }),
		]);
		const after = await appendAndReopen(session);
		expect(after.m7.parentId).toBe("m6");
		expect(after.texts).toEqual(["m1", "m2", "m3", "m4", "m5", "m6", "m7"]);
	});

	it("a duplicate id keeps both messages; later lines naming it mean the newer one", async () => {
		const lines = chain();
		lines[3].id = "m2"; // m4 reuses m2's id; m5 names it as its parent.
		lines[4].parentId = "m2";
		writeTranscript(lines);
		const session = await open();
		expect(texts(session.modelContext())).toEqual(["m1", "m2", "m3", "m4", "m5", "m6"]);
		expect(session.damage.repairs).toEqual([
			expect.objectContaining({ kind: "duplicate-id", line: 5, messageId: "m2", renamedTo: "m2~line5" }),
		]);
		const after = await appendAndReopen(session);
		expect(after.texts).toEqual(["m1", "m2", "m3", "m4", "m5", "m6", "m7"]);
	});

	it("every message under one id still resumes the whole conversation", async () => {
		const lines = chain().map((line, index) => ({ ...line, id: "same", parentId: index === 0 ? null : "same" }));
		writeTranscript(lines);
		const session = await open();
		expect(texts(session.modelContext())).toEqual(["m1", "m2", "m3", "m4", "m5", "m6"]);
		expect(session.damage.repairs.map((repair) => repair.kind)).toEqual(Array(5).fill("duplicate-id"));
		const after = await appendAndReopen(session);
		expect(after.texts).toEqual(["m1", "m2", "m3", "m4", "m5", "m6", "m7"]);
	});

	it("a parent cycle is cut where a parent would come after its child: each message is sent once", async () => {
		const lines = chain();
		lines[1].parentId = "m3"; // m2 → m3 → m2: a loop
		writeTranscript(lines);
		const session = await open();
		expect(texts(session.modelContext())).toEqual(["m1", "m2", "m3", "m4", "m5", "m6"]);
		expect(session.damage.repairs).toEqual([
			expect.objectContaining({
				kind: "missing-parent",
				line: 3,
				messageId: "m2",
				missingParentId: "m3",
				reconnectedTo: "m1",
			}),
		]);
		const after = await appendAndReopen(session);
		expect(after.texts).toEqual(["m1", "m2", "m3", "m4", "m5", "m6", "m7"]);
	});

	it("a torn last line set aside on open is reported, and the messages before it resume", async () => {
		writeTranscript([...chain(), '{"v":1,"type":"message","sessionId":"dam']);
		const path = join(directory, `${SESSION}.jsonl`);
		writeFileSync(path, readFileSync(path, "utf8").trimEnd());
		const session = await open();
		expect(texts(session.modelContext())).toEqual(["m1", "m2", "m3", "m4", "m5", "m6"]);
		expect(session.damage.skippedLines).toEqual([expect.objectContaining({ kind: "torn-last-line" })]);
		expect(session.damage.skippedLines[0].message).toMatch(/had no newline: an append was cut short/);
		const after = await appendAndReopen(session);
		expect(after.texts).toEqual(["m1", "m2", "m3", "m4", "m5", "m6", "m7"]);
	});

	it("a sound transcript reports no damage", async () => {
		writeTranscript(chain());
		const session = await open();
		expect(session.damage).toEqual({ skippedLines: [], repairs: [] });
		await session.close();
		// Opening mended nothing in the file itself: the repairs are made on every open.
		expect(readFileSync(join(directory, `${SESSION}.jsonl`), "utf8").split("\n")).toHaveLength(8);
	});
});

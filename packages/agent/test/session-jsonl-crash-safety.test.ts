import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionMessageRecord } from "../src/session/index.js";
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";
import { header, userRecord } from "./session-fixtures.js";
import { startChild } from "./session-jsonl-child-process.js";

const CHILD_PROCESS_TEST_TIMEOUT_MS = 120_000;

let directory: string;
beforeEach(() => {
	directory = mkdtempSync(join(tmpdir(), "keel-session-crash-"));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function messageIds(records: { type: string }[]): string[] {
	return records.filter((record) => record.type === "message").map((record) => (record as SessionMessageRecord).id);
}

// Each case starts Node processes that load TypeScript through tsx: seconds each on a busy machine.
describe("a torn last line", { timeout: CHILD_PROCESS_TEST_TIMEOUT_MS }, () => {
	it("is reported by read, and every earlier record is returned", async () => {
		const store = createJsonlTranscriptStore({ directory });
		const writer = await store.openWriter("s1", { create: header("s1") });
		await writer.append([userRecord("s1", "u1", null, "one"), userRecord("s1", "u2", "u1", "two")]);
		await writer.close();
		appendFileSync(join(directory, "s1.jsonl"), '{"v":1,"type":"message","sessionId":"s1","id":"u3","par');

		const { records, problems } = await store.read("s1");
		expect(messageIds(records)).toEqual(["u1", "u2"]);
		expect(problems).toEqual([expect.objectContaining({ line: 4, kind: "torn-last-line" })]);
		const tail = await store.readTail("s1", { entries: 1 });
		expect(messageIds(tail.records)).toEqual(["u2"]);
		expect(tail.problems).toEqual([expect.objectContaining({ line: -1, kind: "torn-last-line" })]);
	});

	it("is set aside when a writer opens the session, so the next record starts on its own line", async () => {
		const store = createJsonlTranscriptStore({ directory });
		const first = await store.openWriter("s1", { create: header("s1") });
		await first.append(userRecord("s1", "u1", null, "one"));
		await first.close();
		const torn = '{"v":1,"type":"message","sessionId":"s1","id":"u2","parentId":"u1","mess';
		appendFileSync(join(directory, "s1.jsonl"), torn);

		const second = await store.openWriter("s1");
		expect(second.problems).toEqual([expect.objectContaining({ kind: "torn-last-line" })]);
		expect(second.problems[0].message).toMatch(/moved to s1\.jsonl\.torn-\d+/);
		await second.append(userRecord("s1", "u2", "u1", "two again"));
		await second.close();

		const { records, problems } = await store.read("s1");
		expect(problems).toEqual([]);
		expect(messageIds(records)).toEqual(["u1", "u2"]);
		const aside = readdirSync(directory).find((name) => name.startsWith("s1.jsonl.torn-"));
		expect(aside && readFileSync(join(directory, aside), "utf8")).toBe(torn);
	});
});

describe("killing the writing process with SIGKILL", () => {
	it("in the middle of a write leaves a torn line that the next writer sets aside, earlier records intact", async () => {
		const store = createJsonlTranscriptStore({ directory });
		let tornSeen = false;
		// A kill lands inside a write(2) when the file is seen growing; large records make that window
		// wide. The write may still complete before the kill, so up to five attempts are made.
		for (let attempt = 0; attempt < 5 && !tornSeen; attempt++) {
			const sessionId = `s${attempt}`;
			const child = startChild(["append-forever", directory, sessionId], { RECORD_BYTES: String(16 * 1024 * 1024) });
			await child.waitFor((line) => line === "appended 0");
			const path = join(directory, `${sessionId}.jsonl`);
			const sizeAfterFirst = statSync(path).size;
			const deadline = Date.now() + 20_000;
			while (statSync(path).size === sizeAfterFirst && Date.now() < deadline) await new Promise(setImmediate);
			child.process.kill("SIGKILL");
			await child.exited;

			const writer = await store.openWriter(sessionId);
			tornSeen = writer.problems.some((problem) => problem.kind === "torn-last-line");
			await writer.append(userRecord(sessionId, "after", "m0", "after the kill"));
			await writer.close();
			const { records, problems } = await store.read(sessionId);
			expect(problems).toEqual([]);
			const ids = messageIds(records);
			expect(ids[0]).toBe("m0");
			expect(ids.at(-1)).toBe("after");
		}
		expect(tornSeen).toBe(true);
	}, 120_000);

	it("loses at most the record being appended; reopening repairs the file and appends continue", async () => {
		const store = createJsonlTranscriptStore({ directory });
		let next = 0;
		for (let round = 0; round < 3; round++) {
			const child = startChild(["append-forever", directory, "s1"], {
				START: String(next),
				...(next > 0 ? { PARENT: `m${next - 1}` } : {}),
			});
			const target = next + 4;
			await child.waitFor((line) => line === `appended ${target}`);
			child.process.kill("SIGKILL");
			const { signal } = await child.exited;
			expect(signal).toBe("SIGKILL");
			const acknowledged = child.lines.filter((line) => line.startsWith("appended ")).length;

			// Whatever the kill left, reading gives a contiguous run of whole records.
			const { records, problems } = await store.read("s1");
			expect(problems.filter((problem) => problem.kind !== "torn-last-line")).toEqual([]);
			const ids = messageIds(records);
			expect(ids).toEqual(Array.from({ length: ids.length }, (_, index) => `m${index}`));
			expect(ids.length).toBeGreaterThanOrEqual(next + acknowledged);
			for (const record of records.filter((entry) => entry.type === "message") as SessionMessageRecord[]) {
				const [first] = (record.message as { content: { text: string }[] }).content;
				expect(first.text.startsWith(`${record.id.slice(1)}:`)).toBe(true);
			}
			next = ids.length;
		}
		// A writer opened after the last kill repairs any torn tail; the file ends on a whole line.
		const writer = await store.openWriter("s1");
		await writer.append(userRecord("s1", "after", `m${next - 1}`, "after the crashes"));
		await writer.close();
		const { records, problems } = await store.read("s1");
		expect(problems).toEqual([]);
		expect(messageIds(records).at(-1)).toBe("after");
		expect(readFileSync(join(directory, "s1.jsonl")).at(-1)).toBe(10);
		expect(statSync(join(directory, "s1.jsonl.lock"), { throwIfNoEntry: false })).toBeUndefined();
	}, 60_000);
});

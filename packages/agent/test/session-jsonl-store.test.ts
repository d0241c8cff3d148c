import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	InvalidSessionIdError,
	type SessionMessageRecord,
	SessionNotFoundError,
	SessionRecordError,
} from "../src/session/index.js";
import { createJsonlTranscriptStore, sessionIdFromFileName, transcriptFileName } from "../src/session/jsonl/index.js";
import { header, summaryRecord, userRecord } from "./session-fixtures.js";

let directory: string;
beforeEach(() => {
	directory = mkdtempSync(join(tmpdir(), "keel-session-store-"));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function ids(records: { type: string }[]): string[] {
	return records.filter((record) => record.type === "message").map((record) => (record as SessionMessageRecord).id);
}

async function sessionWith(
	store: ReturnType<typeof createJsonlTranscriptStore>,
	sessionId: string,
	count: number,
	text = "m",
) {
	const writer = await store.openWriter(sessionId, { create: header(sessionId) });
	for (let index = 0; index < count; index++) {
		await writer.append(userRecord(sessionId, `u${index}`, index === 0 ? null : `u${index - 1}`, `${text}${index}`));
	}
	await writer.close();
}

describe("the JSONL transcript store", () => {
	it("appends records as lines of one file per session and reads them back in order", async () => {
		const store = createJsonlTranscriptStore({ directory: join(directory, "nested", "sessions") });
		await sessionWith(store, "s1", 3, "ünïcødé ✓ ");
		const { records, problems } = await store.read("s1");
		expect(problems).toEqual([]);
		expect(records[0]).toEqual(header("s1"));
		expect(ids(records)).toEqual(["u0", "u1", "u2"]);
		expect((records[2] as SessionMessageRecord).message).toMatchObject({ content: [{ text: "ünïcødé ✓ 1" }] });
		// Beside the transcript, its outline index (a cache of each line's place and outline).
		expect(readdirSync(join(directory, "nested", "sessions"))).toEqual(["s1.jsonl", "s1.jsonl.outline"]);
	});

	it("refuses to open a missing session without create", async () => {
		const store = createJsonlTranscriptStore({ directory });
		await expect(store.openWriter("missing")).rejects.toBeInstanceOf(SessionNotFoundError);
		await expect(store.read("missing")).rejects.toBeInstanceOf(SessionNotFoundError);
		expect(existsSync(join(directory, "missing.jsonl"))).toBe(false);
		expect(existsSync(join(directory, "missing.jsonl.lock"))).toBe(false);
	});

	it("maps session ids to file names safely and refuses path traversal", async () => {
		const store = createJsonlTranscriptStore({ directory });
		for (const bad of ["../escape", "a/b", "a\\b", "..", "", "x".repeat(161), "tab\there"]) {
			await expect(store.openWriter(bad, { create: header(bad) })).rejects.toBeInstanceOf(InvalidSessionIdError);
		}
		await expect(store.read("../../etc/passwd")).rejects.toThrow(/path separators/);
		expect(transcriptFileName("user:42 ü")).toBe("user%3A42%20%C3%BC.jsonl");
		expect(transcriptFileName(".hidden")).toBe("%2Ehidden.jsonl");
		for (const id of ["user:42 ü", ".hidden", "a.b-c_d", "%41"])
			expect(sessionIdFromFileName(transcriptFileName(id))).toBe(id);
		await sessionWith(store, "user:42 ü", 1);
		expect((await store.list()).map((info) => info.sessionId)).toEqual(["user:42 ü"]);
	});

	it("skips and reports a line over maxLineBytes, and refuses to write one", async () => {
		const store = createJsonlTranscriptStore({ directory, maxLineBytes: 2_000 });
		await sessionWith(store, "s1", 1);
		const huge = JSON.stringify(userRecord("s1", "huge", "u0", "y".repeat(100_000)));
		appendFileSync(join(directory, "s1.jsonl"), `${huge}\n`);
		const writer = await store.openWriter("s1");
		await expect(writer.append(userRecord("s1", "big", "u0", "z".repeat(5_000)))).rejects.toThrow(
			/over the limit of 2000 bytes \(maxLineBytes\)/,
		);
		await writer.append(userRecord("s1", "after", "u0", "small"));
		await writer.close();

		const { records, problems } = await store.read("s1");
		expect(ids(records)).toEqual(["u0", "after"]);
		expect(problems).toEqual([expect.objectContaining({ line: 3, kind: "oversized" })]);
		expect(problems[0].message).toMatch(/^line 3: \d+ bytes is over the limit of 2000 bytes/);
		const tail = await store.readTail("s1", { entries: 2 });
		expect(ids(tail.records)).toEqual(["u0", "after"]);
		expect(tail.problems).toEqual([expect.objectContaining({ line: -2, kind: "oversized" })]);
	});

	it("reports malformed lines with their number and keeps reading", async () => {
		const store = createJsonlTranscriptStore({ directory });
		await sessionWith(store, "s1", 1);
		const bad = userRecord("s1", "bad", "u0", "x") as unknown as { message: { content: unknown[] } };
		bad.message.content = [{ type: "text", text: 5 }];
		appendFileSync(join(directory, "s1.jsonl"), `not json\n${JSON.stringify(bad)}\n\n`);
		await (await store.openWriter("s1")).close();
		const writer = await store.openWriter("s1");
		await writer.append(userRecord("s1", "good", "u0", "x"));
		await writer.close();
		const { records, problems } = await store.read("s1");
		expect(ids(records)).toEqual(["u0", "good"]);
		expect(problems.map((problem) => [problem.line, problem.kind])).toEqual([
			[3, "malformed"],
			[4, "malformed"],
		]);
		expect(problems[1].message).toBe("line 4: message.content[0].text must be a string, got a number");
	});

	it("reads the tail across block boundaries and finds the last summary further back", async () => {
		const store = createJsonlTranscriptStore({ directory });
		const writer = await store.openWriter("s1", { create: header("s1") });
		await writer.append(summaryRecord("s1", "sum", null, "what came before"));
		// Records of ~40 KB straddle the 64 KB read blocks.
		for (let index = 0; index < 20; index++)
			await writer.append(userRecord("s1", `u${index}`, null, `${index}`.padEnd(40_000, "·")));
		await writer.close();

		const tail = await store.readTail("s1", { entries: 3 });
		expect(ids(tail.records)).toEqual(["u17", "u18", "u19"]);
		expect((tail.records[0] as SessionMessageRecord).message).toMatchObject({
			content: [{ text: "17".padEnd(40_000, "·") }],
		});
		expect(tail.lastSummary?.id).toBe("sum");
		expect((await store.readTail("s1", { entries: 3, findLastSummary: false })).lastSummary).toBeUndefined();
		const all = await store.readTail("s1", { entries: 1_000 });
		expect(all.records).toHaveLength(22);
		expect(all.records[0]).toEqual(header("s1"));
	});

	it("lists sessions from their header and title sidecar, newest first", async () => {
		const store = createJsonlTranscriptStore({ directory });
		const parent = await store.openWriter("parent", {
			create: header("parent", { title: "The task", timestamp: 100 }),
		});
		await parent.append(userRecord("parent", "p1", null, "start a sub-agent"));
		const sidechain = await store.openWriter("child", {
			create: header("child", { timestamp: 200, parentSessionId: "parent", parentMessageId: "p1" }),
		});
		await sidechain.append(userRecord("child", "c1", null, "sub-task"));
		await sidechain.close();
		await parent.append({ v: 1, type: "title", sessionId: "parent", timestamp: 300, title: "The task, renamed" });
		await parent.close();
		writeFileSync(join(directory, "notes.txt"), "not a session");

		const list = await store.list();
		const byId = Object.fromEntries(list.map((info) => [info.sessionId, info]));
		expect(Object.keys(byId).sort()).toEqual(["child", "parent"]);
		expect(byId.parent).toMatchObject({ title: "The task, renamed", createdAt: 100 });
		expect(byId.child).toMatchObject({ createdAt: 200, parentSessionId: "parent", parentMessageId: "p1" });
		expect(byId.child.title).toBeUndefined();
		expect(byId.parent.sizeBytes).toBeGreaterThan(100);
		expect(list[0].updatedAt).toBeGreaterThanOrEqual(list[1].updatedAt);
		// A sub-agent's transcript loads on its own.
		expect(ids((await store.read("child")).records)).toEqual(["c1"]);
	});

	it("scans records without keeping them", async () => {
		const store = createJsonlTranscriptStore({ directory });
		await sessionWith(store, "s1", 5);
		const seen: [string, number][] = [];
		const problems = await store.scan("s1", (record, line) => seen.push([record.type, line]));
		expect(problems).toEqual([]);
		expect(seen.map(([, line]) => line)).toEqual([1, 2, 3, 4, 5, 6]);
	});

	it("loads the records at byte offsets that scan reported", async () => {
		const store = createJsonlTranscriptStore({ directory });
		const writer = await store.openWriter("s1", { create: header("s1") });
		await writer.append(userRecord("s1", "u0", null, "short"));
		await writer.append(userRecord("s1", "u1", "u0", "long ".repeat(20_000)));
		await writer.append(userRecord("s1", "u2", "u1", "short again"));
		// Longer than the 1 MiB window readAt keeps: read on its own.
		await writer.append(userRecord("s1", "u3", "u2", "big ".repeat(400_000)));
		await writer.append(userRecord("s1", "u4", "u3", "last"));
		await writer.close();
		const offsets = new Map<string, number>();
		await store.scan("s1", (record, _line, byteOffset) => {
			if (record.type === "message") offsets.set(record.id as string, byteOffset);
		});
		const wanted = ["u2", "u1", "u4", "u3", "u0"].map((id) => offsets.get(id) as number);
		const loaded = await store.readAt("s1", wanted);
		expect(ids(loaded)).toEqual(["u2", "u1", "u4", "u3", "u0"]);
		expect((loaded[3] as SessionMessageRecord).message).toMatchObject({ content: [{ text: "big ".repeat(400_000) }] });
		await expect(store.readAt("s1", [(offsets.get("u1") as number) + 3])).rejects.toThrow(/is not the start of a line/);
		await expect(store.readAt("s1", [10_000_000])).rejects.toThrow(/is not inside the transcript/);
	});

	it("refuses a create header for another session and bad options", async () => {
		const store = createJsonlTranscriptStore({ directory });
		await expect(store.openWriter("s1", { create: header("s2") })).rejects.toBeInstanceOf(SessionRecordError);
		expect(() => createJsonlTranscriptStore({ directory, durability: "never" as "os" })).toThrow(
			/Unknown durability "never"/,
		);
		expect(() => createJsonlTranscriptStore({ directory, maxLineBytes: 0 })).toThrow(
			/maxLineBytes must be a positive integer/,
		);
	});

	it("makes every append durable with fsync-each", async () => {
		const store = createJsonlTranscriptStore({ directory, durability: "fsync-each" });
		await sessionWith(store, "s1", 3);
		expect(ids((await store.read("s1")).records)).toEqual(["u0", "u1", "u2"]);
	});
});

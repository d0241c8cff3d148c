// Outline pages: the writer packs the outlines of consecutive records into one row, written with the
// append that fills it, and load: "context" reads those rows instead of every record row. They are
// a cache: a session resumed through them is the session resumed through its record rows, whatever
// is missing or damaged among them.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
	resumeAgent,
	Session,
	SessionFencedError,
	type SessionMessageRecord,
	type SessionRecord,
} from "@keel/agent-core/session";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assistantMessage, header } from "../../agent/test/session-fixtures.js";
import { createSqliteTranscriptStore, type SqliteTranscriptStore } from "../src/index.js";
import { BACKFILL_SLICE_RECORDS, outlineBackfillOf } from "../src/sqlite-outline-backfill.js";
import { OUTLINE_PAGE_REBUILD_LIMIT, OUTLINE_PAGE_RECORDS } from "../src/sqlite-outline-pages.js";

const PAGE = OUTLINE_PAGE_RECORDS;

let directory: string;
let path: string;
let store: SqliteTranscriptStore;
beforeEach(() => {
	directory = mkdtempSync(join(tmpdir(), "keel-sqlite-pages-"));
	path = join(directory, "sessions.db");
	store = createSqliteTranscriptStore({ path });
});
afterEach(() => {
	store.close();
	rmSync(directory, { recursive: true, force: true });
});

/** Message `index` of a session: a tool call and its result every tenth message, so outlines carry the pairing. */
function message(sessionId: string, index: number, parentId: string | null): SessionMessageRecord {
	const timestamp = 10 + index;
	const base = { v: 1 as const, type: "message" as const, sessionId, id: `m${index}`, parentId, timestamp };
	if (index % 10 === 1) {
		const call = { type: "toolCall" as const, id: `call-${index}`, name: "read", arguments: { path: `f${index}` } };
		return { ...base, message: { ...assistantMessage([call]), stopReason: "toolUse", timestamp } };
	}
	if (index % 10 === 2) {
		return {
			...base,
			message: {
				role: "toolResult",
				toolCallId: `call-${index - 1}`,
				toolName: "read",
				content: [{ type: "text", text: `contents of f${index - 1}` }],
				isError: false,
				timestamp,
			},
		} as SessionMessageRecord;
	}
	return { ...base, message: { role: "user", content: `message ${index} of ${sessionId}`, timestamp } };
}

/**
 * Messages `from` to `to - 1`, each the child of the one before (the first of `parentOfFirst`) but
 * message 150, which starts a second branch from message 100; a title record after every 200th
 * message (kept whole in pages).
 */
function messages(
	sessionId: string,
	from: number,
	to: number,
	parentOfFirst: string | null = from === 0 ? null : `m${from - 1}`,
): SessionRecord[] {
	const records: SessionRecord[] = [];
	for (let index = from; index < to; index++) {
		const parentId = index === from ? parentOfFirst : index === 150 ? "m100" : `m${index - 1}`;
		records.push(message(sessionId, index, parentId));
		if (index % 200 === 199)
			records.push({ v: 1, type: "title", sessionId, timestamp: 10 + index, title: `t${index}` });
	}
	return records;
}

/**
 * A session of `count` messages (and titles) from message `first` on, written by one writer, then
 * compacted near its end.
 */
async function writeSession(sessionId: string, count: number, into = store, first = 0): Promise<void> {
	const writer = await into.openWriter(sessionId, { create: header(sessionId) });
	for (let from = first; from < first + count; from += 97) {
		await writer.append(
			messages(sessionId, from, Math.min(first + count, from + 97), from === first ? null : undefined),
		);
	}
	await writer.close();
	const session = await Session.open(into, sessionId);
	const kept = session.branch().at(-3) as SessionMessageRecord;
	await session.appendCompaction(
		{ role: "summary", summary: "most of it", summarisedMessageCount: 10, timestamp: 10 + count },
		{ trigger: "manual", firstKeptMessageId: kept.id },
	);
	await session.append({ role: "user", content: "after the compaction", timestamp: 11 + count });
	await session.close();
}

/** What a load: "context" resume gives: messages, branches and model context, and what the agent resumes with. */
async function resumed(sessionId: string, from = store, contextTokens?: number) {
	const session = await Session.open(from, sessionId, {
		load: "context",
		...(contextTokens === undefined ? {} : { contextTokens }),
	});
	const agent = await resumeAgent(session);
	const result = {
		problems: session.problems,
		leafId: session.leafId,
		branches: session.branches(),
		contextRecords: session.modelContextRecords(),
		modelContext: session.modelContext(),
		agentMessages: agent.state.messages,
	};
	await session.close();
	return result;
}

function onDisk<T>(run: (database: Database.Database) => T): T {
	const database = new Database(path);
	try {
		return run(database);
	} finally {
		database.close();
	}
}

function pagesOf(sessionId: string, tenant = "default"): { first: number; last: number; count: number }[] {
	return onDisk((database) =>
		(
			database
				.prepare(
					"SELECT first_seq, last_seq, outlines FROM keel_outline_pages WHERE tenant = ? AND session_id = ? ORDER BY first_seq",
				)
				.all(tenant, sessionId) as { first_seq: number; last_seq: number; outlines: string }[]
		).map((row) => ({
			first: row.first_seq,
			last: row.last_seq,
			count: (JSON.parse(row.outlines) as unknown[]).length,
		})),
	);
}

function lastSeqOf(sessionId: string): number {
	return onDisk(
		(database) =>
			database.prepare("SELECT last_seq FROM keel_sessions WHERE session_id = ?").pluck().get(sessionId) as number,
	);
}

/** Full pages from seq `first`, one after the other, as many as the records up to `lastSeq` fill. */
function pagesFrom(first: number, lastSeq: number) {
	return Array.from({ length: Math.floor((lastSeq - first + 1) / PAGE) }, (_, index) => ({
		first: first + index * PAGE,
		last: first + (index + 1) * PAGE - 1,
		count: PAGE,
	}));
}

/** Full pages from seq 1, as many as the session's records fill. */
function contiguousPages(lastSeq: number) {
	return pagesFrom(1, lastSeq);
}

/**
 * Makes the paged records unreadable but through their page: no outline in any row, and the line
 * of each message a page covers replaced by bad JSON (but for the leaf of the first branch and the
 * messages just before the compaction, which a resume reads in full). A resume that reads those rows
 * reports problems.
 */
function spoilPagedRows(sessionId: string): void {
	onDisk((database) => {
		database.prepare("UPDATE keel_records SET outline = NULL WHERE session_id = ?").run(sessionId);
		database
			.prepare(
				`UPDATE keel_records SET line = '{not json' WHERE session_id = @sessionId AND role IS NOT NULL AND role != 'compact_boundary'
				AND seq > (SELECT seq FROM keel_records WHERE session_id = @sessionId AND json_extract(line, '$.id') = 'm149')
				AND seq <= (SELECT max(last_seq) FROM keel_outline_pages WHERE session_id = @sessionId)
				AND seq < (SELECT max(seq) FROM keel_records WHERE session_id = @sessionId AND role = 'compact_boundary') - 30`,
			)
			.run({ sessionId });
	});
}

describe("SQLite outline pages", () => {
	it("are written by the appends that fill them, one per page of records, and a resume reads them instead of the record rows", async () => {
		await writeSession("paged", 2 * PAGE + 300);
		const lastSeq = lastSeqOf("paged");
		expect(pagesOf("paged")).toEqual(contiguousPages(lastSeq));
		const throughRows = await (async () => {
			const saved = onDisk((database) => database.prepare("SELECT * FROM keel_outline_pages").all());
			onDisk((database) => database.exec("DELETE FROM keel_outline_pages"));
			const result = await resumed("paged");
			onDisk((database) => {
				const insert = database.prepare(
					"INSERT INTO keel_outline_pages (tenant, session_id, first_seq, last_seq, outlines) VALUES (@tenant, @session_id, @first_seq, @last_seq, @outlines)",
				);
				for (const row of saved) insert.run(row);
			});
			return result;
		})();
		expect(throughRows.problems).toEqual([]);
		expect(throughRows.branches).toHaveLength(2);
		const throughPages = await resumed("paged");
		expect(throughPages).toEqual(throughRows);
		// The pages alone carry the records they cover: their rows can no longer be read.
		spoilPagedRows("paged");
		expect(await resumed("paged")).toEqual(throughRows);
	});

	it("that stop short (a writer killed before it wrote its page) leave a resume unchanged, and the next writer fills the gap", async () => {
		await writeSession("short", 2 * PAGE + 300);
		const complete = await resumed("short");
		onDisk((database) =>
			database.exec("DELETE FROM keel_outline_pages WHERE first_seq = (SELECT max(first_seq) FROM keel_outline_pages)"),
		);
		expect(pagesOf("short")).toEqual(contiguousPages(PAGE));
		expect(await resumed("short")).toEqual(complete);
		const writer = await store.openWriter("short");
		const written = lastSeqOf("short");
		await writer.append(messages("short", 5000, 5000 + 3 * PAGE - written, complete.leafId));
		await writer.close();
		expect(pagesOf("short")).toEqual(contiguousPages(3 * PAGE));
		const withMore = await resumed("short");
		spoilPagedRows("short");
		expect(await resumed("short")).toEqual(withMore);
	});

	it("of a writer killed with SIGKILL stop at its last full page; a resume is unchanged and the next writer fills the gap", async () => {
		// The store conformance suite's child: appends batches of small chained messages until killed.
		const child = spawn(
			process.execPath,
			[
				"--import",
				"tsx",
				fileURLToPath(new URL("../../agent/test/transcript-store-child.ts", import.meta.url)),
				fileURLToPath(new URL("./sqlite-child-store.ts", import.meta.url)),
				path,
				"append-forever",
				"killed",
			],
			{
				env: {
					...process.env,
					TSX_TSCONFIG_PATH: fileURLToPath(new URL("../tsconfig.json", import.meta.url)),
					RECORD_BYTES: "40",
					BATCH: "7",
				},
				stdio: ["ignore", "pipe", "inherit"],
			},
		);
		const exited = new Promise((resolve) => child.on("exit", resolve));
		await new Promise<void>((resolve, reject) => {
			let printed = "";
			child.stdout.setEncoding("utf8");
			child.stdout.on("data", (chunk: string) => {
				printed += chunk;
				const appended = [...printed.matchAll(/appended (\d+)/g)].map((match) => Number(match[1]));
				if ((appended.at(-1) ?? 0) >= 2 * PAGE + 100) resolve();
			});
			child.on("exit", () => reject(new Error(`the child exited before appending enough: ${printed.slice(-200)}`)));
		});
		child.kill("SIGKILL");
		await exited;
		const killedAt = lastSeqOf("killed");
		expect(pagesOf("killed")).toEqual(contiguousPages(killedAt));
		const contextTokens = 1_000; // a window of a few dozen messages: the rest is read as outlines
		const throughPages = await resumed("killed", store, contextTokens);
		expect(throughPages.problems).toEqual([]);
		const pages = onDisk((database) => database.prepare("SELECT * FROM keel_outline_pages").all());
		onDisk((database) => database.exec("DELETE FROM keel_outline_pages"));
		expect(await resumed("killed", store, contextTokens)).toEqual(throughPages);
		onDisk((database) => {
			const insert = database.prepare(
				"INSERT INTO keel_outline_pages (tenant, session_id, first_seq, last_seq, outlines) VALUES (@tenant, @session_id, @first_seq, @last_seq, @outlines)",
			);
			for (const row of pages) insert.run(row);
		});
		const writer = await store.openWriter("killed");
		const toFill = PAGE - (killedAt % PAGE);
		await writer.append(messages("killed", 5000, 5000 + toFill, throughPages.leafId));
		await writer.close();
		expect(pagesOf("killed")).toEqual(contiguousPages(killedAt + toFill));
		expect(contiguousPages(killedAt + toFill).length).toBeGreaterThan(contiguousPages(killedAt).length);
	});

	it("are passed over when garbled (bad JSON, a wrong count of entries), the records read instead with no problem reported", async () => {
		await writeSession("garbled", 3 * PAGE + 10);
		const complete = await resumed("garbled");
		onDisk((database) => {
			database.exec("UPDATE keel_outline_pages SET outlines = '[{not json' WHERE first_seq = 1");
			const second = database.prepare("SELECT outlines FROM keel_outline_pages WHERE first_seq = ?").pluck();
			const entries = JSON.parse(second.get(PAGE + 1) as string) as unknown[];
			database
				.prepare("UPDATE keel_outline_pages SET outlines = ? WHERE first_seq = ?")
				.run(JSON.stringify(entries.slice(1)), PAGE + 1);
			const third = JSON.parse(second.get(2 * PAGE + 1) as string) as unknown[];
			third[5] = [10, { type: "message" }];
			database
				.prepare("UPDATE keel_outline_pages SET outlines = ? WHERE first_seq = ?")
				.run(JSON.stringify(third), 2 * PAGE + 1);
		});
		expect(await resumed("garbled")).toEqual(complete);
	});

	it("are not written by a fenced writer, and the writer that took over pages its records", async () => {
		const fenced = await store.openWriter("fenced", { create: header("fenced") });
		const records = messages("fenced", 0, PAGE + 5);
		await fenced.append(records.slice(0, PAGE - 2)); // with the header, one record short of a page
		const taker = await store.openWriter("fenced", { takeOver: true });
		await expect(fenced.append(records.slice(PAGE - 2))).rejects.toBeInstanceOf(SessionFencedError);
		expect(pagesOf("fenced")).toEqual([]);
		await taker.append(messages("fenced", 1000, 1001));
		await taker.close();
		await fenced.close();
		expect(pagesOf("fenced")).toEqual([{ first: 1, last: PAGE, count: PAGE }]);
		const lastEntry = onDisk(
			(database) =>
				(
					JSON.parse(database.prepare("SELECT outlines FROM keel_outline_pages").pluck().get() as string) as unknown[]
				).at(-1) as [number, SessionMessageRecord],
		);
		expect(lastEntry[1].id).toBe("m1000");
	});

	it("stay in step with the records when an append runs twice (its group rolled back for a fenced writer)", async () => {
		const kept = await store.openWriter("kept", { create: header("kept") });
		await kept.append(messages("kept", 0, PAGE - 3));
		const fenced = await store.openWriter("taken", { create: header("taken") });
		const taker = await store.openWriter("taken", { takeOver: true });
		const opener = await store.openWriter("opener", { create: header("opener") });
		// "opener" commits alone and opens a group; "kept" fills its page in the group's first run,
		// which the fenced append rolls back; the group runs again, "kept" with it.
		const [, keptAppend, fencedAppend] = await Promise.allSettled([
			opener.append(messages("opener", 0, 1)),
			kept.append(messages("kept", PAGE - 3, PAGE + 20)),
			fenced.append(messages("taken", 0, 1)),
		]);
		expect(keptAppend.status).toBe("fulfilled");
		expect((fencedAppend as PromiseRejectedResult).reason).toBeInstanceOf(SessionFencedError);
		await kept.append(messages("kept", PAGE + 20, 2 * PAGE + 40));
		await Promise.all([kept.close(), fenced.close(), taker.close(), opener.close()]);
		const lastSeq = lastSeqOf("kept");
		expect(pagesOf("kept")).toEqual(contiguousPages(lastSeq));
		const page = onDisk(
			(database) =>
				JSON.parse(
					database
						.prepare("SELECT outlines FROM keel_outline_pages WHERE session_id = 'kept' AND first_seq = ?")
						.pluck()
						.get(PAGE + 1) as string,
				) as ([number, SessionMessageRecord] | null)[],
		);
		const { records } = await store.read("kept");
		expect(page.map((entry) => entry?.[1].id ?? null)).toEqual(
			records
				.slice(PAGE, 2 * PAGE)
				.map((record) => (record.type === "message" ? (record as SessionMessageRecord).id : null)),
		);
	});

	it("go with their session when it is deleted, and belong to one tenant", async () => {
		const other = store.forTenant("other");
		await writeSession("shared", PAGE + 50);
		await writeSession("shared", PAGE + 80, other, 1000); // other messages: m1000 on
		const otherResumed = await resumed("shared", other);
		const ownResumed = await resumed("shared");
		expect(otherResumed.problems).toEqual([]);
		expect(ownResumed.problems).toEqual([]);
		onDisk((database) => database.exec("UPDATE keel_records SET outline = NULL"));
		const outlinesOf = async (from: SqliteTranscriptStore) => {
			const ids: string[] = [];
			await from.scanOutlines("shared", (record, _line, _position, outlined) => {
				if (outlined) ids.push((record as SessionMessageRecord).id);
			});
			return ids;
		};
		expect(await outlinesOf(store)).toEqual(Array.from({ length: PAGE - 3 }, (_, index) => `m${index}`));
		expect(await outlinesOf(other)).toEqual(Array.from({ length: PAGE - 3 }, (_, index) => `m${1000 + index}`));
		await store.delete("shared");
		expect(pagesOf("shared")).toEqual([]);
		expect(pagesOf("shared", "other")).toEqual(contiguousPages(lastSeqOf("shared")));
		expect(await resumed("shared", other)).toEqual(otherResumed);
		expect(otherResumed.modelContext.at(-1)).toMatchObject({ content: "after the compaction" });
		expect(ownResumed.branches).toHaveLength(2);
	});
});

describe("the SQLite schema upgrade to outline pages", () => {
	it("keeps a version-4 database's sessions, resumed as before, and pages what is appended after", async () => {
		await writeSession("kept", PAGE + 100);
		const before = await resumed("kept");
		store.close();
		// The same session in a version-4 database: no page table.
		onDisk((database) => {
			database.exec("DROP TABLE keel_outline_pages; UPDATE keel_schema_version SET version = 4");
		});
		store = createSqliteTranscriptStore({ path });
		expect(pagesOf("kept")).toEqual([]);
		expect(await resumed("kept")).toEqual(before);
		const writer = await store.openWriter("kept");
		await writer.append(messages("kept", 7000, 7001, before.leafId));
		await writer.close();
		// The records since the last page are few enough to be read back: pages from seq 1.
		expect(pagesOf("kept")).toEqual(contiguousPages(lastSeqOf("kept")));
		const after = await resumed("kept");
		expect(after.modelContext.at(-1)).toMatchObject({ content: "message 7000 of kept" });
		expect(after.modelContext.slice(0, -1)).toEqual(before.modelContext);
	});
});

describe("SQLite outline pages of a session written before pages existed", () => {
	interface StoredPage {
		first_seq: number;
		last_seq: number;
		outlines: string;
	}
	const storedPages = (sessionId: string): StoredPage[] =>
		onDisk(
			(database) =>
				database
					.prepare(
						"SELECT first_seq, last_seq, outlines FROM keel_outline_pages WHERE session_id = ? ORDER BY first_seq",
					)
					.all(sessionId) as StoredPage[],
		);

	/**
	 * A session as a version-4 database holds it (the same record rows, outlines in them, no page
	 * table), reopened by the current store; returns the pages its writer wrote, to compare with.
	 */
	async function writtenBeforePages(sessionId: string, count: number): Promise<StoredPage[]> {
		await writeSession(sessionId, count);
		const written = storedPages(sessionId);
		store.close();
		onDisk((database) => database.exec("DROP TABLE keel_outline_pages; UPDATE keel_schema_version SET version = 4"));
		store = createSqliteTranscriptStore({ path });
		expect(storedPages(sessionId)).toEqual([]);
		return written;
	}

	/** Turns of the event loop until `ready` holds (at most 1,000): the backfill writes a slice a turn. */
	async function turnsUntil(ready: () => boolean): Promise<void> {
		for (let turn = 0; turn < 1_000 && !ready(); turn++) await new Promise((resolve) => setImmediate(resolve));
		expect(ready()).toBe(true);
	}

	it("are written in the background by the next writer, the same pages its own writer wrote, and a resume reads them", async () => {
		const written = await writtenBeforePages("old", 3_000);
		expect(lastSeqOf("old")).toBeGreaterThan(OUTLINE_PAGE_REBUILD_LIMIT);
		const before = await resumed("old");
		expect(before.problems).toEqual([]);
		const writer = await store.openWriter("old");
		await outlineBackfillOf(writer);
		// Every record but the last ones, fewer than a page, which the writer holds as its pending page.
		expect(storedPages("old")).toEqual(written);
		expect(written.at(-1)?.last_seq).toBe(lastSeqOf("old") - (lastSeqOf("old") % PAGE));
		// The writer's own pages go on from there, on the same grid.
		await writer.append(messages("old", 8000, 8000 + PAGE - 1, before.leafId)); // with two titles, PAGE + 1 records
		await writer.close();
		expect(pagesOf("old")).toEqual(contiguousPages(lastSeqOf("old")));
		const after = await resumed("old");
		expect(after.problems).toEqual([]);
		expect(after.modelContext.slice(0, before.modelContext.length)).toEqual(before.modelContext);
		expect(after.modelContext.at(-1)).toMatchObject({ content: `message ${8000 + PAGE - 2} of old` });
		// The pages alone carry the records they cover: their rows can no longer be read.
		spoilPagedRows("old");
		expect(await resumed("old")).toEqual(after);
	});

	it("carry the outline of a row written without one (before schema version 3), computed from its line", async () => {
		const written = await writtenBeforePages("oldest", 2_600);
		onDisk((database) => database.exec("UPDATE keel_records SET outline = NULL"));
		const before = await resumed("oldest");
		const writer = await store.openWriter("oldest");
		await outlineBackfillOf(writer);
		await writer.close();
		expect(storedPages("oldest")).toEqual(written);
		expect(await resumed("oldest")).toEqual(before);
	});

	it("fill the run before pages written later (by a writer that left the older records to their rows)", async () => {
		const written = await writtenBeforePages("run", 3_000);
		// What a writer that did not page backwards left: pages only from a grid point near the end.
		onDisk((database) => {
			const insert = database.prepare(
				"INSERT INTO keel_outline_pages (tenant, session_id, first_seq, last_seq, outlines) VALUES ('default', 'run', ?, ?, ?)",
			);
			for (const page of written.slice(3)) insert.run(page.first_seq, page.last_seq, page.outlines);
		});
		const writer = await store.openWriter("run");
		await outlineBackfillOf(writer);
		await writer.close();
		expect(storedPages("run")).toEqual(written);
	});

	it("stop at a missing record: the pages before it are written, none from there on", async () => {
		// More than a slice of the backfill: the slices after the missing record are not written either.
		const written = await writtenBeforePages("gap", BACKFILL_SLICE_RECORDS + 2 * PAGE + 100);
		const missing = 3 * PAGE + 7;
		onDisk((database) =>
			database.prepare("DELETE FROM keel_records WHERE session_id = 'gap' AND seq = ?").run(missing),
		);
		const writer = await store.openWriter("gap");
		await outlineBackfillOf(writer);
		await writer.close();
		expect(storedPages("gap")).toEqual(written.slice(0, 3));
	});

	// Enough records for three slices of the backfill, so it can be stopped between two.
	const SLICES = 3;
	const sliced = SLICES * BACKFILL_SLICE_RECORDS;
	const slicedPages = sliced / PAGE;

	it("are not written by a writer that was taken over, from the takeover on", async () => {
		await writtenBeforePages("taken", sliced + 100);
		const fenced = await store.openWriter("taken");
		await turnsUntil(() => pagesOf("taken").length > 0);
		const taker = await store.openWriter("taken", { takeOver: true });
		await taker.close(); // before its own backfill wrote anything
		const atTakeover = storedPages("taken");
		expect(atTakeover.length).toBeLessThan(slicedPages);
		await outlineBackfillOf(fenced);
		expect(storedPages("taken")).toEqual(atTakeover);
		await fenced.close();
		// The next writer pages what is left from where the pages stop.
		const next = await store.openWriter("taken");
		await outlineBackfillOf(next);
		await next.close();
		expect(pagesOf("taken")).toEqual(contiguousPages(lastSeqOf("taken")));
	});

	it("stop without an error when the writer or the store closes during the backfill, and the next writer goes on", async () => {
		await writtenBeforePages("closed", sliced + 100);
		const writer = await store.openWriter("closed");
		await turnsUntil(() => pagesOf("closed").length > 0);
		await writer.close();
		const afterClose = pagesOf("closed").length;
		await outlineBackfillOf(writer);
		expect(pagesOf("closed").length).toBe(afterClose);
		expect(afterClose).toBeLessThan(slicedPages);
		const again = await store.openWriter("closed");
		store.close(); // the database closes under the backfill and the open writer
		await outlineBackfillOf(again);
		store = createSqliteTranscriptStore({ path });
		expect(pagesOf("closed").length).toBe(afterClose);
		const last = await store.openWriter("closed", { takeOver: true });
		await outlineBackfillOf(last);
		await last.close();
		expect(pagesOf("closed")).toEqual(contiguousPages(lastSeqOf("closed")));
	});
});

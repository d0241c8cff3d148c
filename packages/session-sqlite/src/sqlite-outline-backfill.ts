// Paging backwards: a writer that opens a session with whole pages' worth of records no outline page
// covers (a session written before pages existed, or one whose pages stop short of where the
// writer's own pending page starts) writes those pages in the background, so the next resumes read
// pages throughout instead of walking the record rows.
//
// The records are read a slice at a time outside any write transaction (in WAL mode a reader does
// not block a writer of another process: https://www.sqlite.org/wal.html), and each slice's pages
// are inserted by a short IMMEDIATE transaction of their own that first checks that the session row
// still carries the writer's token: a writer that was fenced (or whose session was deleted) writes
// no page. Between slices the event loop runs (setImmediate), so a server is not held for the whole
// session. The pages fill the runs of records between (and before) the existing pages, from the start
// of each run, and only before the writer's pending page: they never overlap a page the writer
// itself writes, and inserting one again (INSERT OR REPLACE) writes the same row.
//
// Pages are a cache (sqlite-outline-pages.ts): a backfill that fails (busy past the timeout, a
// database closed under it) or stops (the writer closed) is dropped without a word, the records it
// did not page are read from their rows, and the session's next writer starts over where it stopped.

import {
	outlineMessageRecord,
	parseStoredLine,
	type TranscriptReadProblem,
	type TranscriptWriter,
} from "@keel/agent-core/session";
import type { Database } from "better-sqlite3";
import { OUTLINE_PAGE_RECORDS, pageEntryOf } from "./sqlite-outline-pages.js";
import { walCheckpointerOf } from "./sqlite-wal-checkpointer.js";

/** Records read per slice: ten pages, ~20 MB of rows in the bench session, tens of milliseconds. */
export const BACKFILL_SLICE_RECORDS = 10 * OUTLINE_PAGE_RECORDS;

export interface OutlineBackfill {
	/** Settles (never rejects) once the backfill has finished, stopped or failed. */
	readonly done: Promise<void>;
	/** Stops before the next slice; `done` then settles at once, no statement run after it. */
	stop(): void;
}

interface RecordRow {
	seq: number;
	outline: string | null;
	/** The full line, only for a row without an outline (written before schema version 3). */
	line: string | null;
	bytes: number;
}

/** A run of consecutive seqs that no page covers. */
interface Run {
	first: number;
	last: number;
}

const backfills = new WeakMap<TranscriptWriter, OutlineBackfill>();

/** The backfill a writer started when it opened (for tests): resolves when it has finished or stopped. */
export function outlineBackfillOf(writer: TranscriptWriter): Promise<void> {
	return backfills.get(writer)?.done ?? Promise.resolve();
}

export function registerOutlineBackfill(writer: TranscriptWriter, backfill: OutlineBackfill): void {
	backfills.set(writer, backfill);
}

/**
 * Whether a session holds records before seq `before` that no page covers, at least a page of them:
 * pages hold OUTLINE_PAGE_RECORDS records each, so fewer pages than the records fill tells. One count
 * over the page table's primary key, run when a writer opens the session.
 */
export function hasUnpagedRecords(database: Database, tenant: string, sessionId: string, before: number): boolean {
	const pages = database
		.prepare("SELECT count(*) FROM keel_outline_pages WHERE tenant = ? AND session_id = ? AND first_seq < ?")
		.pluck()
		.get(tenant, sessionId, before) as number;
	return before - 1 - pages * OUTLINE_PAGE_RECORDS >= OUTLINE_PAGE_RECORDS;
}

/**
 * Pages, in the background, the records before seq `before` (where the writer's pending page starts)
 * that no page covers, while the session carries `token`.
 */
export function startOutlineBackfill(
	database: Database,
	tenant: string,
	sessionId: string,
	token: number,
	before: number,
): OutlineBackfill {
	let stopped = false;
	let wake: (() => void) | undefined;
	// Resolves after a turn of the event loop, or at once when stopped meanwhile.
	const nextTurn = () =>
		new Promise<void>((resolve) => {
			const immediate = setImmediate(() => {
				wake = undefined;
				resolve();
			});
			wake = () => {
				clearImmediate(immediate);
				wake = undefined;
				resolve();
			};
		});
	// False once the backfill must not run another statement: stopped, or the database closed under it.
	const mayGoOn = async (): Promise<boolean> => {
		await nextTurn();
		// A transaction a caller left open on a shared database: the pages would join it. Wait for its end.
		while (!stopped && database.open && database.inTransaction) await nextTurn();
		return !stopped && database.open;
	};

	const run = async (): Promise<void> => {
		if (!(await mayGoOn())) return;
		const rows = database.prepare(
			`SELECT seq, outline, CASE WHEN outline IS NULL THEN line END AS line, octet_length(line) AS bytes
			FROM keel_records WHERE tenant = ? AND session_id = ? AND seq >= ? AND seq <= ? ORDER BY seq`,
		);
		const insertPage = database.prepare(
			"INSERT OR REPLACE INTO keel_outline_pages (tenant, session_id, first_seq, last_seq, outlines) VALUES (?, ?, ?, ?, ?)",
		);
		const holding = database.prepare(
			"SELECT 1 FROM keel_sessions WHERE tenant = ? AND session_id = ? AND writer_token = ?",
		);
		const insertWhileHolding = database.transaction((pages: Page[]): boolean => {
			if (holding.get(tenant, sessionId, token) === undefined) return false;
			for (const page of pages) insertPage.run(tenant, sessionId, page.first, page.last, page.outlines);
			return true;
		});
		for (const unpaged of unpagedRuns(database, tenant, sessionId, before)) {
			for (let from = unpaged.first; unpaged.last - from + 1 >= OUTLINE_PAGE_RECORDS; ) {
				if (!(await mayGoOn())) return;
				const pageCount = Math.min(
					BACKFILL_SLICE_RECORDS / OUTLINE_PAGE_RECORDS,
					Math.floor((unpaged.last - from + 1) / OUTLINE_PAGE_RECORDS),
				);
				const to = from + pageCount * OUTLINE_PAGE_RECORDS - 1;
				const pages = pagesOf(rows.all(tenant, sessionId, from, to) as RecordRow[], from);
				if (pages.length > 0) {
					if (!insertWhileHolding.immediate(pages)) return; // fenced: the session is another writer's
					walCheckpointerOf(database)?.committed(pages.length);
				}
				// A missing row (a session changed by hand) would shift every later entry: no page from there.
				if (pages.length < pageCount) return;
				from = to + 1;
			}
		}
	};

	// Pages are a cache: whatever stops the backfill leaves the records to their rows (see above).
	const done = run().catch(() => {});
	return {
		done,
		stop() {
			stopped = true;
			wake?.();
		},
	};
}

/** The runs of at least a page of records before `before` that no page covers, in seq order. */
function unpagedRuns(database: Database, tenant: string, sessionId: string, before: number): Run[] {
	const pages = database
		.prepare(
			"SELECT first_seq, last_seq FROM keel_outline_pages WHERE tenant = ? AND session_id = ? AND first_seq < ? ORDER BY first_seq",
		)
		.all(tenant, sessionId, before) as { first_seq: number; last_seq: number }[];
	const runs: Run[] = [];
	let next = 1;
	for (const page of pages) {
		if (page.first_seq > next) runs.push({ first: next, last: page.first_seq - 1 });
		next = Math.max(next, page.last_seq + 1);
	}
	if (next < before) runs.push({ first: next, last: before - 1 });
	return runs.filter((run) => run.last - run.first + 1 >= OUTLINE_PAGE_RECORDS);
}

interface Page {
	first: number;
	last: number;
	outlines: string;
}

/** The whole pages of consecutive rows from seq `first`, up to the first missing seq. */
function pagesOf(rows: RecordRow[], first: number): Page[] {
	const pages: Page[] = [];
	let entries: string[] = [];
	for (let index = 0; index < rows.length; index++) {
		const row = rows[index];
		if (row.seq !== first + index) break;
		entries.push(pageEntryOf(row.outline ?? outlineOfLine(row), row.bytes));
		if (entries.length === OUTLINE_PAGE_RECORDS) {
			pages.push({ first: row.seq - OUTLINE_PAGE_RECORDS + 1, last: row.seq, outlines: `[${entries.join(",")}]` });
			entries = [];
		}
	}
	return pages;
}

/**
 * The outline of a row written before outlines were stored (schema version 3), as the writer would
 * store it now (outlineMessageRecord of the parsed line); null, "read it in full", for a record
 * without one and for a line that does not parse (whose problem the full read then reports).
 */
function outlineOfLine(row: RecordRow): string | null {
	if (row.line === null) return null;
	const problems: TranscriptReadProblem[] = [];
	const records = parseStoredLine(row.line, row.seq, problems);
	if (records.length !== 1 || problems.length > 0) return null;
	const outline = outlineMessageRecord(records[0]);
	return outline === undefined ? null : JSON.stringify(outline);
}

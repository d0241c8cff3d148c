// Outline pages: the outlines of a run of consecutive records, packed into one row of
// keel_outline_pages, so `scanOutlines` reads a few hundred small rows instead of walking every
// record row (each ~2 KB line sits in the same table pages as its outline). A page is written by
// the append that fills it, in the same transaction, so it costs one row per OUTLINE_PAGE_RECORDS
// appends; what no page covers yet is read from the record rows.
//
// Pages are a cache: a missing, short, overlapping or garbled page is skipped and its records read
// from their rows, so no page can change what a reader gets.
//
// A page's `outlines` is a JSON array with one entry per seq from first_seq to last_seq: either
// `[bytes, outline]` (the record's stored size and its outlineMessageRecord) or `null`, meaning
// "read this record in full" (the header, titles, labels, tombstones, compaction boundaries,
// anything without an outline, and a line that cannot be parsed, whose problem the full read reports).

import type { SessionMessageRecord } from "@keel/agent-core/session";
import type { Database } from "better-sqlite3";

/** Records per page: ~250 bytes of outline each, so a page is a row of about 128 KB. */
export const OUTLINE_PAGE_RECORDS = 512;

/**
 * How many records after a session's last page a writer opening it reads back to fill the gap (a
 * writer killed before filling its page leaves fewer than a page). Of a session with more (one
 * written before pages existed), the whole pages' worth before them are paged in the background
 * (sqlite-outline-backfill.ts).
 */
export const OUTLINE_PAGE_REBUILD_LIMIT = 4 * OUTLINE_PAGE_RECORDS;

/** The page entry of a record: its outline and size, or the marker that reads it in full. */
export function pageEntryOf(outline: string | null, bytes: number): string {
	return outline === null ? "null" : `[${bytes},${outline}]`;
}

export type PageEntry = [bytes: number, outline: SessionMessageRecord] | null;

/** A page's entries, or undefined when the page is not one to trust (bad JSON, wrong count, wrong shape). */
export function parsePage(outlines: string, count: number): PageEntry[] | undefined {
	let entries: unknown;
	try {
		entries = JSON.parse(outlines);
	} catch {
		return undefined;
	}
	if (count < 1 || !Array.isArray(entries) || entries.length !== count) return undefined;
	for (const entry of entries) {
		if (entry === null) continue;
		if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== "number") return undefined;
		const outline = entry[1] as { type?: unknown; id?: unknown; message?: unknown } | null;
		if (typeof outline !== "object" || outline === null || outline.type !== "message") return undefined;
		if (typeof outline.id !== "string" || typeof outline.message !== "object" || outline.message === null) {
			return undefined;
		}
	}
	return entries as PageEntry[];
}

/** The records a writer has not yet put in a page: `entries[i]` is the entry of seq `first + i`. */
export interface PendingPage {
	first: number;
	entries: string[];
}

interface StoredRecord {
	seq: number;
	outline: string | null;
	bytes: number;
}

/**
 * The pending page of a session whose last record is `lastSeq`, read back from the database: the
 * records after its last page when there are at most OUTLINE_PAGE_REBUILD_LIMIT of them. Of more,
 * only the last `n % OUTLINE_PAGE_RECORDS`: the pages then keep to a grid from the last page (or
 * seq 1), so every writer opening such a session reads back less than a page and the runs it
 * leaves to the background paging before its pending page are whole pages' worth.
 */
export function readPendingPage(database: Database, tenant: string, sessionId: string, lastSeq: number): PendingPage {
	const covered = database
		.prepare("SELECT max(last_seq) FROM keel_outline_pages WHERE tenant = ? AND session_id = ?")
		.pluck()
		.get(tenant, sessionId) as number | null;
	const uncovered = lastSeq - (covered ?? 0);
	if (uncovered <= 0) return { first: lastSeq + 1, entries: [] };
	const first =
		uncovered <= OUTLINE_PAGE_REBUILD_LIMIT
			? lastSeq - uncovered + 1
			: lastSeq - (uncovered % OUTLINE_PAGE_RECORDS) + 1;
	// A row without an outline gets the marker that reads it in full, as `scanOutlines` reads it now.
	const rows = database
		.prepare(
			`SELECT seq, outline, octet_length(line) AS bytes
			FROM keel_records WHERE tenant = ? AND session_id = ? AND seq >= ? AND seq <= ? ORDER BY seq`,
		)
		.all(tenant, sessionId, first, lastSeq) as StoredRecord[];
	// A missing row (a session changed by hand) cannot be paged: nothing before it is either.
	if (rows.length !== lastSeq - first + 1) return { first: lastSeq + 1, entries: [] };
	return { first, entries: rows.map((row) => pageEntryOf(row.outline, row.bytes)) };
}

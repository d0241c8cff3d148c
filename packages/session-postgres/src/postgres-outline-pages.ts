// Outline pages: the outlines (outlineMessageRecord) and stored sizes of a run of consecutive
// records, packed into one row of keel_outline_pages. Opening a huge session with load: "context"
// reads a few hundred of these rows instead of every record row: the record rows are ~2 KB each, so
// reading their outline column alone still walks every heap page of the table, and hands over each
// outline as a value of its own.
//
// A page is a cache of what the record rows hold: reading never depends on one (postgres-outline-
// scan.ts reads any record no valid page covers from its row). A writer keeps the outlines of its
// records not yet in a page and inserts a page in the same statement as the append that fills it,
// only when that append is written (a fenced writer writes none) and only when the append lands
// right after the records the writer holds (so a page never names the wrong records).

import type { Pool } from "pg";
import { queryTextRows } from "./postgres-text-rows.js";

/** Records per page: ~100 KB of outlines, so 100,000 messages are ~200 rows. */
export const OUTLINE_PAGE_RECORDS = 512;
/** A page closes early once its outlines pass this, so one page stays a modest value. */
export const OUTLINE_PAGE_MAX_BYTES = 1024 * 1024;
/** Records read per round trip while a writer picks up the records no page covers yet. */
const UNCOVERED_SLICE_ROWS = 5_000;

/**
 * One page as it is stored: `outlines` is a JSON array with one entry per seq from `first_seq` to
 * `last_seq`, the record's outline or null for a record read in full (headers, titles, labels,
 * tombstones, boundaries, anything without an outline); `sizes` the stored byte size of each line.
 */
export interface OutlinePageRow {
	first_seq: number;
	last_seq: number;
	outlines: string;
	sizes: number[];
}

/** The outlines and sizes of a writer's records that are in no page yet, and the pages they fill. */
export interface PendingOutlinePage {
	/** The seq of the writer's last written record: where its next append lands. */
	readonly lastSeq: number;
	/**
	 * Adds an append's records (each one's outline JSON or null, and size) and returns the pages
	 * that are now full; nothing changes until `written` (the append was committed) or `dropped`.
	 */
	add(outlines: readonly (string | null)[], sizes: readonly number[]): OutlinePageRow[];
	/** The append given to the last `add` was written: its full pages leave the pending records. */
	written(): void;
	/** The append given to the last `add` was not written: its records leave again. */
	dropped(): void;
}

/** A pending page starting right after `coveredTo`, holding the records up to `lastSeq` already given. */
export function createPendingOutlinePage(coveredTo: number): PendingOutlinePage {
	let firstSeq = coveredTo + 1;
	let outlines: string[] = [];
	let sizes: number[] = [];
	let bytes = 0;
	let before: { length: number; bytes: number } | undefined;
	let take = 0;
	return {
		get lastSeq() {
			return firstSeq + outlines.length - 1;
		},
		add(added, addedSizes) {
			before = { length: outlines.length, bytes };
			for (let index = 0; index < added.length; index++) {
				const outline = added[index] ?? "null";
				outlines.push(outline);
				sizes.push(addedSizes[index]);
				bytes += outline.length;
			}
			const pages: OutlinePageRow[] = [];
			take = 0;
			if (outlines.length < OUTLINE_PAGE_RECORDS && bytes < OUTLINE_PAGE_MAX_BYTES) return pages;
			let start = 0;
			let pageBytes = 0;
			for (let index = 0; index < outlines.length; index++) {
				pageBytes += outlines[index].length;
				if (index + 1 - start < OUTLINE_PAGE_RECORDS && pageBytes < OUTLINE_PAGE_MAX_BYTES) continue;
				pages.push(pageOf(firstSeq + start, outlines.slice(start, index + 1), sizes.slice(start, index + 1)));
				start = index + 1;
				pageBytes = 0;
			}
			take = start;
			return pages;
		},
		written() {
			if (take > 0) {
				outlines = outlines.slice(take);
				sizes = sizes.slice(take);
				firstSeq += take;
				bytes = 0;
				for (const outline of outlines) bytes += outline.length;
			}
			before = undefined;
			take = 0;
		},
		dropped() {
			if (before) {
				outlines.length = before.length;
				sizes.length = before.length;
				bytes = before.bytes;
			}
			before = undefined;
			take = 0;
		},
	};
}

function pageOf(firstSeq: number, outlines: string[], sizes: number[]): OutlinePageRow {
	return {
		first_seq: firstSeq,
		last_seq: firstSeq + outlines.length - 1,
		outlines: `[${outlines.join(",")}]`,
		sizes,
	};
}

/**
 * The pending page of a writer that has just taken the session: the records after the last page
 * (a killed writer's tail, records a writer closed without paging, or a whole session written before
 * pages existed) are read back, a slice at a time, and the pages they fill are written at once
 * (only while the session still carries `token`), so later resumes read pages throughout.
 */
export async function pickUpUncoveredRecords(
	pool: Pool,
	schema: string,
	tenant: string,
	sessionId: string,
	token: number,
	lastSeq: number,
): Promise<PendingOutlinePage> {
	const covered = await queryTextRows(
		pool,
		`SELECT max(last_seq) FROM ${schema}.keel_outline_pages WHERE tenant = $1 AND session_id = $2`,
		[tenant, sessionId],
	);
	const coveredTo = Math.min(lastSeq, Number(covered[0]?.[0] ?? 0));
	const pending = createPendingOutlinePage(coveredTo);
	let after = coveredTo;
	while (after < lastSeq) {
		const rows = await queryTextRows(
			pool,
			`SELECT seq, outline, octet_length(line) FROM ${schema}.keel_records
			WHERE tenant = $1 AND session_id = $2 AND seq > $3 AND seq <= $4 ORDER BY seq LIMIT ${UNCOVERED_SLICE_ROWS}`,
			[tenant, sessionId, after, lastSeq],
		);
		// A seq with no row would shift every later outline: the records stay unpaged from there.
		if (rows.length === 0 || Number(rows[0][0]) !== after + 1) break;
		const outlines: (string | null)[] = [];
		const sizes: number[] = [];
		for (const [seq, outline, bytes] of rows) {
			if (Number(seq) !== after + 1) break;
			outlines.push(outline);
			sizes.push(Number(bytes));
			after++;
		}
		const pages = pending.add(outlines, sizes);
		if (pages.length > 0) await insertPagesWhileHolding(pool, schema, tenant, sessionId, token, pages);
		pending.written();
		if (outlines.length < rows.length) break;
	}
	if (after < lastSeq) return createPendingOutlinePage(lastSeq);
	return pending;
}

async function insertPagesWhileHolding(
	pool: Pool,
	schema: string,
	tenant: string,
	sessionId: string,
	token: number,
	pages: OutlinePageRow[],
): Promise<void> {
	await pool.query(
		`INSERT INTO ${schema}.keel_outline_pages (tenant, session_id, first_seq, last_seq, outlines, sizes)
		SELECT $1, $2, p.first_seq, p.last_seq, p.outlines, p.sizes
		FROM json_to_recordset($4::json) AS p(first_seq bigint, last_seq bigint, outlines text, sizes int[])
		WHERE EXISTS (SELECT 1 FROM ${schema}.keel_sessions
			WHERE tenant = $1 AND session_id = $2 AND writer_token = $3)
		ON CONFLICT (tenant, session_id, first_seq) DO UPDATE
			SET last_seq = excluded.last_seq, outlines = excluded.outlines, sizes = excluded.sizes`,
		[tenant, sessionId, token, JSON.stringify(pages)],
	);
}

/** A stored page's entries, or undefined when the row is not a well-formed page of its seqs. */
export function decodeOutlinePage(
	firstSeq: number,
	lastSeq: number,
	outlinesText: string | null,
	sizesText: string | null,
): { outlines: (object | null)[]; sizes: number[] } | undefined {
	const count = lastSeq - firstSeq + 1;
	if (!Number.isSafeInteger(count) || count < 1 || outlinesText === null || sizesText === null) return undefined;
	let outlines: unknown;
	try {
		outlines = JSON.parse(outlinesText);
	} catch {
		return undefined;
	}
	if (!Array.isArray(outlines) || outlines.length !== count) return undefined;
	for (const outline of outlines) if (outline !== null && !isMessageOutline(outline)) return undefined;
	// int[] as the server writes it: {1,2,3}
	if (!sizesText.startsWith("{") || !sizesText.endsWith("}") || sizesText === "{}") return undefined;
	const sizes = sizesText.slice(1, -1).split(",").map(Number);
	if (sizes.length !== count || sizes.some((size) => !Number.isSafeInteger(size) || size < 0)) return undefined;
	return { outlines: outlines as (object | null)[], sizes };
}

function isMessageOutline(value: unknown): boolean {
	if (typeof value !== "object" || value === null) return false;
	const record = value as { type?: unknown; id?: unknown; message?: unknown };
	return (
		record.type === "message" &&
		typeof record.id === "string" &&
		typeof record.message === "object" &&
		record.message !== null
	);
}

// The outline half of scanOutlines: the records of a session up to a seq as their outlines where
// there are outlines, in seq order. Outline pages (postgres-outline-pages.ts) are read first, 16 to
// a round trip; what no well-formed page covers (records after the last page, a session no writer
// has paged yet, a page that does not parse) is read from the record rows, outline column first.

import {
	type ParsedSessionRecord,
	parseStoredLine,
	type SessionMessageRecord,
	type TranscriptReadProblem,
} from "@keel/agent-core/session";
import type { Pool } from "pg";
import { decodeOutlinePage } from "./postgres-outline-pages.js";
import { queryTextRows } from "./postgres-text-rows.js";

/** Pages per round trip: ~1.6 MB of outlines, about 8,000 records. */
const PAGES_PER_ROUND_TRIP = 16;
/** Record rows per round trip where no page covers them: outlines are ~200 bytes, so about 1 MiB. */
const OUTLINE_ROWS_PER_ROUND_TRIP = 5_000;

export interface OutlineScanTarget {
	pool: Pool;
	/** Already quoted as an identifier. */
	schema: string;
	tenant: string;
	sessionId: string;
}

export type OutlineVisitor = (
	record: ParsedSessionRecord,
	lineNumber: number,
	position: number,
	outlined: boolean,
	bytes: number,
) => void;

type Segment =
	| { rowsAfter: number; rowsUpTo: number }
	| { first: number; count: number; outlines: (object | null)[]; sizes: number[] };

/** Visits the records from seq 1 up to `last`: outlines where there are, full records elsewhere. */
export async function scanOutlinesUpTo(
	target: OutlineScanTarget,
	last: number,
	visit: OutlineVisitor,
	problems: TranscriptReadProblem[],
): Promise<void> {
	const { pool, schema, tenant, sessionId } = target;
	let next = 1;
	let pagesAfter = 0;
	while (next <= last) {
		const pages = await queryTextRows(
			pool,
			`SELECT first_seq, last_seq, outlines, sizes FROM ${schema}.keel_outline_pages
			WHERE tenant = $1 AND session_id = $2 AND first_seq > $3 AND first_seq <= $4
			ORDER BY first_seq LIMIT ${PAGES_PER_ROUND_TRIP}`,
			[tenant, sessionId, pagesAfter, last],
		);
		if (pages.length === 0) break;
		pagesAfter = Number(pages[pages.length - 1][0]);
		const segments: Segment[] = [];
		const fullSeqs: number[] = [];
		for (const [firstText, lastText, outlinesText, sizesText] of pages) {
			const first = Number(firstText);
			if (first < next) continue; // overlaps what was read already
			const page = decodeOutlinePage(first, Number(lastText), outlinesText, sizesText);
			if (!page) continue; // read from the record rows instead, like a gap
			if (first > next) segments.push({ rowsAfter: next - 1, rowsUpTo: first - 1 });
			const count = Math.min(page.outlines.length, last - first + 1);
			segments.push({ first, count, outlines: page.outlines, sizes: page.sizes });
			for (let index = 0; index < count; index++) if (page.outlines[index] === null) fullSeqs.push(first + index);
			next = first + count;
		}
		const fullLines = await readLines(target, fullSeqs);
		for (const segment of segments) {
			if ("rowsAfter" in segment) {
				await scanOutlineRows(target, segment.rowsAfter, segment.rowsUpTo, visit, problems);
				continue;
			}
			const { first, count, outlines } = segment;
			for (let index = 0; index < count; index++) {
				const seq = first + index;
				const outline = outlines[index];
				if (outline !== null) {
					visit(outline as SessionMessageRecord, seq, seq, true, segment.sizes[index]);
					continue;
				}
				const full = fullLines.get(seq);
				if (full === undefined) continue; // no such record, as the row scan would find
				for (const record of parseStoredLine(full.line, seq, problems)) visit(record, seq, seq, false, full.bytes);
			}
		}
	}
	await scanOutlineRows(target, next - 1, last, visit, problems);
}

/** The full lines (and stored sizes) of the records at these seqs. */
async function readLines(
	target: OutlineScanTarget,
	seqs: number[],
): Promise<Map<number, { line: string; bytes: number }>> {
	const lines = new Map<number, { line: string; bytes: number }>();
	if (seqs.length === 0) return lines;
	const rows = await queryTextRows(
		target.pool,
		`SELECT seq, line, octet_length(line) FROM ${target.schema}.keel_records
		WHERE tenant = $1 AND session_id = $2 AND seq = ANY($3::bigint[]) AND seq BETWEEN $4 AND $5`,
		// In seq order: the range bounds the index scan whatever the planner estimates (see readAt).
		[target.tenant, target.sessionId, seqs, seqs[0], seqs[seqs.length - 1]],
	);
	for (const [seq, line, bytes] of rows) lines.set(Number(seq), { line: line as string, bytes: Number(bytes) });
	return lines;
}

/** The records after `after` up to `upTo` from their rows: the outline column where there is one. */
async function scanOutlineRows(
	target: OutlineScanTarget,
	after: number,
	upTo: number,
	visit: OutlineVisitor,
	problems: TranscriptReadProblem[],
): Promise<void> {
	while (after < upTo) {
		// The full line only where there is no outline: the outline is all load: "context" reads.
		// octet_length is answered from a stored value's header (a compressed or TOASTed line is
		// not decompressed or fetched for it).
		const rows = await queryTextRows(
			target.pool,
			`SELECT seq, outline, CASE WHEN outline IS NULL THEN line END AS line, octet_length(line) AS bytes
			FROM ${target.schema}.keel_records
			WHERE tenant = $1 AND session_id = $2 AND seq > $3 AND seq <= $4 ORDER BY seq LIMIT ${OUTLINE_ROWS_PER_ROUND_TRIP}`,
			[target.tenant, target.sessionId, after, upTo],
		);
		if (rows.length === 0) break;
		for (const [seqText, outline, line, bytes] of rows) {
			const seq = Number(seqText);
			if (outline !== null) {
				visit(JSON.parse(outline) as SessionMessageRecord, seq, seq, true, Number(bytes));
				continue;
			}
			for (const record of parseStoredLine(line as string, seq, problems))
				visit(record, seq, seq, false, Number(bytes));
		}
		after = Number(rows[rows.length - 1][0]);
	}
}

// What the transcript stores built on a database (the SQLite and PostgreSQL packages) check and read
// the same way: their tenant, lease and record-size options, a stored line read back as records, and
// the positions `readAt` is asked for.
// One place, so a tenant name or a malformed row means the same thing whichever database holds it.
import type { ParsedSessionRecord } from "./record-format.js";
import { parseSessionRecords } from "./record-format.js";
import type { TranscriptReadProblem } from "./session-types.js";

/** The largest record a database store writes unless told otherwise (one row, one record). */
export const DEFAULT_MAX_RECORD_BYTES = 32 * 1024 * 1024;
/** How long a database store's writer lease lasts without a heartbeat unless told otherwise. */
export const DEFAULT_LEASE_MS = 30_000;
/** Tenants are keys in an index: a bound keeps a typo'd or hostile value from becoming a huge one. */
const MAX_TENANT_LENGTH = 160;

export interface DatabaseStoreLimits {
	tenant: string;
	leaseMs: number;
	maxRecordBytes: number;
}

/** What one database can hold, for the message that refuses a `maxRecordBytes` beyond it. */
export interface DatabaseCapacity {
	/** The database, as the message names it ("PostgreSQL", "SQLite"). */
	database: string;
	/** The largest record the store can write and read back (its package says why that many). */
	largestRecordBytes: number;
}

/**
 * The tenant, lease and record limit of a database store's options, checked, with the defaults
 * filled in. A `maxRecordBytes` above what the database can hold is refused here, when the store is
 * made, rather than by the first append that large.
 */
export function checkDatabaseStoreLimits(
	options: {
		tenant?: unknown;
		leaseMs?: unknown;
		maxRecordBytes?: unknown;
	},
	capacity: DatabaseCapacity,
): DatabaseStoreLimits {
	const tenant = options.tenant ?? "default";
	assertValidTenant(tenant);
	const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
	const maxRecordBytes = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
	if (!Number.isInteger(leaseMs) || (leaseMs as number) <= 0) {
		throw new TypeError(`leaseMs must be a positive integer, got ${String(leaseMs)}.`);
	}
	if (!Number.isInteger(maxRecordBytes) || (maxRecordBytes as number) <= 0) {
		throw new TypeError(`maxRecordBytes must be a positive integer, got ${String(maxRecordBytes)}.`);
	}
	if ((maxRecordBytes as number) > capacity.largestRecordBytes) {
		throw new RangeError(
			`maxRecordBytes must be at most ${capacity.largestRecordBytes} (the largest record the ${capacity.database} store can hold), got ${maxRecordBytes}.`,
		);
	}
	return { tenant, leaseMs: leaseMs as number, maxRecordBytes: maxRecordBytes as number };
}

/** Refuses a tenant that is not a non-empty string of at most 160 characters (`forTenant` too). */
export function assertValidTenant(tenant: unknown): asserts tenant is string {
	if (typeof tenant !== "string" || tenant.length === 0 || tenant.length > MAX_TENANT_LENGTH) {
		throw new TypeError(
			`tenant must be a non-empty string of at most ${MAX_TENANT_LENGTH} characters, got ${JSON.stringify(tenant)}.`,
		);
	}
}

/**
 * The records of one stored line (`seq` as its line number), or none with a "malformed" problem
 * added: a row damaged by hand is reported like a damaged JSONL line, and the rest still read.
 */
export function parseStoredLine(
	line: string,
	lineNumber: number,
	problems: TranscriptReadProblem[],
): ParsedSessionRecord[] {
	try {
		return parseSessionRecords(line, lineNumber);
	} catch (error) {
		problems.push({ line: lineNumber, kind: "malformed", message: (error as Error).message });
		return [];
	}
}

/**
 * Refuses, before any query, a position no database store can hold: positions are the records'
 * sequence numbers, integers from 1 (a fraction or NaN would otherwise reach the database's cast).
 */
export function assertRecordPositions(sessionId: string, positions: readonly number[]): void {
	for (const position of positions) {
		if (!Number.isInteger(position) || position < 1) {
			throw new RangeError(`position ${position} is not a record of session "${sessionId}" (positions start at 1)`);
		}
	}
}

/**
 * The records at `positions`, in the order asked (a repeated position read again), from the rows a
 * store read for them; a position with no row is refused rather than skipped, so a caller never
 * builds a context with a record silently missing. PostgreSQL returns its bigint `seq` as a string.
 */
export function recordsAtPositions(
	sessionId: string,
	positions: readonly number[],
	rows: Iterable<{ seq: number | string; line: string }>,
): ParsedSessionRecord[] {
	const byPosition = new Map<number, ParsedSessionRecord[]>();
	for (const row of rows) byPosition.set(Number(row.seq), parseSessionRecords(row.line, Number(row.seq)));
	return positions.flatMap((position) => {
		const records = byPosition.get(position);
		if (!records) throw new RangeError(`position ${position} is not a record of session "${sessionId}"`);
		return records;
	});
}

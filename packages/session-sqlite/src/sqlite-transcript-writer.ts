// The writer of one session: a lease on the session's row, fenced by a token. Opening takes the
// lease (refused while another writer's lease is live); every append is one transaction (its own, or
// part of one shared with the appends made while another commits: sqlite-append-batcher.ts) that
// first moves the session's `last_seq` on — only while the row still carries this writer's
// token and the number the writer expects — then
// inserts the records, and the outline page they fill when they fill one (sqlite-outline-pages.ts);
// the records before them that no page covers are paged in the background (sqlite-outline-backfill.ts).
// A writer whose lease was taken over is refused before it writes anything
// (SessionFencedError), so two processes can never interleave records in one session.

import {
	type DatabaseOpenWriterOptions,
	foldForSearch,
	outlineMessageRecord,
	SessionFencedError,
	type SessionHeaderRecord,
	SessionLockedError,
	SessionNotFoundError,
	type SessionRecord,
	SessionRecordError,
	serializeSessionRecord,
	type TranscriptWriter,
} from "@keel/agent-core/session";
import { describeThisWriter, isLeaseLive, parseWriterHolder } from "@keel/agent-core/session/jsonl";
import type { Database } from "better-sqlite3";
import { appendBatcherOf } from "./sqlite-append-batcher.js";
import { describeFailedWrite } from "./sqlite-errors.js";
import {
	hasUnpagedRecords,
	type OutlineBackfill,
	registerOutlineBackfill,
	startOutlineBackfill,
} from "./sqlite-outline-backfill.js";
import { OUTLINE_PAGE_RECORDS, type PendingPage, pageEntryOf, readPendingPage } from "./sqlite-outline-pages.js";

export interface SqliteWriterContext {
	database: Database;
	tenant: string;
	leaseMs: number;
	maxRecordBytes: number;
}

/** How `openWriter` opens a session: the options every database store takes. */
export type SqliteOpenWriterOptions = DatabaseOpenWriterOptions;

interface SessionRow {
	writer_token: number;
	writer_holder: string | null;
	lease_expires_at: number | null;
	last_seq: number;
}

interface EncodedRecord {
	line: string;
	bytes: number;
	role: string | null;
	/** The message's outline as JSON, for `scanOutlines`; null when the record is kept whole. */
	outline: string | null;
	/** The record's entry in its outline page (sqlite-outline-pages.ts). */
	pageEntry: string;
}

/** Serialises and measures records before any write, so a record that cannot be stored stops the whole batch. */
export function encodeRecords(records: SessionRecord[], maxRecordBytes: number): EncodedRecord[] {
	return records.map((record) => {
		const line = serializeSessionRecord(record);
		const bytes = Buffer.byteLength(line);
		if (bytes > maxRecordBytes) {
			throw new SessionRecordError(
				`a ${record.type} record of ${bytes} bytes is over the limit of ${maxRecordBytes} bytes (maxRecordBytes); nothing of this append was written`,
			);
		}
		const role = record.type === "message" ? String((record.message as { role?: unknown }).role) : null;
		const outlined = outlineMessageRecord(record);
		const outline = outlined === undefined ? null : JSON.stringify(outlined);
		return { line, bytes, role, outline, pageEntry: pageEntryOf(outline, bytes) };
	});
}

export function openSqliteWriter(
	context: SqliteWriterContext,
	sessionId: string,
	options: SqliteOpenWriterOptions = {},
): TranscriptWriter {
	const { database, tenant, leaseMs, maxRecordBytes } = context;
	const header = options.create;
	const encodedHeader = header ? validateHeader(header, sessionId, maxRecordBytes) : undefined;
	const selectSession = database.prepare(
		"SELECT writer_token, writer_holder, lease_expires_at, last_seq FROM keel_sessions WHERE tenant = ? AND session_id = ?",
	);
	// The outline stays in the record's row too: the records no page covers yet (the last page's
	// worth, at most, in a session written with pages) are read from there (sqlite-outline-pages.ts).
	const insertRecord = database.prepare(
		"INSERT INTO keel_records (tenant, session_id, seq, role, line, outline) VALUES (?, ?, ?, ?, ?, ?)",
	);
	const insertPage = database.prepare(
		"INSERT OR REPLACE INTO keel_outline_pages (tenant, session_id, first_seq, last_seq, outlines) VALUES (?, ?, ?, ?, ?)",
	);

	// The number of the session's last record, as this writer last saw it committed or about to be.
	let lastSeq = 0;
	// The page entries of the records after the session's last page, up to `lastSeq`: kept in step
	// with `lastSeq` (pending.first + pending.entries.length === lastSeq + 1), and read again with it.
	let pending: PendingPage = { first: 1, entries: [] };
	// Whether the session has whole pages' worth of records before the pending page that no page
	// covers (one written before pages existed): those are paged in the background (sqlite-outline-backfill.ts).
	let backfillNeeded = false;
	const openSession = database.transaction((): number => {
		const now = Date.now();
		const row = selectSession.get(tenant, sessionId) as SessionRow | undefined;
		if (!row) {
			if (!header || !encodedHeader) throw new SessionNotFoundError(sessionId);
			database
				.prepare(
					`INSERT INTO keel_sessions (tenant, session_id, created_at, updated_at, title, title_search,
							parent_session_id, parent_message_id, size_bytes, last_seq, writer_token, writer_holder, lease_expires_at)
						VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 1, ?, ?)`,
				)
				.run(
					tenant,
					sessionId,
					header.timestamp,
					header.timestamp,
					header.title ?? null,
					header.title === undefined ? null : foldForSearch(header.title),
					header.parentSessionId ?? null,
					header.parentMessageId ?? null,
					encodedHeader.bytes + 1,
					describeThisWriter(),
					now + leaseMs,
				);
			insertRecord.run(tenant, sessionId, 1, null, encodedHeader.line, null);
			lastSeq = 1;
			pending = { first: 1, entries: [encodedHeader.pageEntry] };
			return 1;
		}
		if (isLeaseLive(row.writer_holder, row.lease_expires_at, now) && !options.takeOver) {
			throw new SessionLockedError(sessionId, parseWriterHolder(row.writer_holder));
		}
		database
			.prepare(
				"UPDATE keel_sessions SET writer_token = ?, writer_holder = ?, lease_expires_at = ? WHERE tenant = ? AND session_id = ?",
			)
			.run(row.writer_token + 1, describeThisWriter(), now + leaseMs, tenant, sessionId);
		lastSeq = row.last_seq;
		pending = readPendingPage(database, tenant, sessionId, lastSeq);
		backfillNeeded = hasUnpagedRecords(database, tenant, sessionId, pending.first);
		return row.writer_token + 1;
	});
	let token: number;
	try {
		token = openSession.immediate();
	} catch (error) {
		throw describeFailedWrite(error, database.name, sessionId);
	}

	// No RETURNING: the writer knows the session's last record number (it holds the lease), and a
	// plain UPDATE costs measurably less CPU per append than one returning a row (docs/sessions.md,
	// "Store figures"). `last_seq = ?` in the WHERE both fences and catches a number this writer got
	// wrong (a group transaction that failed after its append ran), which is then read again.
	const moveOn = database.prepare(
		`UPDATE keel_sessions SET last_seq = last_seq + ?, size_bytes = size_bytes + ?,
			updated_at = max(updated_at, ?), title = coalesce(?, title), title_search = coalesce(?, title_search),
			lease_expires_at = ?
		WHERE tenant = ? AND session_id = ? AND writer_token = ? AND last_seq = ?`,
	);
	const renew = database.prepare(
		"UPDATE keel_sessions SET lease_expires_at = ? WHERE tenant = ? AND session_id = ? AND writer_token = ?",
	);
	const release = database.prepare(
		"UPDATE keel_sessions SET writer_holder = NULL, lease_expires_at = NULL WHERE tenant = ? AND session_id = ? AND writer_token = ?",
	);

	// Run by the batcher inside a transaction (alone, or in a group's): all of it or none. A group is
	// rolled back whole when another of its appends fails, and this runs again: the number it kept
	// from the first run is then ahead of the session's, and is read again below.
	const appendNow = (records: SessionRecord[], encoded: EncodedRecord[]): void => {
		let newestTimestamp = Number.NEGATIVE_INFINITY;
		let title: string | null = null;
		let bytes = 0;
		for (let index = 0; index < records.length; index++) {
			newestTimestamp = Math.max(newestTimestamp, records[index].timestamp);
			if (records[index].type === "title") title = (records[index] as { title: string }).title;
			bytes += encoded[index].bytes + 1;
		}
		const moveOnFrom = (seq: number) =>
			moveOn.run(
				records.length,
				bytes,
				newestTimestamp,
				title,
				title === null ? null : foldForSearch(title),
				Date.now() + leaseMs,
				tenant,
				sessionId,
				token,
				seq,
			).changes === 1;
		if (!moveOnFrom(lastSeq)) {
			const row = selectSession.get(tenant, sessionId) as SessionRow | undefined;
			if (row === undefined) throw new SessionNotFoundError(sessionId);
			if (row.writer_token !== token) throw new SessionFencedError(sessionId, "its lease was taken by another writer");
			// Still this writer's session: the number it kept was ahead of what committed.
			if (!moveOnFrom(row.last_seq)) throw new SessionFencedError(sessionId, "its session changed under it");
			lastSeq = row.last_seq;
		}
		for (let index = 0; index < records.length; index++) {
			const record = encoded[index];
			insertRecord.run(tenant, sessionId, lastSeq + 1 + index, record.role, record.line, record.outline);
		}
		const nextPending = pageFull(encoded);
		// Only once every insert ran: a failed one rolls this append back, number and page included.
		lastSeq += records.length;
		if (nextPending) pending = nextPending;
		else for (const record of encoded) pending.entries.push(record.pageEntry);
	};

	// When the append's records fill the pending page: writes the page (and any further full one)
	// and returns the pending page that follows. Undefined when no page fills, leaving `pending` as is.
	const pageFull = (encoded: EncodedRecord[]): PendingPage | undefined => {
		// Out of step with the number (read again above after a rolled-back run): read back from what committed.
		if (pending.first + pending.entries.length !== lastSeq + 1) {
			pending = readPendingPage(database, tenant, sessionId, lastSeq);
		}
		if (pending.entries.length + encoded.length < OUTLINE_PAGE_RECORDS) return undefined;
		const entries = pending.entries.concat(encoded.map((record) => record.pageEntry));
		let start = 0;
		for (; entries.length - start >= OUTLINE_PAGE_RECORDS; start += OUTLINE_PAGE_RECORDS) {
			const first = pending.first + start;
			const page = `[${entries.slice(start, start + OUTLINE_PAGE_RECORDS).join(",")}]`;
			insertPage.run(tenant, sessionId, first, first + OUTLINE_PAGE_RECORDS - 1, page);
		}
		return { first: pending.first + start, entries: entries.slice(start) };
	};

	// Keeps the lease alive while the writer is open but idle; a writer that is fenced or closed stops.
	const heartbeat = setInterval(
		() => {
			try {
				if (renew.run(Date.now() + leaseMs, tenant, sessionId, token).changes === 0) clearInterval(heartbeat);
			} catch {
				clearInterval(heartbeat); // The database was closed under the writer.
			}
		},
		Math.max(1, Math.floor(leaseMs / 3)),
	);
	heartbeat.unref();

	const backfill: OutlineBackfill | undefined = backfillNeeded
		? startOutlineBackfill(database, tenant, sessionId, token, pending.first)
		: undefined;

	const batcher = appendBatcherOf(database);
	let closed = false;
	// The last append handed to the batcher: close() waits for it to commit before releasing the lease.
	let last: Promise<unknown> = Promise.resolve();
	const writer: TranscriptWriter = {
		sessionId,
		async append(records) {
			if (closed) throw new Error(`The writer of session "${sessionId}" is closed; open a new one to append.`);
			const batch = Array.isArray(records) ? records : [records];
			if (batch.length === 0) return;
			const encoded = encodeRecords(batch, maxRecordBytes);
			const done = batcher.run(() => appendNow(batch, encoded));
			last = done.catch(() => {});
			try {
				await done;
			} catch (error) {
				throw describeFailedWrite(error, database.name, sessionId);
			}
		},
		async flush() {
			await last; // Each append is committed when its promise resolves.
		},
		async close() {
			if (closed) return;
			closed = true;
			clearInterval(heartbeat);
			backfill?.stop();
			await backfill?.done;
			await last;
			release.run(tenant, sessionId, token);
		},
	};
	if (backfill) registerOutlineBackfill(writer, backfill);
	return writer;
}

function validateHeader(header: SessionHeaderRecord, sessionId: string, maxRecordBytes: number): EncodedRecord {
	if (header.type !== "session" || header.sessionId !== sessionId) {
		throw new SessionRecordError(
			`the create header must be a "session" record with sessionId "${sessionId}", got type ${JSON.stringify(header.type)} and sessionId ${JSON.stringify(header.sessionId)}`,
		);
	}
	return encodeRecords([header], maxRecordBytes)[0];
}

// The writer of one session: a lease on the session's row, fenced by a token. Opening takes the
// lease (refused while another writer's lease is live, unless `takeOver`); every append goes in ONE
// statement (shared with other sessions' appends of the same moment: postgres-append-batcher.ts)
// that moves the session's `last_seq` on — only while the row still carries this writer's token —
// and inserts the records numbered from there. PostgreSQL runs a statement
// atomically and the row lock orders appenders, so a writer whose lease was taken over is refused
// before it writes anything (SessionFencedError) and two instances never interleave records. Lease
// times come from the database's clock, so instances with skewed clocks agree. Closing releases the
// lease; when the server cannot be reached then, close still resolves and the release is finished
// later (postgres-lease-release.ts). The writer also keeps the outlines of its records that are in
// no outline page yet, and an append that fills a page carries it (postgres-outline-pages.ts).

import {
	type DatabaseOpenWriterOptions,
	foldForSearch,
	outlineMessageRecord,
	SessionFencedError,
	SessionLockedError,
	SessionNotFoundError,
	type SessionRecord,
	SessionRecordError,
	searchableText,
	serializeSessionRecord,
	type TranscriptWriter,
} from "@keel/agent-core/session";
import { describeThisWriter, isLeaseLive, parseWriterHolder } from "@keel/agent-core/session/jsonl";
import type { Pool } from "pg";
import type { AppendBatcher } from "./postgres-append-batcher.js";
import { POSTGRES_MAX_RECORD_BYTES } from "./postgres-capacity.js";
import { checkOut, describeFailedAppend, describeFailedCall } from "./postgres-connection.js";
import { closedWriterToken, forgetClosedWriter, releaseClosedLease } from "./postgres-lease-release.js";
import { createPendingOutlinePage, type PendingOutlinePage, pickUpUncoveredRecords } from "./postgres-outline-pages.js";
import { DATABASE_NOW_MS } from "./postgres-schema.js";

export interface PostgresWriterContext {
	pool: Pool;
	/** The schema, already quoted as an identifier. */
	schema: string;
	tenant: string;
	leaseMs: number;
	maxRecordBytes: number;
	/** Where the server is, for messages (no password). */
	target: string;
	/** Sends the appends of all this store's writers made in one turn as one statement. */
	batcher: AppendBatcher;
}

/** How `openWriter` opens a session: the options every database store takes. */
export type PostgresOpenWriterOptions = DatabaseOpenWriterOptions;

interface EncodedBatch {
	lines: string[];
	/** Each message's outline as JSON, for `scanOutlines`; null for a record kept whole. */
	outlines: (string | null)[];
	/** Each line's size in bytes. */
	sizes: number[];
	roles: (string | null)[];
	searchTexts: (string | null)[];
	bytes: number;
	newestTimestamp: number;
	title: string | null;
}

/**
 * Serialises and measures a batch before any write, so a record that cannot be stored stops all of
 * it; so does a batch too large for the one statement that carries it (postgres-capacity.ts).
 */
function encodeBatch(records: SessionRecord[], maxRecordBytes: number): EncodedBatch {
	const batch: EncodedBatch = {
		lines: [],
		outlines: [],
		sizes: [],
		roles: [],
		searchTexts: [],
		bytes: 0,
		newestTimestamp: Number.NEGATIVE_INFINITY,
		title: null,
	};
	for (const record of records) {
		const line = serializeSessionRecord(record);
		const bytes = Buffer.byteLength(line);
		if (bytes > maxRecordBytes) {
			throw new SessionRecordError(
				`a ${record.type} record of ${bytes} bytes is over the limit of ${maxRecordBytes} bytes (maxRecordBytes); nothing of this append was written`,
			);
		}
		const role = record.type === "message" ? String((record.message as { role?: unknown }).role) : null;
		const text = role === null ? "" : searchableText(record);
		batch.lines.push(line);
		const outlined = outlineMessageRecord(record);
		batch.outlines.push(outlined === undefined ? null : JSON.stringify(outlined));
		batch.sizes.push(bytes);
		batch.roles.push(role);
		batch.searchTexts.push(text === "" ? null : foldForSearch(text));
		batch.bytes += bytes + 1;
		batch.newestTimestamp = Math.max(batch.newestTimestamp, record.timestamp);
		if (record.type === "title") batch.title = record.title;
	}
	if (batch.bytes > POSTGRES_MAX_RECORD_BYTES) {
		throw new SessionRecordError(
			`an append of ${records.length} records and ${batch.bytes} bytes is over the ${POSTGRES_MAX_RECORD_BYTES} bytes one append can carry to PostgreSQL (POSTGRES_MAX_RECORD_BYTES); nothing of it was written: append its records in smaller groups`,
		);
	}
	return batch;
}

export async function openPostgresWriter(
	context: PostgresWriterContext,
	sessionId: string,
	options: PostgresOpenWriterOptions = {},
): Promise<TranscriptWriter> {
	const { pool, schema, tenant, leaseMs, maxRecordBytes } = context;
	const header = options.create;
	if (header && (header.type !== "session" || header.sessionId !== sessionId)) {
		throw new SessionRecordError(
			`the create header must be a "session" record with sessionId "${sessionId}", got type ${JSON.stringify(header.type)} and sessionId ${JSON.stringify(header.sessionId)}`,
		);
	}
	const encodedHeader = header ? encodeBatch([header], maxRecordBytes) : undefined;

	const client = await checkOut(pool);
	let token: number;
	let lastSeq: number;
	try {
		await client.query("BEGIN");
		if (header && encodedHeader) {
			const created = await client.query(
				`INSERT INTO ${schema}.keel_sessions (tenant, session_id, created_at, updated_at, title, title_search,
					parent_session_id, parent_message_id, size_bytes, last_seq, writer_token, writer_holder, lease_expires_at)
				VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, 1, 1, $9, ${DATABASE_NOW_MS} + $10)
				ON CONFLICT (tenant, session_id) DO NOTHING`,
				[
					tenant,
					sessionId,
					header.timestamp,
					header.title ?? null,
					header.title === undefined ? null : foldForSearch(header.title),
					header.parentSessionId ?? null,
					header.parentMessageId ?? null,
					encodedHeader.bytes,
					describeThisWriter(),
					leaseMs,
				],
			);
			if (created.rowCount === 1) {
				await client.query(
					`INSERT INTO ${schema}.keel_records (tenant, session_id, seq, role, line) VALUES ($1, $2, 1, NULL, $3)`,
					[tenant, sessionId, encodedHeader.lines[0]],
				);
				await client.query("COMMIT");
				const pending = createPendingOutlinePage(0);
				pending.add(encodedHeader.outlines, encodedHeader.sizes);
				pending.written();
				return createWriter(context, sessionId, 1, pending);
			}
		}
		const { rows } = await client.query<{
			last_seq: string;
			writer_token: string;
			writer_holder: string | null;
			lease_expires_at: string | null;
			now: string;
		}>(
			`SELECT last_seq, writer_token, writer_holder, lease_expires_at, ${DATABASE_NOW_MS} AS now
			FROM ${schema}.keel_sessions WHERE tenant = $1 AND session_id = $2 FOR UPDATE`,
			[tenant, sessionId],
		);
		const row = rows[0];
		if (!row) throw new SessionNotFoundError(sessionId);
		const expiresAt = row.lease_expires_at === null ? null : Number(row.lease_expires_at);
		// A lease still held by a writer this pool's stores closed (its release could not reach the
		// server) holds nothing: that writer appends no more (postgres-lease-release.ts).
		const heldByClosedWriter = closedWriterToken(pool, schema, tenant, sessionId) === Number(row.writer_token);
		if (isLeaseLive(row.writer_holder, expiresAt, Number(row.now)) && !options.takeOver && !heldByClosedWriter) {
			throw new SessionLockedError(sessionId, parseWriterHolder(row.writer_holder));
		}
		token = Number(row.writer_token) + 1;
		lastSeq = Number(row.last_seq);
		await client.query(
			`UPDATE ${schema}.keel_sessions SET writer_token = $3, writer_holder = $4, lease_expires_at = ${DATABASE_NOW_MS} + $5
			WHERE tenant = $1 AND session_id = $2`,
			[tenant, sessionId, token, describeThisWriter(), leaseMs],
		);
		await client.query("COMMIT");
		forgetClosedWriter(pool, schema, tenant, sessionId);
	} catch (error) {
		await client.query("ROLLBACK").catch(() => {});
		throw error;
	} finally {
		client.release();
	}
	const pending = await pickUpUncoveredRecords(pool, schema, tenant, sessionId, token, lastSeq);
	return createWriter(context, sessionId, token, pending);
}

function createWriter(
	context: PostgresWriterContext,
	sessionId: string,
	token: number,
	initialPending: PendingOutlinePage,
): TranscriptWriter {
	const { pool, schema, tenant, leaseMs, maxRecordBytes, batcher, target } = context;
	let closed = false;
	// Appends run one after another even when not awaited: each waits for the previous one's commit,
	// so a writer has at most one append in a batch and its records keep their order.
	let queue: Promise<void> = Promise.resolve();
	// Undefined after an append whose outcome is not known (it may have been committed): the records
	// not yet paged are read back from the database before the next append.
	let pending: PendingOutlinePage | undefined = initialPending;

	async function pendingPage(): Promise<PendingOutlinePage> {
		if (pending) return pending;
		const { rows } = await pool.query<{ last_seq: string }>(
			`SELECT last_seq FROM ${schema}.keel_sessions WHERE tenant = $1 AND session_id = $2`,
			[tenant, sessionId],
		);
		if (rows.length === 0) throw new SessionNotFoundError(sessionId);
		pending = await pickUpUncoveredRecords(pool, schema, tenant, sessionId, token, Number(rows[0].last_seq));
		return pending;
	}

	async function appendNow(records: SessionRecord[]): Promise<void> {
		const batch = encodeBatch(records, maxRecordBytes);
		const page = await pendingPage().catch((error: unknown) => {
			throw error instanceof SessionNotFoundError ? error : describeFailedAppend(error, target, sessionId);
		});
		const afterSeq = page.lastSeq;
		const pages = page.add(batch.outlines, batch.sizes);
		const moved = await new Promise<boolean>((resolve, reject) => {
			batcher.append({
				sessionId,
				token,
				lines: batch.lines,
				outlines: batch.outlines,
				roles: batch.roles,
				searchTexts: batch.searchTexts,
				bytes: batch.bytes,
				newestTimestamp: batch.newestTimestamp,
				title: batch.title,
				titleSearch: batch.title === null ? null : foldForSearch(batch.title),
				afterSeq,
				pages,
				settle: (outcome) => {
					if ("error" in outcome) {
						page.dropped();
						pending = undefined;
						reject(describeFailedAppend(outcome.error, target, sessionId));
					} else {
						if (outcome.moved) page.written();
						else page.dropped();
						resolve(outcome.moved);
					}
				},
			});
		});
		if (moved) return;
		const { rowCount } = await pool
			.query(`SELECT 1 FROM ${schema}.keel_sessions WHERE tenant = $1 AND session_id = $2`, [tenant, sessionId])
			.catch((error: unknown) => {
				throw describeFailedAppend(error, target, sessionId);
			});
		if (rowCount === 0) throw new SessionNotFoundError(sessionId);
		throw new SessionFencedError(sessionId, "its lease was taken by another writer");
	}

	// Keeps the lease alive while the writer is open but idle; stops once fenced or closed.
	const heartbeat = setInterval(
		() => {
			pool
				.query(
					`UPDATE ${schema}.keel_sessions SET lease_expires_at = ${DATABASE_NOW_MS} + $4
					WHERE tenant = $1 AND session_id = $2 AND writer_token = $3`,
					[tenant, sessionId, token, leaseMs],
				)
				.then(
					(result) => {
						if (result.rowCount === 0) clearInterval(heartbeat);
					},
					() => {
						// The server is away for now; the lease may lapse, and the next append says so.
					},
				);
		},
		Math.max(1, Math.floor(leaseMs / 3)),
	);
	heartbeat.unref();

	return {
		sessionId,
		append(records) {
			if (closed)
				return Promise.reject(new Error(`The writer of session "${sessionId}" is closed; open a new one to append.`));
			const batch = Array.isArray(records) ? records : [records];
			const result = queue.then(() => (batch.length === 0 ? undefined : appendNow(batch)));
			queue = result.catch(() => {});
			return result;
		},
		async flush() {
			await queue; // Each append is committed when its statement returns.
		},
		async close() {
			if (closed) return;
			closed = true;
			clearInterval(heartbeat);
			await queue;
			// Each append has settled and reported its own outcome. A release the server was not there
			// for does not fail close: it is retried in the background, and this pool's next openWriter
			// of the session takes the lease at once (postgres-lease-release.ts).
			await releaseClosedLease({ pool, schema, tenant, sessionId, token, leaseMs }).catch((error: unknown) => {
				throw describeFailedCall(error, target, `close of the writer of session "${sessionId}"`);
			});
		},
	};
}

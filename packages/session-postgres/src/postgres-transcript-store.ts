// The PostgreSQL transcript store: every session in the tables of one schema (postgres-schema.ts),
// shared by any number of processes and tenants. A store is scoped to one tenant: every statement
// names it, so one tenant's store can neither read, list, write nor delete another's sessions (two
// tenants may even use the same session id).

import {
	assertRecordPositions,
	assertValidListOptions,
	assertValidSessionId,
	assertValidTenant,
	checkDatabaseStoreLimits,
	type DatabaseTranscriptStore,
	foldForSearch,
	isSummaryRecord,
	type ParsedSessionRecord,
	parseStoredLine,
	recordsAtPositions,
	type SessionInfo,
	type SessionListOptions,
	SessionLockedError,
	SessionNotFoundError,
	type TranscriptReadProblem,
	type TranscriptTail,
} from "@keel/agent-core/session";
import { isLeaseLive, parseWriterHolder } from "@keel/agent-core/session/jsonl";
import { escapeIdentifier, type Pool, type PoolConfig } from "pg";
import { createAppendBatcher } from "./postgres-append-batcher.js";
import { POSTGRES_MAX_RECORD_BYTES } from "./postgres-capacity.js";
import {
	assertSchemaExists,
	checkOut,
	connectFirst,
	createPool,
	describeFailedCall,
	describeTarget,
} from "./postgres-connection.js";
import { scanOutlinesUpTo } from "./postgres-outline-scan.js";
import { DATABASE_NOW_MS, migratePostgresSchema } from "./postgres-schema.js";
import { queryTextRows } from "./postgres-text-rows.js";
import { openPostgresWriter } from "./postgres-transcript-writer.js";

export interface PostgresTranscriptStoreOptions {
	/** `postgres://user:password@host:port/database`; or pass `pool` (or node-postgres `PoolConfig` in `poolConfig`). */
	connectionString?: string;
	/** Further node-postgres pool settings (size, timeouts, TLS). */
	poolConfig?: PoolConfig;
	/** An application's own pool; the store then leaves ending it to the application. */
	pool?: Pool;
	/** The schema the tables live in; it must exist. Default "public". */
	schema?: string;
	/** Whose sessions this store sees and writes. Default "default". */
	tenant?: string;
	/** How long a writer's lease lasts without an append or heartbeat. Default 30 s. */
	leaseMs?: number;
	/** Records larger than this are refused before anything is written. Default 32 MiB, at most 128 MiB (POSTGRES_MAX_RECORD_BYTES). */
	maxRecordBytes?: number;
	/**
	 * "os" (default): an append resolves once the server has committed it, before its WAL reaches
	 * the disk (`synchronous_commit = off`): it survives the writing process being killed; a crash of
	 * the database server or its machine may lose the last fraction of a second of appends, never
	 * leaving a partial one. "fsync-each": the server's own setting (by default: flushed to disk
	 * before the commit returns). Applies to the pool the store makes; an application's own `pool`
	 * keeps its settings.
	 */
	durability?: "os" | "fsync-each";
}

/**
 * The PostgreSQL store: what the database stores share (its scans read a page of rows per round
 * trip), plus its schema and an asynchronous close.
 */
export interface PostgresTranscriptStore extends DatabaseTranscriptStore {
	readonly schema: string;
	/** The same database and schema seen as another tenant (sharing the pool). */
	forTenant(tenant: string): PostgresTranscriptStore;
	/** Ends the pool when the store made it (from a connection string). */
	close(): Promise<void>;
}

/** Records per round trip when scanning: about 1 MiB of ~2 KB messages, so a scan holds little at a time. */
const SCAN_PAGE_ROWS = 500;
/** Rows of sizes a page while newestBytesStart reads back from the end (two numbers a row). */
const SIZES_PAGE_ROWS = 5_000;

interface RecordRow {
	seq: string;
	line: string;
}

interface SessionRow {
	session_id: string;
	created_at: string;
	updated_at: string;
	title: string | null;
	parent_session_id: string | null;
	parent_message_id: string | null;
	size_bytes: string;
}

/** Connects, checks the schema exists, creates or upgrades the tables, and returns the store. */
export async function createPostgresTranscriptStore(
	options: PostgresTranscriptStoreOptions,
): Promise<PostgresTranscriptStore> {
	const { tenant, leaseMs, maxRecordBytes } = checkDatabaseStoreLimits(options, {
		database: "PostgreSQL",
		largestRecordBytes: POSTGRES_MAX_RECORD_BYTES,
	});
	const schema = options.schema ?? "public";
	if (typeof schema !== "string" || schema === "") throw new TypeError("schema must be a non-empty string.");
	if (!options.pool && !options.connectionString && !options.poolConfig) {
		throw new TypeError("createPostgresTranscriptStore needs a `connectionString`, `poolConfig` or `pool`.");
	}
	const durability = options.durability ?? "os";
	if (durability !== "os" && durability !== "fsync-each") {
		throw new TypeError(`Unknown durability ${JSON.stringify(durability)}: use "os" or "fsync-each".`);
	}
	const poolConfig: PoolConfig = {
		...options.poolConfig,
		connectionString: options.connectionString ?? options.poolConfig?.connectionString,
	};
	if (durability === "os") {
		// A startup parameter, so every connection of the pool has it without a statement of its own.
		poolConfig.options = [options.poolConfig?.options, "-c synchronous_commit=off"].filter(Boolean).join(" ");
	}
	const target = describeTarget(options.pool ? (options.pool.options as PoolConfig) : poolConfig);
	const ownsPool = options.pool === undefined;
	const pool = options.pool ?? createPool(poolConfig);
	try {
		const client = await connectFirst(pool, target);
		try {
			await assertSchemaExists(client, schema, target);
			await migratePostgresSchema(client, schema);
		} finally {
			client.release();
		}
	} catch (error) {
		if (ownsPool) await pool.end().catch(() => {});
		throw error;
	}
	return createStoreOver(pool, ownsPool, { schema, tenant, leaseMs, maxRecordBytes, target });
}

function createStoreOver(
	pool: Pool,
	ownsPool: boolean,
	settings: { schema: string; tenant: string; leaseMs: number; maxRecordBytes: number; target: string },
): PostgresTranscriptStore {
	const { tenant } = settings;
	const s = escapeIdentifier(settings.schema);
	const writerContext = {
		pool,
		schema: s,
		tenant,
		leaseMs: settings.leaseMs,
		maxRecordBytes: settings.maxRecordBytes,
		target: settings.target,
		batcher: createAppendBatcher(pool, s, tenant, settings.leaseMs),
	};

	async function lastSeqOf(sessionId: string): Promise<number> {
		assertValidSessionId(sessionId);
		const { rows } = await pool.query<{ last_seq: string }>(
			`SELECT last_seq FROM ${s}.keel_sessions WHERE tenant = $1 AND session_id = $2`,
			[tenant, sessionId],
		);
		if (rows.length === 0) throw new SessionNotFoundError(sessionId);
		return Number(rows[0].last_seq);
	}

	async function scan(
		sessionId: string,
		visit: (record: ParsedSessionRecord, lineNumber: number, position: number, bytes: number) => void,
	): Promise<TranscriptReadProblem[]> {
		const last = await lastSeqOf(sessionId);
		const problems: TranscriptReadProblem[] = [];
		await scanRange(sessionId, 0, last, visit, problems);
		return problems;
	}

	/** Visits the full records after position `after` up to `last`, a page at a time. */
	async function scanRange(
		sessionId: string,
		after: number,
		last: number,
		visit: (record: ParsedSessionRecord, lineNumber: number, position: number, bytes: number) => void,
		problems: TranscriptReadProblem[],
	): Promise<void> {
		// Keyset pages up to the end seen at the start: bounded memory, and a writer appending
		// meanwhile does not make the scan run forever.
		while (after < last) {
			const rows = await queryTextRows(
				pool,
				`SELECT seq, line, octet_length(line) AS bytes FROM ${s}.keel_records
				WHERE tenant = $1 AND session_id = $2 AND seq > $3 AND seq <= $4
				ORDER BY seq LIMIT ${SCAN_PAGE_ROWS}`,
				[tenant, sessionId, after, last],
			);
			if (rows.length === 0) break;
			for (const [seqText, line, bytes] of rows) {
				const seq = Number(seqText);
				for (const record of parseStoredLine(line as string, seq, problems)) visit(record, seq, seq, Number(bytes));
			}
			after = Number(rows[rows.length - 1][0]);
		}
	}

	const store: PostgresTranscriptStore = {
		tenant,
		schema: settings.schema,

		async openWriter(sessionId, writerOptions) {
			assertValidSessionId(sessionId);
			return openPostgresWriter(writerContext, sessionId, writerOptions);
		},

		scan,

		async read(sessionId) {
			const records: ParsedSessionRecord[] = [];
			const problems = await scan(sessionId, (record) => {
				records.push(record);
			});
			return { records, problems };
		},

		async lastCompactionBoundary(sessionId) {
			await lastSeqOf(sessionId);
			// Through the partial index keel_records_boundaries: a few rows at most, whatever the session's size.
			const { rows } = await pool.query<{ seq: string | null }>(
				`SELECT max(seq) AS seq FROM ${s}.keel_records
				WHERE tenant = $1 AND session_id = $2 AND role = 'compact_boundary'`,
				[tenant, sessionId],
			);
			return rows[0]?.seq == null ? undefined : Number(rows[0].seq);
		},

		async scanOutlines(sessionId, visit, fullFrom) {
			const end = await lastSeqOf(sessionId);
			const problems: TranscriptReadProblem[] = [];
			// Outlines before `fullFrom` (the last compaction boundary), full records from there on:
			// that is the model context, which load: "context" would otherwise read again.
			const last = fullFrom !== undefined && Number.isFinite(fullFrom) ? Math.min(end, Math.max(0, fullFrom - 1)) : end;
			await scanOutlinesUpTo({ pool, schema: s, tenant, sessionId }, last, visit, problems);
			await scanRange(
				sessionId,
				last,
				end,
				(record, lineNumber, position, bytes) => visit(record, lineNumber, position, false, bytes),
				problems,
			);
			return problems;
		},

		async newestBytesStart(sessionId, bytes) {
			const last = await lastSeqOf(sessionId);
			let total = 0;
			let before = last + 1;
			// Keyset pages back from the end, sizes only, until the window's bytes are reached.
			for (;;) {
				const rows = await queryTextRows(
					pool,
					`SELECT seq, octet_length(line) AS bytes FROM ${s}.keel_records
					WHERE tenant = $1 AND session_id = $2 AND seq < $3 ORDER BY seq DESC LIMIT ${SIZES_PAGE_ROWS}`,
					[tenant, sessionId, before],
				);
				for (const [seq, rowBytes] of rows) {
					total += Number(rowBytes);
					if (total >= bytes) return Number(seq);
				}
				if (rows.length < SIZES_PAGE_ROWS) return undefined;
				before = Number(rows[rows.length - 1][0]);
			}
		},

		async readAt(sessionId, positions) {
			await lastSeqOf(sessionId);
			assertRecordPositions(sessionId, positions);
			const wanted = [...new Set(positions)];
			if (wanted.length === 0) return [];
			let [lowest, highest] = [wanted[0], wanted[0]];
			for (const position of wanted) [lowest, highest] = [Math.min(lowest, position), Math.max(highest, position)];
			// The range beside the list bounds the index scan by itself: on a table not analysed since
			// it grew, the planner otherwise takes a bitmap scan of the whole session, filtered by the
			// list (~850 ms rather than ~10 ms for 1,000 records of a 100,000-record session).
			const { rows } = await pool.query<RecordRow>(
				`SELECT seq, line FROM ${s}.keel_records WHERE tenant = $1 AND session_id = $2
				AND seq = ANY($3::bigint[]) AND seq BETWEEN $4 AND $5`,
				[tenant, sessionId, wanted, lowest, highest],
			);
			return recordsAtPositions(sessionId, positions, rows);
		},

		async readTail(sessionId, tailOptions) {
			const last = await lastSeqOf(sessionId);
			const entries = Math.max(0, Math.floor(tailOptions.entries));
			const { rows } = await pool.query<RecordRow>(
				`SELECT seq, line FROM ${s}.keel_records WHERE tenant = $1 AND session_id = $2 AND seq <= $3
				ORDER BY seq DESC LIMIT $4`,
				[tenant, sessionId, last, entries],
			);
			const problems: TranscriptReadProblem[] = [];
			const records = rows.reverse().flatMap((row) => parseStoredLine(row.line, Number(row.seq) - last - 1, problems));
			const tail: TranscriptTail = { records, problems };
			if (tailOptions.findLastSummary !== false) {
				const summary = await pool.query<RecordRow>(
					`SELECT seq, line FROM ${s}.keel_records WHERE tenant = $1 AND session_id = $2 AND role = 'summary'
					ORDER BY seq DESC LIMIT 1`,
					[tenant, sessionId],
				);
				const row = summary.rows[0];
				const record = row ? parseStoredLine(row.line, Number(row.seq), []).find(isSummaryRecord) : undefined;
				if (record) tail.lastSummary = record;
			}
			return tail;
		},

		async list(listOptions?: SessionListOptions) {
			assertValidListOptions(listOptions);
			const parameters: unknown[] = [tenant];
			const conditions = ["s.tenant = $1"];
			if (listOptions?.search) {
				parameters.push(foldForSearch(listOptions.search));
				const search = `$${parameters.length}`;
				conditions.push(`(position(${search} in s.title_search) > 0 OR EXISTS (
					SELECT 1 FROM ${s}.keel_records r WHERE r.tenant = s.tenant AND r.session_id = s.session_id
					AND position(${search} in r.search_text) > 0))`);
			}
			if (listOptions?.after) {
				parameters.push(listOptions.after.updatedAt, listOptions.after.sessionId);
				const [updated, id] = [`$${parameters.length - 1}`, `$${parameters.length}`];
				conditions.push(`(s.updated_at < ${updated} OR (s.updated_at = ${updated} AND s.session_id > ${id}))`);
			}
			if (listOptions?.limit !== undefined) parameters.push(listOptions.limit);
			const limit = listOptions?.limit === undefined ? "" : ` LIMIT $${parameters.length}`;
			const { rows } = await pool.query<SessionRow>(
				`SELECT session_id, created_at, updated_at, title, parent_session_id, parent_message_id, size_bytes
				FROM ${s}.keel_sessions s WHERE ${conditions.join(" AND ")}
				ORDER BY s.updated_at DESC, s.session_id ASC${limit}`,
				parameters,
			);
			return rows.map(sessionInfoOf);
		},

		async exists(sessionId) {
			assertValidSessionId(sessionId);
			const { rowCount } = await pool.query(`SELECT 1 FROM ${s}.keel_sessions WHERE tenant = $1 AND session_id = $2`, [
				tenant,
				sessionId,
			]);
			return rowCount === 1;
		},

		async delete(sessionId) {
			assertValidSessionId(sessionId);
			const client = await checkOut(pool);
			try {
				await client.query("BEGIN");
				const { rows } = await client.query<{
					writer_holder: string | null;
					lease_expires_at: string | null;
					now: string;
				}>(
					`SELECT writer_holder, lease_expires_at, ${DATABASE_NOW_MS} AS now FROM ${s}.keel_sessions
					WHERE tenant = $1 AND session_id = $2 FOR UPDATE`,
					[tenant, sessionId],
				);
				const row = rows[0];
				if (!row) throw new SessionNotFoundError(sessionId);
				const expiresAt = row.lease_expires_at === null ? null : Number(row.lease_expires_at);
				if (isLeaseLive(row.writer_holder, expiresAt, Number(row.now))) {
					throw new SessionLockedError(sessionId, parseWriterHolder(row.writer_holder));
				}
				await client.query(`DELETE FROM ${s}.keel_records WHERE tenant = $1 AND session_id = $2`, [tenant, sessionId]);
				await client.query(`DELETE FROM ${s}.keel_outline_pages WHERE tenant = $1 AND session_id = $2`, [
					tenant,
					sessionId,
				]);
				await client.query(`DELETE FROM ${s}.keel_sessions WHERE tenant = $1 AND session_id = $2`, [tenant, sessionId]);
				await client.query("COMMIT");
			} catch (error) {
				await client.query("ROLLBACK").catch(() => {});
				throw error;
			} finally {
				client.release();
			}
		},

		forTenant(otherTenant) {
			assertValidTenant(otherTenant);
			return createStoreOver(pool, false, { ...settings, tenant: otherTenant });
		},

		async close() {
			if (ownsPool) await pool.end();
		},
	};
	for (const name of SERVER_CALLS) guardServerCall(store, name, settings.target);
	return store;
}

/** The store's calls that reach the server, beside appends (which the writer describes itself). */
const SERVER_CALLS = [
	"openWriter",
	"scan",
	"read",
	"lastCompactionBoundary",
	"scanOutlines",
	"newestBytesStart",
	"readAt",
	"readTail",
	"list",
	"exists",
	"delete",
] as const;

/**
 * Makes a lost or refused connection during `store[name]` a PostgresTranscriptStoreError naming the
 * server and the call, as an append's is, rather than node-postgres's bare "connect ECONNREFUSED"
 * or "terminating connection due to administrator command".
 */
function guardServerCall(store: PostgresTranscriptStore, name: (typeof SERVER_CALLS)[number], target: string): void {
	const call = store[name] as (...args: unknown[]) => Promise<unknown>;
	(store as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
		try {
			return await call(...args);
		} catch (error) {
			const session = typeof args[0] === "string" ? ` of session "${args[0]}"` : "";
			throw describeFailedCall(error, target, `${name}${session}`);
		}
	};
}

function sessionInfoOf(row: SessionRow): SessionInfo {
	return {
		sessionId: row.session_id,
		...(row.title !== null ? { title: row.title } : {}),
		createdAt: Number(row.created_at),
		updatedAt: Number(row.updated_at),
		sizeBytes: Number(row.size_bytes),
		...(row.parent_session_id !== null ? { parentSessionId: row.parent_session_id } : {}),
		...(row.parent_message_id !== null ? { parentMessageId: row.parent_message_id } : {}),
	};
}

// The SQLite transcript store: every session of a database file in its tables (see sqlite-schema.ts),
// scoped to one tenant. Several processes may share the file: SQLite serialises their write
// transactions, and each session's writer holds a fenced lease (sqlite-transcript-writer.ts).

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
	type SessionMessageRecord,
	SessionNotFoundError,
	type TranscriptReadProblem,
	type TranscriptTail,
} from "@keel/agent-core/session";
import { isLeaseLive, parseWriterHolder } from "@keel/agent-core/session/jsonl";
import Database from "better-sqlite3";
import { SQLITE_MAX_RECORD_BYTES } from "./sqlite-capacity.js";
import { SqliteTranscriptStoreError } from "./sqlite-errors.js";
import { parsePage } from "./sqlite-outline-pages.js";
import { migrateSqliteSchema } from "./sqlite-schema.js";
import { MESSAGE_TEXT_CONTAINS, registerSearchFunction, searchAsJson } from "./sqlite-search.js";
import { openSqliteWriter } from "./sqlite-transcript-writer.js";
import { startWalCheckpointer, walCheckpointerOf } from "./sqlite-wal-checkpointer.js";

export type SqliteDurability = "os" | "fsync-each";

export interface SqliteTranscriptStoreOptions {
	/** The database file, created when missing (its directory must exist). Or pass `database`. */
	path?: string;
	/** An open better-sqlite3 database; the store then leaves closing it to the caller. */
	database?: Database.Database;
	/** Whose sessions this store sees and writes. Default "default". */
	tenant?: string;
	/**
	 * "os" (default): a committed append survives the process being killed (WAL, synchronous=NORMAL).
	 * "fsync-each": every commit is synced to disk, surviving a power cut too (synchronous=FULL).
	 */
	durability?: SqliteDurability;
	/** How long a writer's lease lasts without an append or heartbeat. Default 30 s. */
	leaseMs?: number;
	/** Records larger than this are refused before anything is written. Default 32 MiB, at most 512 MiB (SQLITE_MAX_RECORD_BYTES). */
	maxRecordBytes?: number;
	/** How long a write waits for another process's transaction. Default 5 s. */
	busyTimeoutMs?: number;
}

/** The SQLite store: what the database stores share, plus a synchronous close. */
export interface SqliteTranscriptStore extends DatabaseTranscriptStore {
	/** The same database seen as another tenant. */
	forTenant(tenant: string): SqliteTranscriptStore;
	/** Closes the database when this store opened it (from `path`), after stopping its checkpoint worker. */
	close(): void;
}

interface RecordRow {
	seq: number;
	line: string;
}

interface SizedRecordRow extends RecordRow {
	/** The line's UTF-8 size (octet_length, which SQLite answers from the record header). */
	bytes: number;
}

interface OutlineRow {
	seq: number;
	outline: string | null;
	line: string | null;
	bytes: number;
}

interface PageRow {
	first_seq: number;
	last_seq: number;
	outlines: string;
}

interface SessionRow {
	session_id: string;
	created_at: number;
	updated_at: number;
	title: string | null;
	parent_session_id: string | null;
	parent_message_id: string | null;
	size_bytes: number;
	writer_holder: string | null;
	lease_expires_at: number | null;
	last_seq: number;
}

export function createSqliteTranscriptStore(options: SqliteTranscriptStoreOptions): SqliteTranscriptStore {
	const { tenant, leaseMs, maxRecordBytes } = checkDatabaseStoreLimits(options, {
		database: "SQLite",
		largestRecordBytes: SQLITE_MAX_RECORD_BYTES,
	});
	const durability = options.durability ?? "os";
	if (durability !== "os" && durability !== "fsync-each") {
		throw new TypeError(`Unknown durability ${JSON.stringify(durability)}: use "os" or "fsync-each".`);
	}
	const ownsDatabase = options.database === undefined;
	const database = options.database ?? openDatabase(options.path, options.busyTimeoutMs ?? 5_000, durability);
	return createStoreOver(database, tenant, ownsDatabase, { leaseMs, maxRecordBytes });
}

function openDatabase(
	path: string | undefined,
	busyTimeoutMs: number,
	durability: SqliteDurability,
): Database.Database {
	if (typeof path !== "string" || path === "") {
		throw new TypeError("createSqliteTranscriptStore needs a `path` to a database file or an open `database`.");
	}
	let database: Database.Database | undefined;
	try {
		database = new Database(path, { timeout: busyTimeoutMs });
		database.pragma("journal_mode = WAL");
		database.pragma(`synchronous = ${durability === "fsync-each" ? "FULL" : "NORMAL"}`);
		migrateSqliteSchema(database);
		// Checkpoints run on a worker thread rather than inside the commit that fills the WAL.
		startWalCheckpointer(database, path);
		return database;
	} catch (error) {
		database?.close();
		if ((error as Error).name === "SqliteSchemaVersionError") throw error;
		throw new SqliteTranscriptStoreError(
			`Cannot open the SQLite transcript database "${path}": ${(error as Error).message}. Check that the path names a SQLite database file (or a new file) in a directory that exists and is writable.`,
			path,
			error,
		);
	}
}

function createStoreOver(
	database: Database.Database,
	tenant: string,
	ownsDatabase: boolean,
	limits: { leaseMs: number; maxRecordBytes: number },
): SqliteTranscriptStore {
	migrateSqliteSchema(database);
	registerSearchFunction(database);
	const statements = {
		session: database.prepare(
			`SELECT session_id, created_at, updated_at, title, parent_session_id, parent_message_id, size_bytes,
				writer_holder, lease_expires_at, last_seq
			FROM keel_sessions WHERE tenant = ? AND session_id = ?`,
		),
		records: database.prepare(
			"SELECT seq, line, octet_length(line) AS bytes FROM keel_records WHERE tenant = ? AND session_id = ? ORDER BY seq",
		),
		// The records of [from, to) that no outline page covers. The full line only where there is no
		// outline (rows written before pages existed keep theirs in the row). From `fullFrom` on (the
		// last compaction boundary), the full line whether or not there is an outline: that is the
		// model context, which load: "context" would otherwise read again.
		outlines: database.prepare(
			`SELECT seq, CASE WHEN seq < @fullFrom THEN outline END AS outline,
				CASE WHEN outline IS NULL OR seq >= @fullFrom THEN line END AS line, octet_length(line) AS bytes
			FROM keel_records WHERE tenant = @tenant AND session_id = @sessionId AND seq >= @from AND seq < @to ORDER BY seq`,
		),
		// One page at a time, by its primary key: the rows of records are read between two pages.
		pageFrom: database.prepare(
			`SELECT first_seq, last_seq, outlines FROM keel_outline_pages
			WHERE tenant = ? AND session_id = ? AND first_seq >= ? AND first_seq < ? ORDER BY first_seq LIMIT 1`,
		),
		fullRecord: database.prepare(
			"SELECT seq, line, octet_length(line) AS bytes FROM keel_records WHERE tenant = ? AND session_id = ? AND seq = ?",
		),
		// Newest first, sizes only: octet_length needs no more than the record header of each row.
		sizesBackward: database.prepare(
			"SELECT seq, octet_length(line) AS bytes FROM keel_records WHERE tenant = ? AND session_id = ? ORDER BY seq DESC",
		),
		// Through the partial index keel_records_boundaries: a few rows at most, whatever the session's size.
		lastBoundary: database.prepare(
			"SELECT max(seq) AS seq FROM keel_records WHERE tenant = ? AND session_id = ? AND role = 'compact_boundary'",
		),
		tail: database.prepare(
			"SELECT seq, line FROM keel_records WHERE tenant = ? AND session_id = ? ORDER BY seq DESC LIMIT ?",
		),
		lastSummary: database.prepare(
			"SELECT seq, line FROM keel_records WHERE tenant = ? AND session_id = ? AND role = 'summary' ORDER BY seq DESC LIMIT 1",
		),
		at: database.prepare(
			"SELECT seq, line FROM keel_records WHERE tenant = ? AND session_id = ? AND seq IN (SELECT value FROM json_each(?))",
		),
		deleteRecords: database.prepare("DELETE FROM keel_records WHERE tenant = ? AND session_id = ?"),
		deletePages: database.prepare("DELETE FROM keel_outline_pages WHERE tenant = ? AND session_id = ?"),
		deleteSession: database.prepare("DELETE FROM keel_sessions WHERE tenant = ? AND session_id = ?"),
	};

	function find(sessionId: string): SessionRow {
		assertValidSessionId(sessionId);
		const row = statements.session.get(tenant, sessionId) as SessionRow | undefined;
		if (!row) throw new SessionNotFoundError(sessionId);
		return row;
	}

	const store: SqliteTranscriptStore = {
		tenant,

		async openWriter(sessionId, writerOptions) {
			assertValidSessionId(sessionId);
			return openSqliteWriter({ database, tenant, ...limits }, sessionId, writerOptions);
		},

		async read(sessionId) {
			find(sessionId);
			const records: ParsedSessionRecord[] = [];
			const problems: TranscriptReadProblem[] = [];
			for (const row of statements.records.iterate(tenant, sessionId) as Iterable<RecordRow>) {
				records.push(...parseStoredLine(row.line, row.seq, problems));
			}
			return { records, problems };
		},

		async scan(sessionId, visit) {
			find(sessionId);
			const problems: TranscriptReadProblem[] = [];
			for (const row of statements.records.iterate(tenant, sessionId) as Iterable<SizedRecordRow>) {
				for (const record of parseStoredLine(row.line, row.seq, problems)) visit(record, row.seq, row.seq, row.bytes);
			}
			return problems;
		},

		async lastCompactionBoundary(sessionId) {
			find(sessionId);
			const row = statements.lastBoundary.get(tenant, sessionId) as { seq: number | null };
			return row.seq ?? undefined;
		},

		async scanOutlines(sessionId, visit, fullFrom = Number.MAX_SAFE_INTEGER) {
			find(sessionId);
			const problems: TranscriptReadProblem[] = [];
			const from = Number.isFinite(fullFrom) ? fullFrom : Number.MAX_SAFE_INTEGER;
			const visitRow = (row: SizedRecordRow) => {
				for (const record of parseStoredLine(row.line, row.seq, problems))
					visit(record, row.seq, row.seq, false, row.bytes);
			};
			const visitRows = (rowsFrom: number, rowsTo: number) => {
				const rows = statements.outlines.iterate({ tenant, sessionId, fullFrom: from, from: rowsFrom, to: rowsTo });
				for (const row of rows as Iterable<OutlineRow>) {
					if (row.outline !== null)
						visit(JSON.parse(row.outline) as SessionMessageRecord, row.seq, row.seq, true, row.bytes);
					else visitRow(row as SizedRecordRow);
				}
			};
			// The pages before `fullFrom`, in seq order; the records between them (and after the last)
			// from their rows. A page that cannot be trusted is passed over: the next one that can
			// starts where reading the rows stops.
			let next = 1;
			let pagesFrom = 1;
			for (;;) {
				const page = statements.pageFrom.get(tenant, sessionId, pagesFrom, from) as PageRow | undefined;
				if (page === undefined) break;
				pagesFrom = page.first_seq + 1;
				const entries = parsePage(page.outlines, page.last_seq - page.first_seq + 1);
				if (entries === undefined) continue;
				if (page.first_seq > next) visitRows(next, page.first_seq);
				const end = Math.min(page.last_seq + 1, from);
				for (let seq = page.first_seq; seq < end; seq++) {
					const entry = entries[seq - page.first_seq];
					if (entry !== null) {
						visit(entry[1], seq, seq, true, entry[0]);
						continue;
					}
					const row = statements.fullRecord.get(tenant, sessionId, seq) as SizedRecordRow | undefined;
					if (row) visitRow(row);
				}
				next = end;
				pagesFrom = Math.max(pagesFrom, next);
			}
			visitRows(next, Number.MAX_SAFE_INTEGER);
			return problems;
		},

		async newestBytesStart(sessionId, bytes) {
			find(sessionId);
			let total = 0;
			// Leaving the loop early resets the statement: the rows before the window are never read.
			for (const row of statements.sizesBackward.iterate(tenant, sessionId) as Iterable<{
				seq: number;
				bytes: number;
			}>) {
				total += row.bytes;
				if (total >= bytes) return row.seq;
			}
			return undefined;
		},

		async readAt(sessionId, positions) {
			find(sessionId);
			assertRecordPositions(sessionId, positions);
			const rows = statements.at.all(tenant, sessionId, JSON.stringify([...new Set(positions)])) as RecordRow[];
			return recordsAtPositions(sessionId, positions, rows);
		},

		async readTail(sessionId, tailOptions) {
			const session = find(sessionId);
			const entries = Math.max(0, Math.floor(tailOptions.entries));
			const rows = (statements.tail.all(tenant, sessionId, entries) as RecordRow[]).reverse();
			const problems: TranscriptReadProblem[] = [];
			const records = rows.flatMap((row) => parseStoredLine(row.line, row.seq - session.last_seq - 1, problems));
			const tail: TranscriptTail = { records, problems };
			if (tailOptions.findLastSummary !== false) {
				const row = statements.lastSummary.get(tenant, sessionId) as RecordRow | undefined;
				const summary = row ? parseStoredLine(row.line, row.seq, []).find(isSummaryRecord) : undefined;
				if (summary) tail.lastSummary = summary;
			}
			return tail;
		},

		async list(listOptions?: SessionListOptions) {
			assertValidListOptions(listOptions);
			const conditions = ["s.tenant = @tenant"];
			const parameters: Record<string, unknown> = { tenant };
			if (listOptions?.search) {
				parameters.search = foldForSearch(listOptions.search);
				parameters.searchJson = searchAsJson(parameters.search as string);
				conditions.push(`(instr(s.title_search, @search) > 0 OR EXISTS (
					SELECT 1 FROM keel_records r WHERE r.tenant = s.tenant AND r.session_id = s.session_id
					AND r.role IS NOT NULL AND instr(lower(r.line), @searchJson) > 0
					AND ${MESSAGE_TEXT_CONTAINS}(r.line, @search)))`);
			}
			if (listOptions?.after) {
				parameters.afterUpdated = listOptions.after.updatedAt;
				parameters.afterId = listOptions.after.sessionId;
				conditions.push("(s.updated_at < @afterUpdated OR (s.updated_at = @afterUpdated AND s.session_id > @afterId))");
			}
			const limit = listOptions?.limit === undefined ? "" : ` LIMIT ${listOptions.limit}`;
			const rows = database
				.prepare(
					`SELECT session_id, created_at, updated_at, title, parent_session_id, parent_message_id, size_bytes
					FROM keel_sessions s WHERE ${conditions.join(" AND ")}
					ORDER BY s.updated_at DESC, s.session_id ASC${limit}`,
				)
				.all(parameters) as SessionRow[];
			return rows.map(sessionInfoOf);
		},

		async exists(sessionId) {
			assertValidSessionId(sessionId);
			return statements.session.get(tenant, sessionId) !== undefined;
		},

		async delete(sessionId) {
			assertValidSessionId(sessionId);
			database
				.transaction(() => {
					const session = find(sessionId);
					if (isLeaseLive(session.writer_holder, session.lease_expires_at, Date.now())) {
						throw new SessionLockedError(sessionId, parseWriterHolder(session.writer_holder));
					}
					statements.deleteRecords.run(tenant, sessionId);
					statements.deletePages.run(tenant, sessionId);
					statements.deleteSession.run(tenant, sessionId);
				})
				.immediate();
		},

		forTenant(otherTenant) {
			assertValidTenant(otherTenant);
			return createStoreOver(database, otherTenant, false, limits);
		},

		close() {
			if (!ownsDatabase || !database.open) return;
			walCheckpointerOf(database)?.stop();
			database.close();
		},
	};
	return store;
}

function sessionInfoOf(row: SessionRow): SessionInfo {
	return {
		sessionId: row.session_id,
		...(row.title !== null ? { title: row.title } : {}),
		createdAt: row.created_at,
		updatedAt: row.updated_at,
		sizeBytes: row.size_bytes,
		...(row.parent_session_id !== null ? { parentSessionId: row.parent_session_id } : {}),
		...(row.parent_message_id !== null ? { parentMessageId: row.parent_message_id } : {}),
	};
}

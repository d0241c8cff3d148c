// The store's tables, created and upgraded by the store itself. `keel_schema_version` holds one row:
// the version of the tables below. Opening a database runs the steps from its version up to
// SQLITE_SCHEMA_VERSION in one transaction; a database written by a newer version of this package
// is refused rather than written with rules it does not know.
//
// One row per record, its serialised line kept verbatim (`line`): what a reader gets back goes
// through the same parse and validation as a JSONL line, and a row damaged by hand is reported
// like a damaged line. `seq` numbers a session's records from 1 (the header), so it doubles as the
// line number in problems.

import { foldForSearch } from "@keel/agent-core/session";
import type { Database } from "better-sqlite3";
import { SqliteSchemaVersionError } from "./sqlite-errors.js";

export const SQLITE_SCHEMA_VERSION = 5;

type SchemaStep = (database: Database) => void;

/** `SCHEMA_STEPS[n]` turns version n into version n + 1. */
export const SCHEMA_STEPS: readonly SchemaStep[] = [
	// 0 → 1: sessions and their records, a writer lease per session.
	(database) => {
		database.exec(`
			CREATE TABLE keel_sessions (
				tenant TEXT NOT NULL,
				session_id TEXT NOT NULL,
				created_at INTEGER NOT NULL,
				updated_at INTEGER NOT NULL,
				title TEXT,
				parent_session_id TEXT,
				parent_message_id TEXT,
				size_bytes INTEGER NOT NULL DEFAULT 0,
				last_seq INTEGER NOT NULL DEFAULT 0,
				writer_token INTEGER NOT NULL DEFAULT 0,
				writer_holder TEXT,
				lease_expires_at INTEGER,
				PRIMARY KEY (tenant, session_id)
			) WITHOUT ROWID;
			CREATE INDEX keel_sessions_newest ON keel_sessions (tenant, updated_at DESC, session_id);
			CREATE TABLE keel_records (
				tenant TEXT NOT NULL,
				session_id TEXT NOT NULL,
				seq INTEGER NOT NULL,
				role TEXT,
				line TEXT NOT NULL,
				PRIMARY KEY (tenant, session_id, seq)
			);
			CREATE INDEX keel_records_summaries ON keel_records (tenant, session_id, seq) WHERE role = 'summary';
		`);
	},
	// 1 → 2: search by title. The folded title is computed here, in JavaScript, so every store folds
	// case the same way; sessions written before this version are filled in. (Message text is
	// searched in the stored lines themselves: see sqlite-search.ts.)
	(database) => {
		database.exec("ALTER TABLE keel_sessions ADD COLUMN title_search TEXT");
		const titles = database.prepare("SELECT tenant, session_id, title FROM keel_sessions WHERE title IS NOT NULL");
		const setTitle = database.prepare("UPDATE keel_sessions SET title_search = ? WHERE tenant = ? AND session_id = ?");
		for (const row of titles.all() as { tenant: string; session_id: string; title: string }[]) {
			setTitle.run(foldForSearch(row.title), row.tenant, row.session_id);
		}
	},
	// 2 → 3: each message's outline (outlineMessageRecord) beside its record, so opening a huge
	// session with load: "context" reads the outlines rather than every full record. Rows written
	// before have none and are read in full, as before.
	(database) => {
		database.exec("ALTER TABLE keel_records ADD COLUMN outline TEXT");
	},
	// 3 → 4: where a session's last compaction boundary is, without reading the session: load:
	// "context" reads the records after it in full, and only outlines before it.
	(database) => {
		database.exec(
			"CREATE INDEX keel_records_boundaries ON keel_records (tenant, session_id, seq) WHERE role = 'compact_boundary'",
		);
	},
	// 4 → 5: outline pages (sqlite-outline-pages.ts), the outlines of consecutive records packed in
	// one row, which load: "context" reads instead of walking the record rows. Sessions written
	// before have no pages and are read from their rows (and the outlines there) until a writer
	// opens them: it pages them in the background (sqlite-outline-backfill.ts) and what it appends.
	(database) => {
		database.exec(`
			CREATE TABLE keel_outline_pages (
				tenant TEXT NOT NULL,
				session_id TEXT NOT NULL,
				first_seq INTEGER NOT NULL,
				last_seq INTEGER NOT NULL,
				outlines TEXT NOT NULL,
				PRIMARY KEY (tenant, session_id, first_seq)
			);
		`);
	},
];

/**
 * Brings the database to SQLITE_SCHEMA_VERSION (or to `targetVersion`, which tests use to write an
 * older schema). Refuses a newer schema with a SqliteSchemaVersionError.
 */
export function migrateSqliteSchema(database: Database, targetVersion = SQLITE_SCHEMA_VERSION): void {
	// IMMEDIATE: two processes opening a new database at once do not both create the tables.
	database
		.transaction(() => {
			database.exec("CREATE TABLE IF NOT EXISTS keel_schema_version (version INTEGER NOT NULL)");
			const row = database.prepare("SELECT version FROM keel_schema_version").get() as { version: number } | undefined;
			const current = row?.version ?? 0;
			if (current > SQLITE_SCHEMA_VERSION) throw new SqliteSchemaVersionError(current, SQLITE_SCHEMA_VERSION);
			if (current >= targetVersion) return;
			for (let version = current; version < targetVersion; version++) SCHEMA_STEPS[version](database);
			if (row) database.prepare("UPDATE keel_schema_version SET version = ?").run(targetVersion);
			else database.prepare("INSERT INTO keel_schema_version (version) VALUES (?)").run(targetVersion);
		})
		.immediate();
}

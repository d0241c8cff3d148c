// The store's tables, created and upgraded by the store itself in the schema it is given.
// `keel_schema_version` holds one row: the version of the tables below. Opening a store runs the
// steps from that version up to POSTGRES_SCHEMA_VERSION in one transaction, under an advisory lock
// so that instances starting together do not race; a newer version is refused untouched.
//
// One row per record with its serialised line kept verbatim (`line`, text rather than jsonb, which
// would reorder keys and drop duplicates): a reader gets back exactly what was written, through the
// same parse and validation as a JSONL line, and a row damaged by hand is reported like a damaged
// line. `seq` numbers a session's records from 1 (the header), so it doubles as the line number.

import { foldForSearch, parseSessionRecords, searchableText } from "@keel/agent-core/session";
import type { PoolClient } from "pg";

/**
 * The database's clock in epoch milliseconds, as SQL: leases (`lease_expires_at`) are kept in the
 * database's time, so instances whose clocks differ agree on when one ran out.
 */
export const DATABASE_NOW_MS = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

import { escapeIdentifier } from "pg";
import { PostgresSchemaVersionError } from "./postgres-errors.js";

export const POSTGRES_SCHEMA_VERSION = 5;

type SchemaStep = (client: PoolClient, schema: string) => Promise<void>;

/** `SCHEMA_STEPS[n]` turns version n into version n + 1. */
export const SCHEMA_STEPS: readonly SchemaStep[] = [
	// 0 → 1: sessions and their records, a writer lease per session. Session ids compare byte-wise
	// (COLLATE "C") so the list's order and its pages do not depend on the database's locale.
	async (client, schema) => {
		const s = escapeIdentifier(schema);
		await client.query(`
			CREATE TABLE ${s}.keel_sessions (
				tenant text NOT NULL,
				session_id text COLLATE "C" NOT NULL,
				created_at double precision NOT NULL,
				updated_at double precision NOT NULL,
				title text,
				parent_session_id text,
				parent_message_id text,
				size_bytes bigint NOT NULL DEFAULT 0,
				last_seq bigint NOT NULL DEFAULT 0,
				writer_token bigint NOT NULL DEFAULT 0,
				writer_holder text,
				lease_expires_at bigint,
				PRIMARY KEY (tenant, session_id)
			);
			CREATE INDEX keel_sessions_newest ON ${s}.keel_sessions (tenant, updated_at DESC, session_id);
			CREATE TABLE ${s}.keel_records (
				tenant text NOT NULL,
				session_id text COLLATE "C" NOT NULL,
				seq bigint NOT NULL,
				role text,
				line text NOT NULL,
				PRIMARY KEY (tenant, session_id, seq)
			);
			CREATE INDEX keel_records_summaries ON ${s}.keel_records (tenant, session_id, seq) WHERE role = 'summary';
		`);
	},
	// 1 → 2: search by title and text. The folded text is computed in JavaScript, so every store
	// folds case the same way whatever the database's locale; rows written before are filled in.
	async (client, schema) => {
		const s = escapeIdentifier(schema);
		await client.query(`
			ALTER TABLE ${s}.keel_sessions ADD COLUMN title_search text;
			ALTER TABLE ${s}.keel_records ADD COLUMN search_text text;
		`);
		const titles = await client.query<{ tenant: string; session_id: string; title: string }>(
			`SELECT tenant, session_id, title FROM ${s}.keel_sessions WHERE title IS NOT NULL`,
		);
		for (const row of titles.rows) {
			await client.query(`UPDATE ${s}.keel_sessions SET title_search = $1 WHERE tenant = $2 AND session_id = $3`, [
				foldForSearch(row.title),
				row.tenant,
				row.session_id,
			]);
		}
		const messages = await client.query<{ tenant: string; session_id: string; seq: string; line: string }>(
			`SELECT tenant, session_id, seq, line FROM ${s}.keel_records WHERE role IS NOT NULL`,
		);
		for (const row of messages.rows) {
			await client.query(
				`UPDATE ${s}.keel_records SET search_text = $1 WHERE tenant = $2 AND session_id = $3 AND seq = $4`,
				[searchTextOfLine(row.line), row.tenant, row.session_id, row.seq],
			);
		}
	},
	// 2 → 3: each message's outline (outlineMessageRecord) beside its record, so opening a huge
	// session with load: "context" reads the outlines rather than every full record (rows written
	// before have none and are read in full). And records of a few KB are compressed with lz4 as they
	// are stored (TOAST): several times faster than the default pglz, which otherwise costs more
	// server CPU than the rest of an append (https://www.postgresql.org/docs/current/storage-toast.html);
	// for rows written from now on, and only on a server built with lz4.
	async (client, schema) => {
		const s = escapeIdentifier(schema);
		await client.query(`ALTER TABLE ${s}.keel_records ADD COLUMN outline text`);
		const { rowCount } = await client.query(
			"SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)",
		);
		if (rowCount === 0) return;
		await client.query(`ALTER TABLE ${s}.keel_records ALTER COLUMN line SET COMPRESSION lz4,
			ALTER COLUMN search_text SET COMPRESSION lz4`);
	},
	// 3 → 4: where a session's last compaction boundary is, without reading the session: load:
	// "context" reads the records after it in full, and only outlines before it.
	async (client, schema) => {
		const s = escapeIdentifier(schema);
		await client.query(
			`CREATE INDEX keel_records_boundaries ON ${s}.keel_records (tenant, session_id, seq) WHERE role = 'compact_boundary'`,
		);
	},
	// 4 → 5: outline pages (postgres-outline-pages.ts): the outlines and sizes of ~512 consecutive
	// records in one row, which load: "context" reads instead of every record row. Sessions written
	// before have none; the first writer to open one pages its records.
	async (client, schema) => {
		const s = escapeIdentifier(schema);
		await client.query(`
			CREATE TABLE ${s}.keel_outline_pages (
				tenant text NOT NULL,
				session_id text COLLATE "C" NOT NULL,
				first_seq bigint NOT NULL,
				last_seq bigint NOT NULL,
				outlines text NOT NULL,
				sizes integer[] NOT NULL,
				PRIMARY KEY (tenant, session_id, first_seq)
			)`);
		const { rowCount } = await client.query(
			"SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)",
		);
		if (rowCount !== 0)
			await client.query(`ALTER TABLE ${s}.keel_outline_pages ALTER COLUMN outlines SET COMPRESSION lz4`);
	},
];

/** The folded searchable text of a stored line; null when it has none (or cannot be parsed). */
function searchTextOfLine(line: string): string | null {
	try {
		const text = parseSessionRecords(line).map(searchableText).join("\n");
		return text === "" ? null : foldForSearch(text);
	} catch {
		return null;
	}
}

/**
 * Brings the schema's tables to POSTGRES_SCHEMA_VERSION (or to `targetVersion`, which tests use to
 * write an older schema). Refuses a newer version with a PostgresSchemaVersionError.
 */
export async function migratePostgresSchema(
	client: PoolClient,
	schema: string,
	targetVersion = POSTGRES_SCHEMA_VERSION,
): Promise<void> {
	const s = escapeIdentifier(schema);
	await client.query("BEGIN");
	try {
		await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`keel-transcripts:${schema}`]);
		await client.query(`CREATE TABLE IF NOT EXISTS ${s}.keel_schema_version (version integer NOT NULL)`);
		const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${s}.keel_schema_version`);
		const current = rows[0]?.version ?? 0;
		if (current > POSTGRES_SCHEMA_VERSION)
			throw new PostgresSchemaVersionError(schema, current, POSTGRES_SCHEMA_VERSION);
		for (let version = current; version < targetVersion; version++) await SCHEMA_STEPS[version](client, schema);
		if (current < targetVersion) {
			if (rows.length === 0)
				await client.query(`INSERT INTO ${s}.keel_schema_version (version) VALUES ($1)`, [targetVersion]);
			else await client.query(`UPDATE ${s}.keel_schema_version SET version = $1`, [targetVersion]);
		}
		await client.query("COMMIT");
	} catch (error) {
		await client.query("ROLLBACK").catch(() => {});
		throw error;
	}
}

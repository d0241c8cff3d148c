// The store creates and upgrades its own tables: an older schema is brought up to date with its
// sessions intact (and searchable), a newer one is refused and left as it was.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	createSqliteTranscriptStore,
	migrateSqliteSchema,
	SQLITE_SCHEMA_VERSION,
	SqliteSchemaVersionError,
} from "../src/index.js";

let directory: string;
let path: string;
beforeEach(() => {
	directory = mkdtempSync(join(tmpdir(), "keel-sqlite-schema-"));
	path = join(directory, "sessions.db");
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function versionOf(databasePath: string): unknown {
	const database = new Database(databasePath);
	try {
		return database.prepare("SELECT version FROM keel_schema_version").all();
	} finally {
		database.close();
	}
}

describe("the SQLite store's schema", () => {
	it("is created in a new file at the current version", () => {
		createSqliteTranscriptStore({ path }).close();
		expect(versionOf(path)).toEqual([{ version: SQLITE_SCHEMA_VERSION }]);
	});

	it("upgrades a version-1 schema, keeping its sessions and making them searchable", async () => {
		const database = new Database(path);
		migrateSqliteSchema(database, 1);
		database.exec(`
			INSERT INTO keel_sessions (tenant, session_id, created_at, updated_at, title, size_bytes, last_seq)
			VALUES ('default', 'old', 1, 2, 'Old Title', 100, 2);
			INSERT INTO keel_records (tenant, session_id, seq, role, line) VALUES
				('default', 'old', 1, NULL, '{"v":1,"type":"session","sessionId":"old","timestamp":1,"title":"Old Title"}'),
				('default', 'old', 2, 'user', '{"v":1,"type":"message","sessionId":"old","id":"u1","parentId":null,"timestamp":2,"message":{"role":"user","content":"Written before search existed","timestamp":2}}');
		`);
		database.close();

		const store = createSqliteTranscriptStore({ path });
		expect((await store.list({ search: "before SEARCH" })).map((info) => info.sessionId)).toEqual(["old"]);
		expect((await store.list({ search: "old title" })).map((info) => info.sessionId)).toEqual(["old"]);
		const { records, problems } = await store.read("old");
		expect(problems).toEqual([]);
		expect(records).toHaveLength(2);
		store.close();
		expect(versionOf(path)).toEqual([{ version: SQLITE_SCHEMA_VERSION }]);
	});

	it("refuses a newer schema with a clear error and changes nothing", () => {
		createSqliteTranscriptStore({ path }).close();
		const database = new Database(path);
		database.exec("UPDATE keel_schema_version SET version = 99");
		database.close();
		expect(() => createSqliteTranscriptStore({ path })).toThrow(SqliteSchemaVersionError);
		expect(() => createSqliteTranscriptStore({ path })).toThrow(
			`version 99, newer than the version ${SQLITE_SCHEMA_VERSION}`,
		);
		expect(versionOf(path)).toEqual([{ version: 99 }]);
	});
});

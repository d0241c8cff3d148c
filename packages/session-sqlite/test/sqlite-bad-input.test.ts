// What goes wrong around storing a session: a database path in a directory that does not exist, a
// file that is not a SQLite database, a database that is full, a record too large for the store (a
// case every database store shares: database-store-record-limit.ts). Each is a clear error naming
// the cause, and nothing already stored is lost.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeRecordSizeLimit } from "../../agent/test/database-store-record-limit.js";
import { header, userRecord } from "../../agent/test/session-fixtures.js";
import { createSqliteTranscriptStore, SQLITE_MAX_RECORD_BYTES, SqliteTranscriptStoreError } from "../src/index.js";
import { createSqliteStoreHarness } from "./sqlite-store-harness.js";

let directory: string;
beforeEach(() => {
	directory = mkdtempSync(join(tmpdir(), "keel-sqlite-bad-input-"));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe("creating a SQLite store on a bad path", () => {
	it("names a path whose directory does not exist", () => {
		const path = join(directory, "missing", "sessions.db");
		const error = (() => {
			try {
				createSqliteTranscriptStore({ path });
			} catch (thrown) {
				return thrown;
			}
		})();
		expect(error).toBeInstanceOf(SqliteTranscriptStoreError);
		expect((error as Error).message).toContain(path);
		expect((error as Error).message).toMatch(/directory does not exist/);
	});

	it("names a file that is not a SQLite database, and leaves it untouched", () => {
		const path = join(directory, "notes.txt");
		writeFileSync(path, "my notes, not a database\n".repeat(200));
		expect(() => createSqliteTranscriptStore({ path })).toThrow(SqliteTranscriptStoreError);
		expect(() => createSqliteTranscriptStore({ path })).toThrow(/notes\.txt.*file is not a database/);
		expect(readFileSync(path, "utf8")).toBe("my notes, not a database\n".repeat(200));
	});
});

describe("a SQLite store whose database is full", () => {
	// max_page_count stands in for a full disk: SQLite answers both with SQLITE_FULL
	// (https://www.sqlite.org/pragma.html#pragma_max_page_count), and the store cannot tell them apart.
	it("names the file and the session, stores nothing of the write, and writes again once there is room", async () => {
		const path = join(directory, "sessions.db");
		const database = new Database(path);
		const store = createSqliteTranscriptStore({ database });
		try {
			const writer = await store.openWriter("s1", { create: header("s1") });
			await writer.append(userRecord("s1", "u1", null, "before the disk filled up"));
			database.pragma(`max_page_count = ${database.pragma("page_count", { simple: true })}`);

			const appendError = await writer
				.append(userRecord("s1", "u2", "u1", "x".repeat(100_000)))
				.catch((thrown: unknown) => thrown);
			expect(appendError).toBeInstanceOf(SqliteTranscriptStoreError);
			expect((appendError as Error).message).toContain(`"${path}" is full`);
			expect((appendError as Error).message).toContain('session "s1" was stored');
			expect(((appendError as Error).cause as { code?: string }).code).toBe("SQLITE_FULL");
			const createError = await store
				.openWriter("s2", { create: header("s2", { title: "y".repeat(100_000) }) })
				.catch((thrown: unknown) => thrown);
			expect(createError).toBeInstanceOf(SqliteTranscriptStoreError);
			expect((createError as Error).message).toContain('session "s2"');
			expect(await store.exists("s2")).toBe(false);

			database.pragma("max_page_count = 1073741823");
			await writer.append(userRecord("s1", "u2", "u1", "after making room"));
			await writer.close();
			const { records, problems } = await store.read("s1");
			expect(problems).toEqual([]);
			expect(records.map((record) => (record as { id?: string }).id ?? record.type)).toEqual(["session", "u1", "u2"]);
		} finally {
			store.close();
			database.close();
		}
	});
});

describeRecordSizeLimit("SQLite", createSqliteStoreHarness(), SQLITE_MAX_RECORD_BYTES);

// What goes wrong before a session is stored: a database path in a directory that does not exist, a
// file that is not a SQLite database, a record too large for the store (a case every database store
// shares: database-store-record-limit.ts). Each is a clear error naming the cause, and nothing
// already stored is lost.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeRecordSizeLimit } from "../../agent/test/database-store-record-limit.js";
import { createSqliteTranscriptStore, SqliteTranscriptStoreError } from "../src/index.js";
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

describeRecordSizeLimit("SQLite", createSqliteStoreHarness());

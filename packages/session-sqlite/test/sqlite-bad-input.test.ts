// What goes wrong before a session is stored: a database path in a directory that does not exist, a
// file that is not a SQLite database, a record too large for the store. Each is a clear error
// naming the cause, and nothing already stored is lost.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionRecordError } from "../../agent/src/session/index.js";
import { header, userRecord } from "../../agent/test/session-fixtures.js";
import { createSqliteTranscriptStore, SqliteTranscriptStoreError } from "../src/index.js";

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

describe("a record too large for the store", () => {
	it("is refused with its size and the limit; the batch is not written and the writer goes on", async () => {
		const store = createSqliteTranscriptStore({ path: join(directory, "sessions.db"), maxRecordBytes: 1024 });
		const writer = await store.openWriter("s1", { create: header("s1") });
		await writer.append(userRecord("s1", "u1", null, "small"));
		const error = await writer
			.append([userRecord("s1", "u2", "u1", "fits"), userRecord("s1", "u3", "u2", "x".repeat(2048))])
			.catch((thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(SessionRecordError);
		expect((error as Error).message).toMatch(/message record of \d+ bytes is over the limit of 1024 bytes/);
		await writer.append(userRecord("s1", "u2", "u1", "after"));
		await writer.close();
		const { records, problems } = await store.read("s1");
		expect(problems).toEqual([]);
		expect(records.map((record) => (record as { id?: string }).id ?? record.type)).toEqual(["session", "u1", "u2"]);
		store.close();
	});
});

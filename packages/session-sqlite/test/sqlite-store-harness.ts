// The SQLite store for the suites the database stores share: each test on a database file of its own.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { DatabaseStoreHarness } from "../../agent/test/database-store-harness.js";
import { createSqliteTranscriptStore, type SqliteTranscriptStore } from "../src/index.js";

export function createSqliteStoreHarness(): DatabaseStoreHarness {
	let directory: string | undefined;
	let store: SqliteTranscriptStore | undefined;
	const path = () => join(directory ?? "", "sessions.db");
	return {
		async open(options) {
			directory = mkdtempSync(join(tmpdir(), "keel-sqlite-shared-"));
			store = createSqliteTranscriptStore({ path: path(), ...options });
			return store;
		},
		async cleanup() {
			store?.close();
			if (directory) rmSync(directory, { recursive: true, force: true });
			store = undefined;
			directory = undefined;
		},
		async storedNumbers(sessionId) {
			const observer = new Database(path(), { readonly: true });
			try {
				const seqs = observer
					.prepare("SELECT seq FROM keel_records WHERE tenant = 'default' AND session_id = ? ORDER BY seq")
					.pluck()
					.all(sessionId) as number[];
				const lastSeq = observer
					.prepare("SELECT last_seq FROM keel_sessions WHERE tenant = 'default' AND session_id = ?")
					.pluck()
					.get(sessionId) as number;
				return { seqs, lastSeq };
			} finally {
				observer.close();
			}
		},
	};
}

// The store contract held by the SQLite store, each test on its own temporary database file.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { describeTranscriptStoreConformance } from "../../agent/test/transcript-store-conformance.js";
import { createSqliteTranscriptStore, type SqliteTranscriptStore } from "../src/index.js";

let directory: string | undefined;
let store: SqliteTranscriptStore | undefined;

describeTranscriptStoreConformance("SQLite", {
	async open() {
		directory = mkdtempSync(join(tmpdir(), "keel-sqlite-conformance-"));
		const path = join(directory, "sessions.db");
		store = createSqliteTranscriptStore({ path });
		return {
			store,
			childSpec: path,
			async damageRecord(sessionId, lineNumber, text) {
				const database = new Database(path);
				database
					.prepare("UPDATE keel_records SET line = ? WHERE session_id = ? AND seq = ?")
					.run(text, sessionId, lineNumber);
				database.close();
			},
		};
	},
	async cleanup() {
		store?.close();
		if (directory) rmSync(directory, { recursive: true, force: true });
		store = undefined;
		directory = undefined;
	},
	childStoreModule: fileURLToPath(new URL("./sqlite-child-store.ts", import.meta.url)),
	childTsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)),
	atomicAppends: true,
	takeOver: true,
});

// What the suites shared by the database stores (SQLite, PostgreSQL) need from each store's test
// file: a fresh, empty store per test, a look at how its rows are numbered, and removal afterwards.
import type { DatabaseTranscriptStore } from "../src/session/index.js";

export interface DatabaseStoreHarness {
	/** A new, empty store of its own (its own database file or schema), with these settings. */
	open(options?: { maxRecordBytes?: number }): Promise<DatabaseTranscriptStore>;
	/** Removes what `open` made. */
	cleanup(): Promise<void>;
	/**
	 * Read from the tables, not through the store: the numbers (`seq`) of a session's stored records in
	 * order, and the number its session row says it reached (`last_seq`).
	 */
	storedNumbers(sessionId: string): Promise<{ seqs: number[]; lastSeq: number }>;
}

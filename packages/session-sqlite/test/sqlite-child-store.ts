// How the conformance suite's child process opens a SQLite store: the spec is the database's path.
import { createSqliteTranscriptStore, type SqliteTranscriptStore } from "../src/index.js";

export async function openStore(path: string): Promise<SqliteTranscriptStore> {
	return createSqliteTranscriptStore({ path });
}

// @keel/session-sqlite: a TranscriptStore for @keel/agent-core sessions in a SQLite database file.

// The record limit both database stores use unless told otherwise (defined in @keel/agent-core).
export { DEFAULT_MAX_RECORD_BYTES } from "@keel/agent-core/session";
export { SQLITE_MAX_RECORD_BYTES } from "./sqlite-capacity.js";
export { SqliteSchemaVersionError, SqliteTranscriptStoreError } from "./sqlite-errors.js";
export { migrateSqliteSchema, SQLITE_SCHEMA_VERSION } from "./sqlite-schema.js";
export {
	createSqliteTranscriptStore,
	type SqliteDurability,
	type SqliteTranscriptStore,
	type SqliteTranscriptStoreOptions,
} from "./sqlite-transcript-store.js";
export type { SqliteOpenWriterOptions } from "./sqlite-transcript-writer.js";

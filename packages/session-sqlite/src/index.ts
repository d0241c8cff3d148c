// @keel/session-sqlite: a TranscriptStore for @keel/agent-core sessions in a SQLite database file.
export { SqliteSchemaVersionError, SqliteTranscriptStoreError } from "./sqlite-errors.js";
export { migrateSqliteSchema, SQLITE_SCHEMA_VERSION } from "./sqlite-schema.js";
export {
	createSqliteTranscriptStore,
	DEFAULT_MAX_RECORD_BYTES,
	type SqliteDurability,
	type SqliteTranscriptStore,
	type SqliteTranscriptStoreOptions,
} from "./sqlite-transcript-store.js";
export type { SqliteOpenWriterOptions } from "./sqlite-transcript-writer.js";

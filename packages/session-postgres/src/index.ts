// @keel/session-postgres: a TranscriptStore for @keel/agent-core sessions in PostgreSQL, shared by
// many processes and tenants.
export { PostgresSchemaVersionError, PostgresTranscriptStoreError } from "./postgres-errors.js";
export { migratePostgresSchema, POSTGRES_SCHEMA_VERSION } from "./postgres-schema.js";
export {
	createPostgresTranscriptStore,
	DEFAULT_MAX_RECORD_BYTES,
	type PostgresTranscriptStore,
	type PostgresTranscriptStoreOptions,
} from "./postgres-transcript-store.js";
export type { PostgresOpenWriterOptions } from "./postgres-transcript-writer.js";

// @keel/session-postgres: a TranscriptStore for @keel/agent-core sessions in PostgreSQL, shared by
// many processes and tenants.

// The record limit both database stores use unless told otherwise (defined in @keel/agent-core).
export { DEFAULT_MAX_RECORD_BYTES } from "@keel/agent-core/session";
export { POSTGRES_MAX_GROUP_BYTES, POSTGRES_MAX_RECORD_BYTES } from "./postgres-capacity.js";
export { PostgresSchemaVersionError, PostgresTranscriptStoreError } from "./postgres-errors.js";
export { migratePostgresSchema, POSTGRES_SCHEMA_VERSION } from "./postgres-schema.js";
export {
	createPostgresTranscriptStore,
	type PostgresTranscriptStore,
	type PostgresTranscriptStoreOptions,
} from "./postgres-transcript-store.js";
export type { PostgresOpenWriterOptions } from "./postgres-transcript-writer.js";

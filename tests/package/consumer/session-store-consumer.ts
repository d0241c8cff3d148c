// Type-checked (never run) with consumer.ts: @keel/session-postgres as an application uses it, a
// PostgreSQL store for its sessions, checked against the published declarations.
import {
	createPostgresTranscriptStore,
	POSTGRES_SCHEMA_VERSION,
	type PostgresTranscriptStore,
} from "@keel/session-postgres";

export const store: Promise<PostgresTranscriptStore> = createPostgresTranscriptStore({
	connectionString: "postgres://127.0.0.1:5432/app",
	tenant: "tenant-a",
});
export const schemaVersion: number = POSTGRES_SCHEMA_VERSION;

// How the conformance suite's child process opens a PostgreSQL store: the spec is JSON naming the
// connection string and schema.
import { createPostgresTranscriptStore, type PostgresTranscriptStore } from "../src/index.js";

export async function openStore(spec: string): Promise<PostgresTranscriptStore> {
	const { connectionString, schema } = JSON.parse(spec) as { connectionString: string; schema: string };
	return createPostgresTranscriptStore({ connectionString, schema });
}

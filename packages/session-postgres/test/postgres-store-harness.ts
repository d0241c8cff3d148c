// The PostgreSQL store for the suites the database stores share: each test in a schema of its own.
import type { DatabaseStoreHarness } from "../../agent/test/database-store-harness.js";
import { createPostgresTranscriptStore, type PostgresTranscriptStore } from "../src/index.js";
import { createTestSchema, dropTestSchema, POSTGRES_URL, withAdmin } from "./postgres-test-database.js";

export function createPostgresStoreHarness(): DatabaseStoreHarness {
	let schema: string | undefined;
	let store: PostgresTranscriptStore | undefined;
	return {
		async open(options) {
			schema = await createTestSchema();
			store = await createPostgresTranscriptStore({ connectionString: POSTGRES_URL, schema, ...options });
			return store;
		},
		async cleanup() {
			await store?.close();
			if (schema) await dropTestSchema(schema);
			store = undefined;
			schema = undefined;
		},
		async storedNumbers(sessionId) {
			const { rows } = await withAdmin((client) =>
				client.query<{ seqs: string[]; last_seq: string }>(
					`SELECT array(SELECT r.seq FROM ${schema}.keel_records r
						WHERE r.tenant = s.tenant AND r.session_id = s.session_id ORDER BY r.seq) AS seqs, s.last_seq
					FROM ${schema}.keel_sessions s WHERE s.tenant = 'default' AND s.session_id = $1`,
					[sessionId],
				),
			);
			return { seqs: rows[0].seqs.map(Number), lastSeq: Number(rows[0].last_seq) };
		},
	};
}

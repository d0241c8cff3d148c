// The store contract held by the PostgreSQL store, each test in a schema of its own.
import { fileURLToPath } from "node:url";
import { describeTranscriptStoreConformance } from "../../agent/test/transcript-store-conformance.js";
import { createPostgresTranscriptStore, type PostgresTranscriptStore } from "../src/index.js";
import { createTestSchema, dropTestSchema, POSTGRES_URL, withAdmin } from "./postgres-test-database.js";

let schema: string | undefined;
let store: PostgresTranscriptStore | undefined;

describeTranscriptStoreConformance("PostgreSQL", {
	async open() {
		const ownSchema = await createTestSchema();
		schema = ownSchema;
		store = await createPostgresTranscriptStore({ connectionString: POSTGRES_URL, schema: ownSchema });
		return {
			store,
			childSpec: JSON.stringify({ connectionString: POSTGRES_URL, schema: ownSchema }),
			async damageRecord(sessionId, lineNumber, text) {
				await withAdmin((client) =>
					client.query(`UPDATE ${ownSchema}.keel_records SET line = $1 WHERE session_id = $2 AND seq = $3`, [
						text,
						sessionId,
						lineNumber,
					]),
				);
			},
		};
	},
	async cleanup() {
		await store?.close();
		if (schema) await dropTestSchema(schema);
		store = undefined;
		schema = undefined;
	},
	childStoreModule: fileURLToPath(new URL("./postgres-child-store.ts", import.meta.url)),
	childTsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)),
	atomicAppends: true,
	takeOver: true,
});

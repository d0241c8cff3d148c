// Several tenants in one PostgreSQL schema: each store sees only its own tenant's sessions, also
// when each tenant's store has its own pool.
import { describeTenantIsolation } from "../../agent/test/transcript-store-conformance.js";
import { createPostgresTranscriptStore, type PostgresTranscriptStore } from "../src/index.js";
import { createTestSchema, dropTestSchema, POSTGRES_URL } from "./postgres-test-database.js";

let schema: string | undefined;
let stores: PostgresTranscriptStore[] = [];

describeTenantIsolation("PostgreSQL", {
	async open() {
		schema = await createTestSchema();
		const tenantA = await createPostgresTranscriptStore({ connectionString: POSTGRES_URL, schema, tenant: "tenant-a" });
		const tenantB = await createPostgresTranscriptStore({ connectionString: POSTGRES_URL, schema, tenant: "tenant-b" });
		stores = [tenantA, tenantB];
		return { tenantA, tenantB };
	},
	async cleanup() {
		for (const store of stores) await store.close();
		stores = [];
		if (schema) await dropTestSchema(schema);
	},
});

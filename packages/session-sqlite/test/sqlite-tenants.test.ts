// Several tenants in one SQLite database: each store sees only its own tenant's sessions.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeTenantIsolation } from "../../agent/test/transcript-store-conformance.js";
import { createSqliteTranscriptStore, type SqliteTranscriptStore } from "../src/index.js";

let directory: string | undefined;
let store: SqliteTranscriptStore | undefined;

describeTenantIsolation("SQLite", {
	async open() {
		directory = mkdtempSync(join(tmpdir(), "keel-sqlite-tenants-"));
		store = createSqliteTranscriptStore({ path: join(directory, "sessions.db"), tenant: "tenant-a" });
		return { tenantA: store, tenantB: store.forTenant("tenant-b") };
	},
	async cleanup() {
		store?.close();
		if (directory) rmSync(directory, { recursive: true, force: true });
	},
});

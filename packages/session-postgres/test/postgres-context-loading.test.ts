// Opening a PostgreSQL session with load: "context" reads each record of the model context once
// (the cases every database store shares: database-store-context-loading.ts).
import { describeDatabaseContextLoading } from "../../agent/test/database-store-context-loading.js";
import { createPostgresStoreHarness } from "./postgres-store-harness.js";

describeDatabaseContextLoading("PostgreSQL", createPostgresStoreHarness());

// What goes wrong before a session is stored: a server that does not answer, credentials it
// refuses, a database or schema that does not exist, a record too large for the store (a case every
// database store shares: database-store-record-limit.ts). Each is a clear error naming the cause
// (never the password), and nothing already stored is lost.
import { describe, expect, it } from "vitest";
import { describeRecordSizeLimit } from "../../agent/test/database-store-record-limit.js";
import { createPostgresTranscriptStore, PostgresTranscriptStoreError } from "../src/index.js";
import { createPostgresStoreHarness } from "./postgres-store-harness.js";
import { POSTGRES_URL, withAdmin } from "./postgres-test-database.js";

async function refusal(
	options: Parameters<typeof createPostgresTranscriptStore>[0],
): Promise<PostgresTranscriptStoreError> {
	const error = await createPostgresTranscriptStore(options).then(
		() => undefined,
		(thrown: unknown) => thrown,
	);
	expect(error).toBeInstanceOf(PostgresTranscriptStoreError);
	return error as PostgresTranscriptStoreError;
}

describe("creating a PostgreSQL store with bad connection settings", () => {
	it("names the address when nothing answers there", async () => {
		// Port 1 on the loopback interface: nothing listens, the connection is refused at once.
		const error = await refusal({ connectionString: "postgres://postgres:hunter2@127.0.0.1:1/test" });
		expect(error.reason).toBe("unreachable");
		expect(error.message).toContain("127.0.0.1:1");
		expect(error.message).toMatch(/server is running/);
		expect(error.message).not.toContain("hunter2");
	});

	it("names the user the server refused, never the password", async () => {
		const error = await refusal({
			connectionString: "postgres://keel_no_such_user:hunter2@127.0.0.1:5432/test",
		});
		expect(error.reason).toBe("credentials");
		expect(error.message).toContain('user "keel_no_such_user"');
		expect(error.message).not.toContain("hunter2");
	});

	it("names a database that does not exist", async () => {
		const error = await refusal({ connectionString: "postgres://postgres@127.0.0.1:5432/keel_no_such_database" });
		expect(error.reason).toBe("missing-database");
		expect(error.message).toContain("keel_no_such_database");
	});

	it("names a schema that does not exist and creates nothing", async () => {
		const error = await refusal({ connectionString: POSTGRES_URL, schema: "keel_no_such_schema" });
		expect(error.reason).toBe("missing-schema");
		expect(error.message).toContain('CREATE SCHEMA "keel_no_such_schema"');
		const { rowCount } = await withAdmin((client) =>
			client.query("SELECT 1 FROM pg_namespace WHERE nspname = 'keel_no_such_schema'"),
		);
		expect(rowCount).toBe(0);
	});
});

describeRecordSizeLimit("PostgreSQL", createPostgresStoreHarness());

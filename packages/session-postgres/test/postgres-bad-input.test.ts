// What goes wrong before a session is stored: a server that does not answer, credentials it
// refuses, a database or schema that does not exist, a record too large for the store. Each is a
// clear error naming the cause (never the password), and nothing already stored is lost.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionRecordError } from "../../agent/src/session/index.js";
import { header, userRecord } from "../../agent/test/session-fixtures.js";
import { createPostgresTranscriptStore, PostgresTranscriptStoreError } from "../src/index.js";
import { createTestSchema, dropTestSchema, POSTGRES_URL, withAdmin } from "./postgres-test-database.js";

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

describe("a record too large for the store", () => {
	let schema: string;
	beforeEach(async () => {
		schema = await createTestSchema();
	});
	afterEach(() => dropTestSchema(schema));

	it("is refused with its size and the limit; the batch is not written and the writer goes on", async () => {
		const store = await createPostgresTranscriptStore({ connectionString: POSTGRES_URL, schema, maxRecordBytes: 1024 });
		try {
			const writer = await store.openWriter("s1", { create: header("s1") });
			await writer.append(userRecord("s1", "u1", null, "small"));
			const error = await writer
				.append([userRecord("s1", "u2", "u1", "fits"), userRecord("s1", "u3", "u2", "x".repeat(2048))])
				.catch((thrown: unknown) => thrown);
			expect(error).toBeInstanceOf(SessionRecordError);
			expect((error as Error).message).toMatch(/message record of \d+ bytes is over the limit of 1024 bytes/);
			await writer.append(userRecord("s1", "u2", "u1", "after"));
			await writer.close();
			const { records, problems } = await store.read("s1");
			expect(problems).toEqual([]);
			expect(records.map((record) => (record as { id?: string }).id ?? record.type)).toEqual(["session", "u1", "u2"]);
		} finally {
			await store.close();
		}
	});
});

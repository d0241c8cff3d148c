// What goes wrong around storing a session: a server that does not answer, credentials it refuses,
// a database or schema that does not exist, a server out of disk space, a record too large for the
// store (a case every database store shares: database-store-record-limit.ts). Each is a clear error
// naming the cause (never the password), and nothing already stored is lost; so is an append too large
// for the one statement that carries it.

import { SessionRecordError } from "@keel/agent-core/session";
import { afterEach, describe, expect, it } from "vitest";
import { describeRecordSizeLimit } from "../../agent/test/database-store-record-limit.js";
import { header, userRecord } from "../../agent/test/session-fixtures.js";
import {
	createPostgresTranscriptStore,
	POSTGRES_MAX_RECORD_BYTES,
	PostgresTranscriptStoreError,
} from "../src/index.js";
import { createPostgresStoreHarness } from "./postgres-store-harness.js";
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

describe("a PostgreSQL server out of disk space", () => {
	// The shared server's disk cannot be filled: a trigger in the test's own schema raises the error
	// a full disk does (SQLSTATE 53100 disk_full), so the append meets it as it would for real.
	it("fails the append with a disk-full error naming the session, stores nothing of it, and appends again once there is room", async () => {
		const schema = await createTestSchema();
		const store = await createPostgresTranscriptStore({ connectionString: POSTGRES_URL, schema });
		try {
			const writer = await store.openWriter("s1", { create: header("s1") });
			await writer.append(userRecord("s1", "u1", null, "before the disk filled up"));
			await withAdmin((client) =>
				client.query(`
					CREATE FUNCTION ${schema}.disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
					BEGIN
						RAISE EXCEPTION 'could not extend file "base/1/2": No space left on device' USING ERRCODE = 'disk_full';
					END $$;
					CREATE TRIGGER disk_full BEFORE INSERT ON ${schema}.keel_records
						FOR EACH ROW EXECUTE FUNCTION ${schema}.disk_full();`),
			);
			const error = await writer
				.append(userRecord("s1", "u2", "u1", "lost to the full disk"))
				.catch((thrown: unknown) => thrown);
			expect(error).toBeInstanceOf(PostgresTranscriptStoreError);
			expect((error as PostgresTranscriptStoreError).reason).toBe("disk-full");
			expect((error as Error).message).toMatch(/out of disk space \(.*No space left on device\)/);
			expect((error as Error).message).toContain('session "s1": nothing of the append was stored');

			await withAdmin((client) => client.query(`DROP TRIGGER disk_full ON ${schema}.keel_records`));
			await writer.append(userRecord("s1", "u2", "u1", "after making room"));
			await writer.close();
			const { records, problems } = await store.read("s1");
			expect(problems).toEqual([]);
			expect(records.map((record) => (record as { id?: string }).id ?? record.type)).toEqual(["session", "u1", "u2"]);
		} finally {
			await store.close();
			await dropTestSchema(schema);
		}
	});
});

describeRecordSizeLimit("PostgreSQL", createPostgresStoreHarness(), POSTGRES_MAX_RECORD_BYTES);

describe("an append too large for the one statement that carries it to PostgreSQL", () => {
	const harness = createPostgresStoreHarness();
	afterEach(() => harness.cleanup());

	// Each record is under maxRecordBytes (32 MiB by default); five of them are over the 128 MiB one
	// append can carry (postgres-capacity.ts). The append is refused whole, before anything is sent.
	it("is refused with its size and the limit, nothing of it is written, and the writer goes on", async () => {
		const store = await harness.open({});
		const writer = await store.openWriter("s1", { create: header("s1") });
		await writer.append(userRecord("s1", "u1", null, "before"));
		const text = "x".repeat(27 * 1024 * 1024);
		const huge = Array.from({ length: 5 }, (_, index) =>
			userRecord("s1", `big${index}`, index === 0 ? "u1" : `big${index - 1}`, text),
		);
		const error = await writer.append(huge).catch((thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(SessionRecordError);
		expect((error as Error).message).toMatch(
			new RegExp(
				`^an append of 5 records and \\d+ bytes is over the ${POSTGRES_MAX_RECORD_BYTES} bytes one append can carry to PostgreSQL \\(POSTGRES_MAX_RECORD_BYTES\\); nothing of it was written`,
			),
		);
		await writer.append(userRecord("s1", "u2", "u1", "after"));
		await writer.close();
		const { records, problems } = await store.read("s1");
		expect(problems).toEqual([]);
		expect(records.map((record) => (record as { id?: string }).id ?? record.type)).toEqual(["session", "u1", "u2"]);
	});
});

// Group commit in the PostgreSQL store: the appends many sessions make at the same moment travel as
// one statement (the behaviour every database store shares is in database-store-group-commit.ts);
// here, what only a statement the server refuses shows.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeGroupCommit, groupHeader, groupMessage } from "../../agent/test/database-store-group-commit.js";
import { createPostgresTranscriptStore, type PostgresTranscriptStore } from "../src/index.js";
import { createPostgresStoreHarness } from "./postgres-store-harness.js";
import { createTestSchema, dropTestSchema, POSTGRES_URL, withAdmin } from "./postgres-test-database.js";

describeGroupCommit("PostgreSQL", createPostgresStoreHarness());

describe("PostgreSQL appends of many sessions in one statement", () => {
	let schema: string;
	let store: PostgresTranscriptStore;
	beforeEach(async () => {
		schema = await createTestSchema();
		store = await createPostgresTranscriptStore({ connectionString: POSTGRES_URL, schema });
	});
	afterEach(async () => {
		await store.close();
		await dropTestSchema(schema);
	});

	it("fails only the append the server refuses, not the others sent with it", async () => {
		const first = await store.openWriter("first", { create: groupHeader("first") });
		const second = await store.openWriter("second", { create: groupHeader("second") });
		// A row squatting on the seq "second"'s next record will take: its insert breaks the primary key.
		await withAdmin((client) =>
			client.query(
				`INSERT INTO ${schema}.keel_records (tenant, session_id, seq, role, line) VALUES ('default', 'second', 2, NULL, '{}')`,
			),
		);
		const [firstAppend, secondAppend] = await Promise.allSettled([
			first.append(groupMessage("first", 0)),
			second.append(groupMessage("second", 0)),
		]);
		expect(firstAppend.status).toBe("fulfilled");
		expect(secondAppend.status).toBe("rejected");
		expect(String((secondAppend as PromiseRejectedResult).reason)).toMatch(/duplicate key/);
		expect((await store.read("first")).records).toHaveLength(2);
		const { rows } = await withAdmin((client) =>
			client.query(`SELECT last_seq FROM ${schema}.keel_sessions WHERE session_id = 'second'`),
		);
		expect(Number(rows[0].last_seq)).toBe(1);
		await Promise.all([first.close(), second.close()]);
	});
});

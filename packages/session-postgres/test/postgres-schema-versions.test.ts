// The store creates and upgrades its own tables: an older schema is brought up to date with its
// sessions intact (and searchable), a newer one is refused and left as it was.

import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPostgresTranscriptStore, POSTGRES_SCHEMA_VERSION, PostgresSchemaVersionError } from "../src/index.js";
import { migratePostgresSchema } from "../src/postgres-schema.js";
import { createTestSchema, dropTestSchema, POSTGRES_URL } from "./postgres-test-database.js";

let schema: string;
beforeEach(async () => {
	schema = await createTestSchema();
});
afterEach(() => dropTestSchema(schema));

async function withPoolClient<T>(run: (client: pg.PoolClient) => Promise<T>): Promise<T> {
	const pool = new pg.Pool({ connectionString: POSTGRES_URL });
	const client = await pool.connect();
	try {
		return await run(client);
	} finally {
		client.release();
		await pool.end();
	}
}

describe("the PostgreSQL store's schema", () => {
	it("is created in an empty schema at the current version", async () => {
		const store = await createPostgresTranscriptStore({ connectionString: POSTGRES_URL, schema });
		await store.close();
		const { rows } = await withPoolClient((client) =>
			client.query(`SELECT version FROM ${schema}.keel_schema_version`),
		);
		expect(rows).toEqual([{ version: POSTGRES_SCHEMA_VERSION }]);
	});

	it("upgrades a version-1 schema, keeping its sessions and making them searchable", async () => {
		await withPoolClient(async (client) => {
			await migratePostgresSchema(client, schema, 1);
			await client.query(
				`INSERT INTO ${schema}.keel_sessions (tenant, session_id, created_at, updated_at, title, size_bytes, last_seq)
				VALUES ('default', 'old', 1, 2, 'Old Title', 100, 2)`,
			);
			await client.query(`INSERT INTO ${schema}.keel_records (tenant, session_id, seq, role, line) VALUES
				('default', 'old', 1, NULL, '{"v":1,"type":"session","sessionId":"old","timestamp":1,"title":"Old Title"}'),
				('default', 'old', 2, 'user', '{"v":1,"type":"message","sessionId":"old","id":"u1","parentId":null,"timestamp":2,"message":{"role":"user","content":"Written before search existed","timestamp":2}}')`);
		});
		const store = await createPostgresTranscriptStore({ connectionString: POSTGRES_URL, schema });
		try {
			expect((await store.list({ search: "before SEARCH" })).map((info) => info.sessionId)).toEqual(["old"]);
			expect((await store.list({ search: "old title" })).map((info) => info.sessionId)).toEqual(["old"]);
			const { records, problems } = await store.read("old");
			expect(problems).toEqual([]);
			expect(records).toHaveLength(2);
		} finally {
			await store.close();
		}
		const { rows } = await withPoolClient((client) =>
			client.query(`SELECT version FROM ${schema}.keel_schema_version`),
		);
		expect(rows).toEqual([{ version: POSTGRES_SCHEMA_VERSION }]);
	});

	it("compresses stored records and outline pages with lz4 when the server has it (pglz costs more CPU than the rest of an append)", async () => {
		const store = await createPostgresTranscriptStore({ connectionString: POSTGRES_URL, schema });
		await store.close();
		const { rows } = await withPoolClient((client) =>
			client.query<{ attname: string; attcompression: string; lz4: boolean }>(
				`SELECT attname, attcompression,
					EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)) AS lz4
				FROM pg_attribute WHERE (attrelid = $1::regclass AND attname IN ('line', 'search_text'))
					OR (attrelid = $2::regclass AND attname = 'outlines') ORDER BY attname`,
				[`${schema}.keel_records`, `${schema}.keel_outline_pages`],
			),
		);
		expect(rows.map((row) => row.attname)).toEqual(["line", "outlines", "search_text"]);
		for (const row of rows) expect(row.attcompression).toBe(row.lz4 ? "l" : "");
	});

	it("refuses a newer schema with a clear error and changes nothing", async () => {
		await withPoolClient(async (client) => {
			await migratePostgresSchema(client, schema);
			await client.query(`UPDATE ${schema}.keel_schema_version SET version = 99`);
		});
		const error = await createPostgresTranscriptStore({ connectionString: POSTGRES_URL, schema }).catch(
			(thrown: unknown) => thrown,
		);
		expect(error).toBeInstanceOf(PostgresSchemaVersionError);
		expect((error as Error).message).toContain(`version 99, newer than the version ${POSTGRES_SCHEMA_VERSION}`);
		const { rows } = await withPoolClient((client) =>
			client.query(`SELECT version FROM ${schema}.keel_schema_version`),
		);
		expect(rows).toEqual([{ version: 99 }]);
	});

	it("is created once when several stores start at the same time", async () => {
		const stores = await Promise.all(
			Array.from({ length: 4 }, () => createPostgresTranscriptStore({ connectionString: POSTGRES_URL, schema })),
		);
		for (const store of stores) await store.close();
		const { rows } = await withPoolClient((client) =>
			client.query(`SELECT version FROM ${schema}.keel_schema_version`),
		);
		expect(rows).toEqual([{ version: POSTGRES_SCHEMA_VERSION }]);
	});
});

// Each PostgreSQL test gets a schema of its own in the test database, dropped afterwards.
// KEEL_TEST_POSTGRES_URL overrides where that database is (default: the local server, trust auth).
import { randomUUID } from "node:crypto";
import pg from "pg";

export const POSTGRES_URL = process.env.KEEL_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
	const client = new pg.Client({ connectionString: POSTGRES_URL });
	await client.connect();
	try {
		return await run(client);
	} finally {
		await client.end();
	}
}

/** Creates an empty schema with a unique name and returns it. */
export async function createTestSchema(): Promise<string> {
	const schema = `keel_test_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
	await withAdmin((client) => client.query(`CREATE SCHEMA ${schema}`));
	return schema;
}

export async function dropTestSchema(schema: string): Promise<void> {
	await withAdmin((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
}

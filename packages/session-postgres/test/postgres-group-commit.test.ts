// Group commit in the PostgreSQL store: the appends many sessions make at the same moment travel as
// one statement (the behaviour every database store shares is in database-store-group-commit.ts);
// here, what only a statement the server refuses shows, and the cap on what one statement carries.
import { serializeSessionRecord } from "@keel/agent-core/session";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeGroupCommit, groupHeader, groupMessage } from "../../agent/test/database-store-group-commit.js";
import { createPostgresTranscriptStore, type PostgresTranscriptStore } from "../src/index.js";
import { createAppendBatcher, type PendingAppend } from "../src/postgres-append-batcher.js";
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

describe("PostgreSQL statements of appends capped by their total size", () => {
	let schema: string;
	let store: PostgresTranscriptStore;
	let pool: pg.Pool;
	beforeEach(async () => {
		schema = await createTestSchema();
		store = await createPostgresTranscriptStore({ connectionString: POSTGRES_URL, schema });
		pool = new pg.Pool({ connectionString: POSTGRES_URL });
	});
	afterEach(async () => {
		await pool.end();
		await store.close();
		await dropTestSchema(schema);
	});

	/** An append of one message of about `size` bytes to a session whose writer holds token 1. */
	function pendingAppend(sessionId: string, size: number, settled: Promise<unknown>[]): PendingAppend {
		const record = { ...groupMessage(sessionId, 0) };
		record.message = { role: "user", content: "x".repeat(size), timestamp: record.timestamp };
		const line = serializeSessionRecord(record);
		let settle: PendingAppend["settle"] = () => {};
		settled.push(new Promise((resolve) => (settle = resolve)));
		return {
			sessionId,
			token: 1,
			lines: [line],
			outlines: [null],
			roles: ["user"],
			searchTexts: [null],
			bytes: Buffer.byteLength(line) + 1,
			newestTimestamp: record.timestamp,
			title: null,
			titleSearch: null,
			afterSeq: 1,
			pages: [],
			settle,
		};
	}

	it("splits the appends of one moment into statements under the cap, sends one larger than the cap alone, and commits every one", async () => {
		const sessions = Array.from({ length: 7 }, (_, index) => `capped-${index}`);
		const writers = await Promise.all(sessions.map((id) => store.openWriter(id, { create: groupHeader(id) })));
		let statements = 0;
		const counting = {
			query: (...args: Parameters<pg.Pool["query"]>) => {
				statements++;
				return (pool.query as (...a: unknown[]) => unknown)(...args);
			},
		} as unknown as pg.Pool;
		// Room for two 1,000-byte appends a statement, not three; the last append alone is over the cap.
		const batcher = createAppendBatcher(counting, schema, "default", 30_000, 2_500);
		const settled: Promise<unknown>[] = [];
		for (const id of sessions.slice(0, 6)) batcher.append(pendingAppend(id, 1_000, settled));
		batcher.append(pendingAppend(sessions[6], 5_000, settled));

		expect(await Promise.all(settled)).toEqual(sessions.map(() => ({ moved: true })));
		expect(statements).toBe(4);
		for (const id of sessions)
			expect((await store.read(id)).records.map((record) => record.type)).toEqual(["session", "message"]);
		await Promise.all(writers.map((writer) => writer.close()));
	});
});

// Group commit: the appends many sessions make at the same moment travel as one statement, yet each
// lands in its own session, in order, and a fenced writer among them is refused alone.
import { SessionFencedError, type SessionMessageRecord } from "@keel/agent-core/session";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPostgresTranscriptStore, type PostgresTranscriptStore } from "../src/index.js";
import { createTestSchema, dropTestSchema, POSTGRES_URL, withAdmin } from "./postgres-test-database.js";

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

function header(sessionId: string) {
	return { v: 1 as const, type: "session" as const, sessionId, timestamp: 1 };
}

function message(sessionId: string, index: number): SessionMessageRecord {
	return {
		v: 1,
		type: "message",
		sessionId,
		id: `${sessionId}-m${index}`,
		parentId: index === 0 ? null : `${sessionId}-m${index - 1}`,
		timestamp: 2 + index,
		message: { role: "user", content: `message ${index} of ${sessionId}`, timestamp: 2 + index },
	};
}

describe("appends of many sessions at once (group commit)", () => {
	it("puts every record in its own session, in order, numbered without gaps", async () => {
		const sessionIds = Array.from({ length: 20 }, (_, index) => `group-${index}`);
		const writers = await Promise.all(sessionIds.map((id) => store.openWriter(id, { create: header(id) })));
		// Not awaited one by one: every writer's appends are queued in the same turn.
		await Promise.all(
			writers.map((writer, index) =>
				Promise.all(Array.from({ length: 10 }, (_, turn) => writer.append(message(sessionIds[index], turn)))),
			),
		);
		await Promise.all(writers.map((writer) => writer.close()));
		for (const sessionId of sessionIds) {
			const { records, problems } = await store.read(sessionId);
			expect(problems).toEqual([]);
			expect(records.map((record) => (record as { id?: string }).id ?? record.type)).toEqual([
				"session",
				...Array.from({ length: 10 }, (_, turn) => `${sessionId}-m${turn}`),
			]);
		}
		const { rows } = await withAdmin((client) =>
			client.query<{ session_id: string; seqs: string[]; last_seq: string }>(
				`SELECT r.session_id, array_agg(r.seq ORDER BY r.seq) AS seqs, max(s.last_seq) AS last_seq
				FROM ${schema}.keel_records r JOIN ${schema}.keel_sessions s USING (tenant, session_id)
				GROUP BY r.session_id`,
			),
		);
		expect(rows).toHaveLength(20);
		for (const row of rows) {
			expect(row.seqs.map(Number)).toEqual(Array.from({ length: 11 }, (_, index) => index + 1));
			expect(Number(row.last_seq)).toBe(11);
		}
	});

	it("refuses a fenced writer's append and commits the others sent with it", async () => {
		const fenced = await store.openWriter("taken", { create: header("taken") });
		const taker = await store.openWriter("taken", { takeOver: true });
		const other = await store.openWriter("other", { create: header("other") });
		const [fencedAppend, otherAppend] = await Promise.allSettled([
			fenced.append(message("taken", 0)),
			other.append(message("other", 0)),
		]);
		expect(fencedAppend.status).toBe("rejected");
		expect((fencedAppend as PromiseRejectedResult).reason).toBeInstanceOf(SessionFencedError);
		expect(otherAppend.status).toBe("fulfilled");
		expect((await store.read("taken")).records.map((record) => record.type)).toEqual(["session"]);
		expect((await store.read("other")).records.map((record) => record.type)).toEqual(["session", "message"]);
		await taker.append(message("taken", 0));
		expect((await store.read("taken")).records.map((record) => record.type)).toEqual(["session", "message"]);
		await Promise.all([fenced.close(), taker.close(), other.close()]);
	});

	it("stores text with a lone surrogate or a NUL character, exactly as appended", async () => {
		const writer = await store.openWriter("odd", { create: header("odd") });
		const other = await store.openWriter("plain", { create: header("plain") });
		const odd: SessionMessageRecord = {
			...message("odd", 0),
			message: { role: "user", content: "half a pair \ud800 and a NUL \u0000 here", timestamp: 2 },
		};
		const title = { v: 1 as const, type: "title" as const, sessionId: "odd", timestamp: 3, title: "odd \udc00 title" };
		await Promise.all([writer.append([odd, title]), other.append(message("plain", 0))]);
		const { records, problems } = await store.read("odd");
		expect(problems).toEqual([]);
		expect(records.slice(1)).toEqual([odd, title]);
		expect((await store.list({ search: "half a pair" })).map((info) => info.sessionId)).toEqual(["odd"]);
		expect((await store.read("plain")).records).toHaveLength(2);
		await Promise.all([writer.close(), other.close()]);
	});

	it("fails only the append the server refuses, not the others sent with it", async () => {
		const first = await store.openWriter("first", { create: header("first") });
		const second = await store.openWriter("second", { create: header("second") });
		// A row squatting on the seq "second"'s next record will take: its insert breaks the primary key.
		await withAdmin((client) =>
			client.query(
				`INSERT INTO ${schema}.keel_records (tenant, session_id, seq, role, line) VALUES ('default', 'second', 2, NULL, '{}')`,
			),
		);
		const [firstAppend, secondAppend] = await Promise.allSettled([
			first.append(message("first", 0)),
			second.append(message("second", 0)),
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

// The database restarted under load: several sessions append continuously to a PostgreSQL cluster
// of the test's own (never the shared server), which is restarted with `pg_ctl restart -m fast`. The
// appends in flight end with a PostgresTranscriptStoreError naming the lost connection, nothing is
// half-written (every acknowledged append is there, whole, numbered without gaps), and the same
// writers append again afterwards without anything done by hand.
import type { SessionMessageRecord } from "@keel/agent-core/session";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresTranscriptStore, PostgresTranscriptStoreError } from "../src/index.js";
import { findPostgresBin, type PrivateCluster, startPrivateCluster } from "./private-postgres-cluster.js";

const bin = findPostgresBin();
const SESSIONS = 4;
const ACKNOWLEDGED_BEFORE_RESTART = 20;

function message(sessionId: string, index: number): SessionMessageRecord {
	const timestamp = 1_700_000_000_000 + index;
	return {
		v: 1,
		type: "message",
		sessionId,
		id: `m${index}`,
		parentId: index === 0 ? null : `m${index - 1}`,
		timestamp,
		message: {
			role: "toolResult",
			toolCallId: `call-${index}`,
			toolName: "read_file",
			content: [{ type: "text", text: `output ${index} `.padEnd(2_000, "x") }],
			isError: false,
			timestamp,
		},
	};
}

interface Appender {
	sessionId: string;
	acknowledged: string[];
	/** The append that failed (its id) and its error; undefined when none failed. */
	failed?: { id: string; error: unknown };
}

describe.skipIf(!bin)(
	`PostgreSQL restarted under load${bin ? "" : " (skipped: initdb not found under /usr/lib/postgresql)"}`,
	() => {
		let cluster: PrivateCluster | undefined;

		beforeAll(async () => {
			cluster = await startPrivateCluster(bin as string);
		}, 300_000);

		afterAll(async () => {
			await cluster?.destroy();
		}, 300_000);

		it("ends the appends in flight with a connection-lost error, loses no acknowledged append, and appends again by itself", async () => {
			const { connectionString, restart } = cluster as PrivateCluster;
			const store = await createPostgresTranscriptStore({ connectionString, poolConfig: { max: SESSIONS + 2 } });
			try {
				const appenders: Appender[] = Array.from({ length: SESSIONS }, (_, index) => ({
					sessionId: `restart-${index}`,
					acknowledged: [],
				}));
				const writers = await Promise.all(
					appenders.map((appender) =>
						store.openWriter(appender.sessionId, {
							create: { v: 1, type: "session", sessionId: appender.sessionId, timestamp: 1 },
						}),
					),
				);
				let restarted = false;
				let signalWarm: () => void = () => {};
				const warm = new Promise<void>((resolve) => {
					signalWarm = resolve;
				});
				const loops = appenders.map(async (appender, index) => {
					for (let turn = 0; !restarted; turn++) {
						const record = message(appender.sessionId, turn);
						try {
							await writers[index].append(record);
							appender.acknowledged.push(record.id);
							if (appenders.every((each) => each.acknowledged.length >= ACKNOWLEDGED_BEFORE_RESTART)) signalWarm();
						} catch (error) {
							appender.failed = { id: record.id, error };
							return;
						}
					}
				});
				await warm;
				await restart();
				restarted = true;
				await Promise.all(loops);

				// The calls in flight (and those made while the server was down) failed with a typed error.
				const failures = appenders.filter((appender) => appender.failed);
				expect(failures.length).toBeGreaterThan(0);
				for (const appender of failures) {
					const error = appender.failed?.error as PostgresTranscriptStoreError;
					expect(error).toBeInstanceOf(PostgresTranscriptStoreError);
					expect(error.reason).toBe("connection-lost");
					expect(error.message).toMatch(/Lost the connection to PostgreSQL at 127\.0\.0\.1/);
				}
				if (process.env.KEEL_TEST_VERBOSE) console.log(failures.map((appender) => String(appender.failed?.error)));

				// Reconnects by itself: the same writers append again, nothing done by hand.
				const after = appenders.map((appender) => {
					const last = appender.failed?.id ?? appender.acknowledged.at(-1) ?? "m-1";
					return message(appender.sessionId, Number(last.slice(1)) + 1);
				});
				await Promise.all(writers.map((writer, index) => writer.append(after[index])));
				await Promise.all(writers.map((writer) => writer.close()));

				// Nothing half-written: every acknowledged append is there, whole and in order; the one cut
				// off is there whole or not at all; the records are numbered without a gap.
				for (const [index, appender] of appenders.entries()) {
					const { records, problems } = await store.read(appender.sessionId);
					expect(problems).toEqual([]);
					const ids = records
						.filter((record) => record.type === "message")
						.map((record) => (record as SessionMessageRecord).id);
					const cutOff = appender.failed && ids.includes(appender.failed.id) ? [appender.failed.id] : [];
					expect(ids).toEqual([...appender.acknowledged, ...cutOff, after[index].id]);
					for (const record of records.filter((each) => each.type === "message")) {
						expect(JSON.stringify(record)).toContain("x".repeat(1_500));
					}
				}
				const client = new pg.Client({ connectionString });
				await client.connect();
				try {
					const { rows } = await client.query<{ session_id: string; rows: string; last_seq: string; max_seq: string }>(
						`SELECT s.session_id, count(r.seq) AS rows, s.last_seq, max(r.seq) AS max_seq
					FROM keel_sessions s JOIN keel_records r USING (tenant, session_id) GROUP BY s.session_id, s.last_seq`,
					);
					expect(rows).toHaveLength(SESSIONS);
					for (const row of rows) {
						expect(Number(row.rows)).toBe(Number(row.last_seq));
						expect(Number(row.max_seq)).toBe(Number(row.last_seq));
					}
				} finally {
					await client.end();
				}
			} finally {
				await store.close();
			}
		}, 300_000);
	},
);

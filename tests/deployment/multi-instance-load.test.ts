// A load across two agent server instances sharing PostgreSQL: 50 sessions of 5 turns, 16 at a
// time, each turn on the other instance than the last. Every message is stored exactly once, in
// order (`pnpm bench multi-instance-load` runs the full-size version: 1,000 sessions × 20 turns).
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runMultiInstanceLoad } from "./multi-instance-load.js";

const POSTGRES_URL = process.env.KEEL_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
let schema: string;

function psql(sql: string): void {
	execFileSync("psql", [POSTGRES_URL, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql], { stdio: "pipe" });
}

beforeEach(() => {
	schema = `keel_test_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
	psql(`CREATE SCHEMA ${schema}`);
});

afterEach(() => {
	psql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
});

describe("a load across two agent server instances", () => {
	it("stores every message of 50 sessions × 5 turns exactly once, in order, whichever instance served each turn", async () => {
		const result = await runMultiInstanceLoad({
			postgresUrl: POSTGRES_URL,
			schema,
			sessions: 50,
			turns: 5,
			concurrency: 16,
		});
		expect(result.badResponses).toBe(0);
		expect(result.served.A + result.served.B).toBe(250);
		expect(result.served.A).toBe(125);
		expect(result).toMatchObject({ sessionsStored: 50, messagesStored: 500, lost: 0, duplicated: 0, outOfOrder: 0 });
	}, 300_000);
});

// 1,000 sessions × 20 turns on the faux provider across two agent server instances (real
// processes: tests/deployment/agent-server.mjs) sharing one PostgreSQL schema, 64 sessions at a
// time, each turn on the other instance than the last; then every message is accounted for from
// PostgreSQL. Prints turns per second and the lost / duplicated / out-of-order counts (goal: 0).
// Needs the built packages (`pnpm build`). KEEL_BENCH_POSTGRES_URL (default the local server's
// "test" database); KEEL_BENCH_LOAD_SESSIONS / KEEL_BENCH_LOAD_TURNS shrink the load.
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { runMultiInstanceLoad } from "../../tests/deployment/multi-instance-load.js";
import { printTable } from "./measure.js";

const POSTGRES_URL = process.env.KEEL_BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const pg = createRequire(new URL("../../packages/session-postgres/package.json", import.meta.url))(
	"pg",
) as typeof import("pg");

export default async function run(): Promise<void> {
	const sessions = Number(process.env.KEEL_BENCH_LOAD_SESSIONS ?? 1_000);
	const turns = Number(process.env.KEEL_BENCH_LOAD_TURNS ?? 20);
	const schema = `keel_bench_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
	const client = new pg.Client({ connectionString: POSTGRES_URL });
	await client.connect();
	await client.query(`CREATE SCHEMA ${schema}`);
	const loadBefore = loadavg()[0];
	try {
		const result = await runMultiInstanceLoad({ postgresUrl: POSTGRES_URL, schema, sessions, turns, concurrency: 64 });
		printTable([
			{
				sessions,
				turns: result.turns,
				seconds: Math.round(result.ms / 100) / 10,
				"turns/s": result.turnsPerSecond,
				"served A / B": `${result.served.A} / ${result.served.B}`,
				"bad responses": result.badResponses,
				"messages stored": result.messagesStored,
				lost: result.lost,
				duplicated: result.duplicated,
				"out of order": result.outOfOrder,
				"load average (start / end)": `${loadBefore.toFixed(1)} / ${loadavg()[0].toFixed(1)}`,
			},
		]);
	} finally {
		await client.query(`DROP SCHEMA ${schema} CASCADE`);
		await client.end();
	}
}

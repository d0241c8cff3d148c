// Every transcript store side by side: appends per second with one writer (and, for PostgreSQL and
// SQLite, 50 sessions appended to at once), p50 / p99 latency of an awaited append, and opening +
// resuming a 100,000-message session of ~2 KB messages (tool calls and results) — compacted 2,000
// messages before the end, and never compacted (with load: "all" beside it) — time and peak
// memory, each in a fresh process. Goals: PostgreSQL ≥ 5,000 appends/s across 50 sessions; resume
// ≤ 1 s and ≤ 100 MB over the baseline; SQLite's append rate ≥ JSONL's. The never-compacted session
// is resumed with load: "context"'s default window (DEFAULT_CONTEXT_TOKENS, 2,000,000 tokens: every
// catalogued model's but Llama 4 Scout's) and with Llama 4 Scout's 10,000,000 tokens.
//
// Each row has the process's CPU time (user + system) beside the elapsed time, and the machine's
// load average when it ended: on a shared, loaded machine the CPU time is what compares runs.
//
// PostgreSQL: KEEL_BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test); each run
// uses a schema of its own, dropped at the end. KEEL_BENCH_STORES=jsonl,sqlite limits the stores.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { printTable } from "./measure.js";
import type { StoreSpec } from "./transcript-stores-child.js";

const BIG_MESSAGES = 100_000;
/** The second window the never-compacted session is resumed with (see the file comment). */
const LARGEST_WINDOW = 10_000_000;
const POSTGRES_URL = process.env.KEEL_BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const child = fileURLToPath(new URL("./transcript-stores-child.ts", import.meta.url));
// The store packages import @keel/agent-core by name: this tsconfig maps it to the source.
const tsconfig = fileURLToPath(new URL("../../packages/session-postgres/tsconfig.json", import.meta.url));
const pg = createRequire(new URL("../../packages/session-postgres/package.json", import.meta.url))(
	"pg",
) as typeof import("pg");

interface Figures {
	ms: number;
	cpuMs: number;
	appends?: number;
	appendsPerSecond?: number;
	p50Ms?: number;
	p99Ms?: number;
	averageRecordBytes?: number;
	loaded?: number;
	maxRssMiB: number;
	peakHeapMiB: number;
}

function inFreshProcess(mode: string, spec: StoreSpec, ...args: (string | number)[]): Figures {
	const result = spawnSync(
		process.execPath,
		["--import", "tsx", child, mode, JSON.stringify(spec), ...args.map(String)],
		{
			encoding: "utf8",
			env: { ...process.env, TSX_TSCONFIG_PATH: tsconfig },
			maxBuffer: 16 * 1024 * 1024,
		},
	);
	if (result.status !== 0) throw new Error(`transcript-stores-child ${mode} ${spec.kind} failed: ${result.stderr}`);
	return JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as Figures;
}

async function withSchema<T>(run: (schema: string) => Promise<T>): Promise<T> {
	const schema = `keel_bench_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
	const client = new pg.Client({ connectionString: POSTGRES_URL });
	await client.connect();
	await client.query(`CREATE SCHEMA ${schema}`);
	try {
		return await run(schema);
	} finally {
		await client.query(`DROP SCHEMA ${schema} CASCADE`);
		await client.end();
	}
}

export default async function run(): Promise<void> {
	const only = process.env.KEEL_BENCH_STORES?.split(",");
	const wanted = (kind: string) => !only || only.includes(kind);
	const directory = mkdtempSync(join(tmpdir(), "keel-stores-bench-"));
	const appendRows: Record<string, string | number>[] = [];
	const resumeRows: Record<string, string | number>[] = [];
	const appendRow = (store: string, sessions: number, figures: Figures) =>
		appendRows.push({
			store,
			sessions,
			appends: figures.appends ?? 0,
			"appends/s": figures.appendsPerSecond ?? 0,
			"p50 ms": figures.p50Ms ?? 0,
			"p99 ms": figures.p99Ms ?? 0,
			"CPU ms": figures.cpuMs,
			"record bytes": figures.averageRecordBytes ?? 0,
			"load average": loadavg()[0].toFixed(1),
		});
	const baseline = inFreshProcess("baseline", { kind: "memory" });
	const resumeRow = (
		store: string,
		spec: StoreSpec,
		session = "compacted",
		load: "context" | "all" = "context",
		contextTokens?: number,
	) => {
		// The median of three fresh processes (by time): one run is at the mercy of the machine's load.
		const runs = [0, 1, 2]
			.map(() => inFreshProcess("resume", spec, load, ...(contextTokens === undefined ? [] : [contextTokens])))
			.sort((a, b) => a.ms - b.ms);
		const figures = runs[1];
		resumeRows.push({
			store,
			session,
			load: contextTokens === undefined ? load : `${load}, ${contextTokens.toLocaleString("en")} tokens`,
			messages: BIG_MESSAGES,
			"loaded into the agent": figures.loaded ?? 0,
			ms: figures.ms,
			"CPU ms": figures.cpuMs,
			"peak RSS MiB": figures.maxRssMiB,
			"over baseline MiB": figures.maxRssMiB - baseline.maxRssMiB,
			"peak heap MiB": figures.peakHeapMiB,
			"load average": loadavg()[0].toFixed(1),
		});
	};
	try {
		if (wanted("memory")) appendRow("memory", 1, inFreshProcess("append", { kind: "memory" }, 1, 20_000));
		if (wanted("jsonl")) {
			const spec: StoreSpec = { kind: "jsonl", directory: join(directory, "jsonl") };
			appendRow("JSONL", 1, inFreshProcess("append", spec, 1, 20_000));
			appendRow(
				"JSONL",
				50,
				inFreshProcess("append", { kind: "jsonl", directory: join(directory, "jsonl50") }, 50, 400),
			);
			// Durable appends: each one synced to the disk before it resolves.
			const durable = (name: string): StoreSpec => ({
				kind: "jsonl",
				directory: join(directory, name),
				durability: "fsync-each",
			});
			appendRow("JSONL, fsync-each", 1, inFreshProcess("append", durable("jsonl-fsync"), 1, 1_000));
			appendRow("JSONL, fsync-each", 50, inFreshProcess("append", durable("jsonl-fsync50"), 50, 40));
			inFreshProcess("generate", spec, BIG_MESSAGES);
			resumeRow("JSONL", spec);
			const never: StoreSpec = { kind: "jsonl", directory: join(directory, "jsonl-never-compacted") };
			inFreshProcess("generate", never, BIG_MESSAGES, "never-compacted");
			resumeRow("JSONL", never, "never compacted");
			resumeRow("JSONL", never, "never compacted", "context", LARGEST_WINDOW);
			resumeRow("JSONL", never, "never compacted", "all");
		}
		if (wanted("sqlite")) {
			appendRow(
				"SQLite",
				1,
				inFreshProcess("append", { kind: "sqlite", path: join(directory, "append.db") }, 1, 20_000),
			);
			appendRow(
				"SQLite",
				50,
				inFreshProcess("append", { kind: "sqlite", path: join(directory, "append50.db") }, 50, 400),
			);
			const durable = (name: string): StoreSpec => ({
				kind: "sqlite",
				path: join(directory, name),
				durability: "fsync-each",
			});
			appendRow("SQLite, fsync-each", 1, inFreshProcess("append", durable("fsync.db"), 1, 1_000));
			appendRow("SQLite, fsync-each", 50, inFreshProcess("append", durable("fsync50.db"), 50, 40));
			const spec: StoreSpec = { kind: "sqlite", path: join(directory, "big.db") };
			inFreshProcess("generate", spec, BIG_MESSAGES);
			resumeRow("SQLite", spec);
			const never: StoreSpec = { kind: "sqlite", path: join(directory, "never-compacted.db") };
			inFreshProcess("generate", never, BIG_MESSAGES, "never-compacted");
			resumeRow("SQLite", never, "never compacted");
			resumeRow("SQLite", never, "never compacted", "context", LARGEST_WINDOW);
			resumeRow("SQLite", never, "never compacted", "all");
		}
		if (wanted("postgres")) {
			await withSchema(async (schema) => {
				appendRow(
					"PostgreSQL",
					1,
					inFreshProcess("append", { kind: "postgres", connectionString: POSTGRES_URL, schema }, 1, 5_000),
				);
			});
			await withSchema(async (schema) => {
				appendRow(
					"PostgreSQL",
					50,
					inFreshProcess("append", { kind: "postgres", connectionString: POSTGRES_URL, schema }, 50, 400),
				);
			});
			await withSchema(async (schema) => {
				const spec: StoreSpec = { kind: "postgres", connectionString: POSTGRES_URL, schema };
				inFreshProcess("generate", spec, BIG_MESSAGES);
				resumeRow("PostgreSQL", spec);
			});
			await withSchema(async (schema) => {
				const spec: StoreSpec = { kind: "postgres", connectionString: POSTGRES_URL, schema };
				inFreshProcess("generate", spec, BIG_MESSAGES, "never-compacted");
				resumeRow("PostgreSQL", spec, "never compacted");
				resumeRow("PostgreSQL", spec, "never compacted", "context", LARGEST_WINDOW);
				resumeRow("PostgreSQL", spec, "never compacted", "all");
			});
		}
	} finally {
		rmSync(directory, { recursive: true, force: true });
	}
	console.log("\nappends (each awaited; several sessions: one writer each, appending at once)\n");
	printTable(appendRows);
	console.log(
		`\nSession.open + resumeAgent of a ${BIG_MESSAGES.toLocaleString("en")}-message session (compacted 2,000 messages before the end, or never), fresh process, median of 3` +
			` (Node + tsx baseline: ${baseline.maxRssMiB.toFixed(0)} MiB RSS)\n`,
	);
	printTable(resumeRows);
}

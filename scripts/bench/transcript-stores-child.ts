// One measurement of one transcript store in a fresh process (so peak memory is the operation's
// own, plus Node's baseline from the "baseline" mode). Prints one JSON line. Started by
// transcript-stores.bench.ts with TSX_TSCONFIG_PATH set so the store packages load from source.
// Usage: node --import tsx transcript-stores-child.ts <mode> <store spec JSON> [arguments]
//   generate <messages> [never-compacted]   resume [all | context (default) [contextTokens]]
import { getHeapStatistics } from "node:v8";
import type { TranscriptStore } from "../../packages/agent/src/session/index.js";
import { createMemoryTranscriptStore, resumeAgent, Session } from "../../packages/agent/src/session/index.js";
import { createJsonlTranscriptStore } from "../../packages/agent/src/session/jsonl/index.js";
import { createPostgresTranscriptStore } from "../../packages/session-postgres/src/index.js";
import { createSqliteTranscriptStore } from "../../packages/session-sqlite/src/index.js";
import { benchMessage, benchHeader as header } from "./transcript-stores-messages.js";

export type StoreSpec =
	| { kind: "memory" }
	| { kind: "jsonl"; directory: string; durability?: "os" | "fsync-each" }
	| { kind: "sqlite"; path: string; durability?: "os" | "fsync-each" }
	| { kind: "postgres"; connectionString: string; schema: string };

const [mode, specText, ...rest] = process.argv.slice(2);
const spec = JSON.parse(specText) as StoreSpec;

async function openStore(): Promise<TranscriptStore & { close?: () => unknown }> {
	switch (spec.kind) {
		case "memory":
			return createMemoryTranscriptStore();
		case "jsonl":
			return createJsonlTranscriptStore({ directory: spec.directory, durability: spec.durability });
		case "sqlite":
			return createSqliteTranscriptStore({ path: spec.path, durability: spec.durability });
		case "postgres":
			return createPostgresTranscriptStore({
				connectionString: spec.connectionString,
				schema: spec.schema,
				poolConfig: { max: 60 },
			});
	}
}

function percentile(sorted: number[], fraction: number): number {
	return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

async function appendSessions(store: TranscriptStore, sessions: number, perSession: number) {
	// The messages are made before the clock starts: the figures are the store's, not the generator's.
	const batches = Array.from({ length: sessions }, (_, sessionIndex) =>
		Array.from({ length: perSession }, (_, index) => benchMessage(`append-${sessionIndex}`, index)),
	);
	let bytes = 0;
	for (const records of batches) for (const record of records) bytes += JSON.stringify(record).length;
	const latencies: number[] = [];
	const start = performance.now();
	await Promise.all(
		batches.map(async (records, sessionIndex) => {
			const sessionId = `append-${sessionIndex}`;
			const writer = await store.openWriter(sessionId, { create: header(sessionId) as never });
			for (const record of records) {
				const before = performance.now();
				await writer.append(record);
				latencies.push(performance.now() - before);
			}
			await writer.close();
		}),
	);
	const ms = performance.now() - start;
	latencies.sort((a, b) => a - b);
	return {
		appends: latencies.length,
		ms,
		appendsPerSecond: Math.round((latencies.length / ms) * 1000),
		p50Ms: percentile(latencies, 0.5),
		p99Ms: percentile(latencies, 0.99),
		averageRecordBytes: Math.round(bytes / latencies.length),
	};
}

// v8's heap figure, not process.memoryUsage(): that one also reads the resident set size from the
// OS on every call, which cost more CPU than some of the operations measured.
let peakHeap = getHeapStatistics().used_heap_size;
const sampler = setInterval(() => {
	peakHeap = Math.max(peakHeap, getHeapStatistics().used_heap_size);
}, 5);
let result: Record<string, unknown> = {};
const store = mode === "baseline" ? undefined : await openStore();
const start = performance.now();
// CPU time (user + system) of this process: on a loaded machine it moves far less than the elapsed
// time, so it is what tells a before / after apart there.
const cpuStart = process.cpuUsage();

if (mode === "append" && store) {
	const [sessions, perSession] = rest.map(Number);
	result = await appendSessions(store, sessions, perSession);
} else if (mode === "generate" && store) {
	const messages = Number(rest[0]);
	const compacted = rest[1] !== "never-compacted";
	const writer = await store.openWriter("big", { create: header("big") as never });
	for (let from = 0; from < messages; from += 1_000) {
		await writer.append(
			Array.from({ length: Math.min(1_000, messages - from) }, (_, offset) =>
				benchMessage("big", from + offset, compacted),
			),
		);
	}
	await writer.close();
} else if (mode === "resume" && store) {
	const session =
		rest[0] === "all"
			? await Session.open(store, "big", { load: "all" })
			: await Session.open(store, "big", {
					load: "context",
					...(rest[1] === undefined ? {} : { contextTokens: Number(rest[1]) }),
				});
	const agent = await resumeAgent(session);
	result = { loaded: agent.state.messages.length, problems: session.problems.length };
	await session.close();
} else if (mode !== "baseline") {
	throw new Error(`unknown mode ${mode}`);
}
const ms = performance.now() - start;
const cpu = process.cpuUsage(cpuStart);
const cpuMs = (cpu.user + cpu.system) / 1000;
clearInterval(sampler);
peakHeap = Math.max(peakHeap, getHeapStatistics().used_heap_size);
await store?.close?.();
process.stdout.write(
	`${JSON.stringify({ ms, cpuMs, ...result, maxRssMiB: process.resourceUsage().maxRSS / 1024, peakHeapMiB: peakHeap / 1024 / 1024 })}\n`,
);
process.exit(0);

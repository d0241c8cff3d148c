// The transcript stores. Appends per second with each durability policy of the JSONL store (awaiting
// every append, ~1 KB messages; target ≥ 20,000/s with the default "os" policy); opening a session
// of 100,000 messages (~200 MB, generated here in a temporary directory and deleted after) — time and
// peak memory, each measured in a fresh process (targets ≤ 1 s, ≤ 100 MB), beside a floor (split and
// JSON.parse only) measured the same way: read() keeps every record, scan() none, and "open +
// resume" keeps an index and loads the current branch since the last compaction with readAt; the
// tail read and the session list, on a small and on the big file, to show their time does not
// depend on its size.
//
// While iterating on the open path: KEEL_BENCH_SESSION_DIR=<directory> keeps the generated sessions
// there (and reuses them on the next run instead of writing 200 MB again); KEEL_BENCH_SESSION_ONLY=resume
// runs only the two resume rows.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SessionMessageRecord, SessionRecord } from "../../packages/agent/src/session/index.js";
import { createJsonlTranscriptStore, type JsonlDurability } from "../../packages/agent/src/session/jsonl/index.js";
import { medianMs, printTable } from "./measure.js";

const BIG_MESSAGES = 100_000;
/**
 * Where the big session was compacted: a resume loads the 2,000 messages after the boundary and the
 * 1,000 the compaction kept before its summary.
 */
const COMPACT_AT = 98_000;
const KEPT_FROM = 97_000;
const MIB = 1024 * 1024;

function message(sessionId: string, index: number, textBytes: number): SessionMessageRecord {
	const timestamp = 1_700_000_000_000 + index;
	const id = `m${index}`;
	const parentId = index === 0 ? null : `m${index - 1}`;
	const text = `message ${index} `.padEnd(textBytes, "lorem ipsum dolor sit amet ");
	if (index === COMPACT_AT - 1) {
		const summary = { role: "summary" as const, summary: text, summarisedMessageCount: KEPT_FROM, timestamp };
		return { v: 1, type: "message", sessionId, id, parentId, timestamp, message: summary };
	}
	if (index === COMPACT_AT) {
		// The session was compacted here: the model sees the summary, the messages it kept verbatim
		// (from firstKeptMessageId up to the summary) and what follows the boundary.
		const boundary = {
			role: "compact_boundary" as const,
			trigger: "auto" as const,
			summaryId: `m${index - 1}`,
			firstKeptMessageId: `m${KEPT_FROM}`,
			timestamp,
		};
		return { v: 1, type: "message", sessionId, id, parentId, timestamp, message: boundary };
	}
	if (index % 2 === 0) {
		return {
			v: 1,
			type: "message",
			sessionId,
			id,
			parentId,
			timestamp,
			message: { role: "user", content: [{ type: "text", text }], timestamp },
		};
	}
	return {
		v: 1,
		type: "message",
		sessionId,
		id,
		parentId,
		timestamp,
		message: {
			role: "assistant",
			content: [{ type: "text", text }],
			api: "anthropic-messages",
			provider: "anthropic",
			model: "claude-sonnet-4-5",
			usage: {
				input: 100,
				output: 50,
				cacheRead: 0,
				cacheWrite: 0,
				totalTokens: 150,
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
			},
			stopReason: "stop",
			timestamp,
		},
	};
}

function header(sessionId: string, title?: string): SessionRecord {
	return { v: 1, type: "session", sessionId, timestamp: 1_700_000_000_000, ...(title ? { title } : {}) };
}

async function appendRate(directory: string, durability: JsonlDurability, count: number) {
	const store = createJsonlTranscriptStore({ directory, durability });
	const sessionId = `append-${durability}`;
	const records = Array.from({ length: count }, (_, index) => message(sessionId, index, 900));
	const writer = await store.openWriter(sessionId, { create: header(sessionId) as never });
	const start = performance.now();
	for (const record of records) await writer.append(record);
	const ms = performance.now() - start;
	await writer.close();
	return {
		operation: `append, durability "${durability}"`,
		messages: count,
		ms,
		"messages/s": Math.round((count / ms) * 1000),
	};
}

function inFreshProcess(mode: string, directory: string, sessionId: string) {
	const script = fileURLToPath(new URL("./session-store-child.ts", import.meta.url));
	const result = spawnSync(process.execPath, ["--import", "tsx", script, mode, directory, sessionId], {
		encoding: "utf8",
	});
	if (result.status !== 0) throw new Error(`session-store-child ${mode} failed: ${result.stderr}`);
	return JSON.parse(result.stdout) as {
		ms: number;
		records: number;
		loaded: number;
		problems: number;
		maxRssMiB: number;
		peakHeapMiB: number;
	};
}

export default async function run(): Promise<void> {
	const keptDirectory = process.env.KEEL_BENCH_SESSION_DIR;
	const onlyResume = process.env.KEEL_BENCH_SESSION_ONLY === "resume";
	if (keptDirectory) mkdirSync(keptDirectory, { recursive: true });
	const directory = keptDirectory ?? mkdtempSync(join(tmpdir(), "keel-session-bench-"));
	try {
		if (!onlyResume) {
			printTable([await appendRate(directory, "os", 20_000), await appendRate(directory, "fsync-each", 500)]);
		}

		// The big session, written in batches of 1,000 messages of ~2 KB.
		const store = createJsonlTranscriptStore({ directory });
		if (!keptDirectory || !existsSync(join(directory, "big.jsonl")) || !existsSync(join(directory, "small.jsonl"))) {
			await store.delete("big").catch(() => {});
			await store.delete("small").catch(() => {});
			const big = await store.openWriter("big", { create: header("big", "A long session") as never });
			for (let start = 0; start < BIG_MESSAGES; start += 1_000) {
				await big.append(Array.from({ length: 1_000 }, (_, offset) => message("big", start + offset, 1_750)));
			}
			await big.close();
			const small = await store.openWriter("small", { create: header("small", "A short session") as never });
			await small.append(Array.from({ length: 100 }, (_, index) => message("small", index, 1_750)));
			await small.close();
		}
		const bigBytes = statSync(join(directory, "big.jsonl")).size;
		console.log(`\nbig session: ${BIG_MESSAGES} messages, ${(bigBytes / MIB).toFixed(0)} MiB\n`);

		const baseline = inFreshProcess("baseline", directory, "big");
		const rows: Record<string, string | number>[] = [];
		const modes = [
			["floor", "floor: read, split, JSON.parse, nothing kept"],
			["read", "read() — every record parsed and returned"],
			["scan", "scan() — every record parsed, none kept"],
			["scan-index", "scan() keeping id → parentId (branch choice)"],
			["resume", "open + resume: scan index, readAt the branch since the boundary"],
			["session-resume", 'Session.open(load: "context") + resumeAgent'],
		] as const;
		for (const [mode, label] of modes.filter(([mode]) => !onlyResume || mode.includes("resume"))) {
			// The median of three fresh processes (by time): one run is at the mercy of the machine's load.
			const runs = [0, 1, 2].map(() => inFreshProcess(mode, directory, "big")).sort((a, b) => a.ms - b.ms);
			const figures = runs[1];
			rows.push({
				operation: label,
				records: figures.records,
				kept: figures.loaded,
				ms: figures.ms,
				"peak RSS MiB": figures.maxRssMiB,
				"over baseline MiB": figures.maxRssMiB - baseline.maxRssMiB,
				"peak heap MiB": figures.peakHeapMiB,
			});
		}
		console.log(
			`Node + tsx baseline: ${baseline.maxRssMiB.toFixed(0)} MiB RSS, ${baseline.peakHeapMiB.toFixed(0)} MiB heap`,
		);
		printTable(rows);
		console.log("");
		if (onlyResume) return;

		const sizeRows: Record<string, string | number>[] = [];
		for (const sessionId of ["small", "big"]) {
			const size = `${(statSync(join(directory, `${sessionId}.jsonl`)).size / MIB).toFixed(1)} MiB`;
			sizeRows.push({
				operation: "readTail 50 entries",
				session: size,
				ms: await medianMs(() => store.readTail(sessionId, { entries: 50, findLastSummary: false }), 9),
			});
		}
		// The last summary is 2,001 records from the end; the search compares bytes and parses only
		// lines that mention "summary".
		sizeRows.push({
			operation: "readTail 50 + the last summary, 2,001 records back",
			session: `${(bigBytes / MIB).toFixed(1)} MiB`,
			ms: await medianMs(() => store.readTail("big", { entries: 50 }), 3),
		});
		sizeRows.push({ operation: "list (both sessions)", session: "both", ms: await medianMs(() => store.list(), 9) });
		const onlySmall = mkdtempSync(join(tmpdir(), "keel-session-bench-small-"));
		try {
			const smallStore = createJsonlTranscriptStore({ directory: onlySmall });
			for (const sessionId of ["one", "two"]) {
				const writer = await smallStore.openWriter(sessionId, { create: header(sessionId, sessionId) as never });
				await writer.append(message(sessionId, 0, 1_750));
				await writer.close();
			}
			sizeRows.push({
				operation: "list (two small sessions)",
				session: "small only",
				ms: await medianMs(() => smallStore.list(), 9),
			});
		} finally {
			rmSync(onlySmall, { recursive: true, force: true });
		}
		printTable(sizeRows);
	} finally {
		if (!keptDirectory) rmSync(directory, { recursive: true, force: true });
	}
}

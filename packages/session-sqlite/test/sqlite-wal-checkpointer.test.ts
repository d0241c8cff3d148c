// Checkpoints on a worker thread: the appending connection never checkpoints inside a commit, the
// WAL still stays bounded through a long run of appends, and closing the store stops the worker and
// leaves the whole WAL checkpointed into the database file.
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionMessageRecord } from "@keel/agent-core/session";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSqliteTranscriptStore } from "../src/index.js";
import { runningCheckpointWorkers, WAL_LIMIT_BYTES } from "../src/sqlite-wal-checkpointer.js";

let directory: string;
beforeEach(() => {
	directory = mkdtempSync(join(tmpdir(), "keel-sqlite-checkpoint-"));
});
afterEach(() => {
	rmSync(directory, { recursive: true, force: true });
});

const header = (sessionId: string) => ({ v: 1 as const, type: "session" as const, sessionId, timestamp: 1 });
// ~2 KB, like a tool call carrying a file: each append adds several 4 KiB pages to the WAL.
const message = (sessionId: string, index: number): SessionMessageRecord => ({
	v: 1,
	type: "message",
	sessionId,
	id: `m${index}`,
	parentId: index === 0 ? null : `m${index - 1}`,
	timestamp: 2 + index,
	message: { role: "user", content: `message ${index} `.padEnd(2_000, "lorem ipsum "), timestamp: 2 + index },
});

describe("SQLite checkpoints on a worker thread", () => {
	it("starts one checkpoint worker per database it opens, shared by its other tenants' stores", async () => {
		const before = runningCheckpointWorkers().length;
		const store = createSqliteTranscriptStore({ path: join(directory, "sessions.db") });
		try {
			expect(runningCheckpointWorkers()).toHaveLength(before + 1);
			// Another tenant's store shares the database, and its worker.
			store.forTenant("other");
			expect(runningCheckpointWorkers()).toHaveLength(before + 1);
		} finally {
			store.close();
		}
	});

	it("keeps the -wal file within its limit through a long run of appends by one writer", async () => {
		const path = join(directory, "sessions.db");
		const store = createSqliteTranscriptStore({ path });
		const writer = await store.openWriter("long", { create: header("long") });
		// Enough appends to write several times the limit to the WAL were nothing checkpointed.
		const appends = 6_000;
		let largestWal = 0;
		for (let index = 0; index < appends; index++) {
			await writer.append(message("long", index));
			if (index % 50 === 0) largestWal = Math.max(largestWal, statSync(`${path}-wal`).size);
		}
		await writer.close();
		// Checkpoints copied records into the database file while the writer appended.
		expect(statSync(path).size).toBeGreaterThan(appends * 2_000);
		// The limit, plus what commits between two looks at the file's size can add.
		expect(largestWal).toBeLessThanOrEqual(WAL_LIMIT_BYTES + 4 * 1024 * 1024);
		expect(largestWal).toBeGreaterThan(0);
		store.close();
		const reopened = createSqliteTranscriptStore({ path });
		try {
			const { records, problems } = await reopened.read("long");
			expect(problems).toEqual([]);
			expect(records).toHaveLength(appends + 1);
		} finally {
			reopened.close();
		}
	});

	it("keeps the -wal file within its limit through a long run of appends by 50 sessions at once (group commits)", async () => {
		const path = join(directory, "sessions.db");
		const store = createSqliteTranscriptStore({ path });
		const sessionIds = Array.from({ length: 50 }, (_, index) => `many-${index}`);
		const writers = await Promise.all(sessionIds.map((id) => store.openWriter(id, { create: header(id) })));
		// Enough rounds to write several times the limit to the WAL were nothing checkpointed.
		const rounds = 250;
		let largestWal = 0;
		for (let round = 0; round < rounds; round++) {
			await Promise.all(writers.map((writer, index) => writer.append(message(sessionIds[index], round))));
			largestWal = Math.max(largestWal, statSync(`${path}-wal`).size);
		}
		await Promise.all(writers.map((writer) => writer.close()));
		expect(largestWal).toBeLessThanOrEqual(WAL_LIMIT_BYTES + 4 * 1024 * 1024);
		expect((await store.read("many-49")).records).toHaveLength(rounds + 1);
		store.close();
	});

	it("close() stops the worker and leaves the WAL checkpointed: no worker, no -wal file", async () => {
		const path = join(directory, "sessions.db");
		const before = new Set(runningCheckpointWorkers());
		const store = createSqliteTranscriptStore({ path });
		const [worker] = runningCheckpointWorkers().filter((running) => !before.has(running));
		const writer = await store.openWriter("closing", { create: header("closing") });
		for (let index = 0; index < 200; index++) await writer.append(message("closing", index));
		await writer.close();
		expect(existsSync(`${path}-wal`)).toBe(true);
		const exited = new Promise((resolve) => worker.once("exit", resolve));
		store.close();
		// The worker's connection closed first, so the store's close was the last and checkpointed.
		expect(existsSync(`${path}-wal`)).toBe(false);
		await exited;
		expect(runningCheckpointWorkers()).not.toContain(worker);
		const observer = new Database(path, { readonly: true });
		try {
			expect(observer.prepare("SELECT count(*) AS n FROM keel_records WHERE session_id = 'closing'").get()).toEqual({
				n: 201,
			});
		} finally {
			observer.close();
		}
	});

	it("leaves a database the caller opened to the caller: no worker, its checkpoint settings unchanged", async () => {
		const database = new Database(join(directory, "own.db"));
		database.pragma("journal_mode = WAL");
		const before = runningCheckpointWorkers().length;
		const store = createSqliteTranscriptStore({ database });
		try {
			expect(runningCheckpointWorkers()).toHaveLength(before);
			expect(database.pragma("wal_autocheckpoint", { simple: true })).toBe(1000);
		} finally {
			store.close();
			database.close();
		}
	});
});

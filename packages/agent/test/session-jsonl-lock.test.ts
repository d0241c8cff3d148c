import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionLockedError, type SessionMessageRecord } from "../src/session/index.js";
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";
import { header, userRecord } from "./session-fixtures.js";
import { startChild } from "./session-jsonl-child-process.js";

const CHILD_PROCESS_TEST_TIMEOUT_MS = 120_000;

let directory: string;
beforeEach(() => {
	directory = mkdtempSync(join(tmpdir(), "keel-session-lock-"));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

// Each case starts Node processes that load TypeScript through tsx: seconds each on a busy machine.
describe("one writer per session", { timeout: CHILD_PROCESS_TEST_TIMEOUT_MS }, () => {
	it("gives a second process a SessionLockedError naming the holder, and no record of it reaches the file", async () => {
		const store = createJsonlTranscriptStore({ directory });
		const writer = await store.openWriter("s1", { create: header("s1") });
		await writer.append(userRecord("s1", "u1", null, "mine"));

		const child = startChild(["try-open", directory, "s1"]);
		const line = await child.waitFor(() => true);
		expect(line).toMatch(
			new RegExp(`^SessionLockedError: Session "s1" is locked by process ${process.pid} on ${hostname()}`),
		);
		await child.exited;

		await writer.append(userRecord("s1", "u2", "u1", "still mine"));
		await writer.close();
		const { records, problems } = await store.read("s1");
		expect(problems).toEqual([]);
		expect(
			records.filter((record) => record.type === "message").map((record) => (record as SessionMessageRecord).id),
		).toEqual(["u1", "u2"]);
	});

	it("refuses this process while another process holds the lock, and opens once it is released", async () => {
		const store = createJsonlTranscriptStore({ directory });
		const child = startChild(["hold", directory, "s1"]);
		await child.waitFor((line) => line === "locked");
		const error = await store.openWriter("s1").catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(SessionLockedError);
		expect((error as SessionLockedError).holder?.pid).toBe(child.process.pid);

		child.process.stdin?.end();
		await child.waitFor((line) => line === "released");
		await child.exited;
		const writer = await store.openWriter("s1");
		await writer.close();
	});

	it("takes over the lock of a writer that was killed", async () => {
		const store = createJsonlTranscriptStore({ directory });
		const child = startChild(["hold", directory, "s1"]);
		await child.waitFor((line) => line === "locked");
		child.process.kill("SIGKILL");
		await child.exited;
		expect(JSON.parse(readFileSync(join(directory, "s1.jsonl.lock"), "utf8")).pid).toBe(child.process.pid);

		const writer = await store.openWriter("s1");
		expect(JSON.parse(readFileSync(join(directory, "s1.jsonl.lock"), "utf8")).pid).toBe(process.pid);
		await writer.close();
	});

	it("refuses a second writer in the same process", async () => {
		const store = createJsonlTranscriptStore({ directory });
		const writer = await store.openWriter("s1", { create: header("s1") });
		await expect(store.openWriter("s1")).rejects.toBeInstanceOf(SessionLockedError);
		await expect(store.delete("s1")).rejects.toBeInstanceOf(SessionLockedError);
		await writer.close();
		await store.delete("s1");
		expect(await store.exists("s1")).toBe(false);
	});

	it("respects a lock held on another host and an unreadable lock that is still fresh", async () => {
		const store = createJsonlTranscriptStore({ directory });
		await (await store.openWriter("s1", { create: header("s1") })).close();
		const lockPath = join(directory, "s1.jsonl.lock");
		writeFileSync(lockPath, JSON.stringify({ pid: 1, hostname: `not-${hostname()}`, createdAt: 0, token: "t" }));
		await expect(store.openWriter("s1")).rejects.toThrow(/locked by process 1 on not-/);
		writeFileSync(lockPath, "");
		await expect(store.openWriter("s1")).rejects.toBeInstanceOf(SessionLockedError);
	});
});

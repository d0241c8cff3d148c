// Group commit in the SQLite store: an append that finds no group open commits at once; the appends
// many sessions make while it commits share one transaction, a failing one (a fenced writer) undone
// alone. What every database store shares is in database-store-group-commit.ts; here, what SQLite's
// own batcher shows.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionFencedError } from "@keel/agent-core/session";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeGroupCommit, groupHeader, groupMessage } from "../../agent/test/database-store-group-commit.js";
import { createSqliteTranscriptStore, type SqliteTranscriptStore } from "../src/index.js";
import { createAppendBatcher } from "../src/sqlite-append-batcher.js";
import { createSqliteStoreHarness } from "./sqlite-store-harness.js";

let directory: string;
let store: SqliteTranscriptStore;
beforeEach(() => {
	directory = mkdtempSync(join(tmpdir(), "keel-sqlite-group-"));
	store = createSqliteTranscriptStore({ path: join(directory, "sessions.db") });
});
afterEach(() => {
	store.close();
	rmSync(directory, { recursive: true, force: true });
});

describeGroupCommit("SQLite", createSqliteStoreHarness());

describe("SQLite appends of many sessions at once, committed in groups", () => {
	it("commits a writer's append once, numbered right, when its group ran again for a fenced writer after it", async () => {
		const first = await store.openWriter("first", { create: groupHeader("first") });
		const kept = await store.openWriter("kept", { create: groupHeader("kept") });
		const fenced = await store.openWriter("taken", { create: groupHeader("taken") });
		const taker = await store.openWriter("taken", { takeOver: true });
		// "kept" runs before the fenced append in the group's first run, which is then rolled back.
		const [, keptAppend, fencedAppend] = await Promise.allSettled([
			first.append(groupMessage("first", 0)),
			kept.append(groupMessage("kept", 0)),
			fenced.append(groupMessage("taken", 0)),
		]);
		expect(keptAppend.status).toBe("fulfilled");
		expect((fencedAppend as PromiseRejectedResult).reason).toBeInstanceOf(SessionFencedError);
		await kept.append(groupMessage("kept", 1));
		const { records, problems } = await store.read("kept");
		expect(problems).toEqual([]);
		expect(records.map((record) => (record as { id?: string }).id ?? record.type)).toEqual([
			"session",
			"kept-m0",
			"kept-m1",
		]);
		// Numbered 1, 2, 3 with no gap: the rolled-back run's number was not kept.
		const positions: number[] = [];
		await store.scan("kept", (_record, _line, position) => positions.push(position));
		expect(positions).toEqual([1, 2, 3]);
		await Promise.all([first.close(), kept.close(), fenced.close(), taker.close()]);
	});

	it("commits one writer's awaited append before the event loop turns, readable from another connection", async () => {
		const writer = await store.openWriter("alone", { create: groupHeader("alone") });
		let turned = false;
		setImmediate(() => {
			turned = true;
		});
		await writer.append(groupMessage("alone", 0));
		expect(turned).toBe(false);
		const observer = new Database(join(directory, "sessions.db"), { readonly: true });
		try {
			expect(observer.prepare("SELECT count(*) AS n FROM keel_records WHERE session_id = 'alone'").get()).toEqual({
				n: 2,
			});
		} finally {
			observer.close();
		}
		await writer.close();
	});

	it("goes on after the session's last record when its own count fell behind (a group that did not commit)", async () => {
		const writer = await store.openWriter("behind", { create: groupHeader("behind") });
		await writer.append(groupMessage("behind", 0));
		// What a failed group commit leaves: the session's number and the writer's disagree. Here the
		// session is ahead, as if a record had been committed the writer does not know of.
		const other = new Database(join(directory, "sessions.db"));
		try {
			other
				.prepare(
					"INSERT INTO keel_records (tenant, session_id, seq, role, line) VALUES ('default', 'behind', 3, 'user', ?)",
				)
				.run(JSON.stringify(groupMessage("behind", 1)));
			other.prepare("UPDATE keel_sessions SET last_seq = 3 WHERE session_id = 'behind'").run();
		} finally {
			other.close();
		}
		await writer.append(groupMessage("behind", 2));
		await writer.close();
		const { records, problems } = await store.read("behind");
		expect(problems).toEqual([]);
		expect(records.map((record) => (record as { id?: string }).id ?? record.type)).toEqual([
			"session",
			"behind-m0",
			"behind-m1",
			"behind-m2",
		]);
	});
});

describe("the SQLite append batcher", () => {
	let database: Database.Database;
	let observer: Database.Database;
	beforeEach(() => {
		const path = join(directory, "batcher.db");
		database = new Database(path);
		database.pragma("journal_mode = WAL");
		database.exec("CREATE TABLE items (n INTEGER NOT NULL)");
		observer = new Database(path, { readonly: true });
	});
	afterEach(() => {
		observer.close();
		database.close();
	});
	const countCommitted = () => (observer.prepare("SELECT count(*) AS n FROM items").get() as { n: number }).n;
	// What another connection sees while each append runs: only what committed before it.
	const inserter =
		(committedBefore: number[]) =>
		(n: number, fail = false) =>
		() => {
			database.prepare("INSERT INTO items (n) VALUES (?)").run(n);
			committedBefore.push(countCommitted());
			if (fail) throw new Error(`append ${n} failed`);
			return n;
		};

	it("commits the first append alone and the ones made while it commits in one transaction, each run once", async () => {
		const committedBefore: number[] = [];
		const insert = inserter(committedBefore);
		const batcher = createAppendBatcher(database);
		const results = await Promise.all([
			batcher.run(insert(1)),
			batcher.run(insert(2)),
			batcher.run(insert(3)),
			batcher.run(insert(4)),
		]);
		expect(results).toEqual([1, 2, 3, 4]);
		// One transaction per append would show 0, 1, 2, 3; one run per append, four entries.
		expect(committedBefore).toEqual([0, 1, 1, 1]);
		expect(observer.prepare("SELECT n FROM items ORDER BY n").pluck().all()).toEqual([1, 2, 3, 4]);
	});

	it("undoes a failed append of a group alone: the group runs again, each append in a savepoint", async () => {
		const committedBefore: number[] = [];
		const insert = inserter(committedBefore);
		const batcher = createAppendBatcher(database);
		const outcomes = await Promise.allSettled([
			batcher.run(insert(1)),
			batcher.run(insert(2)),
			batcher.run(insert(3, true)),
			batcher.run(insert(4)),
		]);
		expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
		expect((outcomes[2] as PromiseRejectedResult).reason).toEqual(new Error("append 3 failed"));
		// The group's first run stops at the failure (2, 3) and is rolled back; the second runs all three.
		expect(committedBefore).toEqual([0, 1, 1, 1, 1, 1]);
		expect(observer.prepare("SELECT n FROM items ORDER BY n").pluck().all()).toEqual([1, 2, 4]);
	});

	it("fails every append of a group whose transaction cannot begin, running none of them", async () => {
		const batcher = createAppendBatcher(database);
		let runs = 0;
		const work = () => {
			runs++;
			database.prepare("INSERT INTO items (n) VALUES (1)").run();
		};
		const first = batcher.run(work);
		const grouped = [batcher.run(work), batcher.run(work)];
		// The group closes in a microtask; by then another connection holds the write lock.
		database.pragma("busy_timeout = 0");
		const locker = new Database(join(directory, "batcher.db"));
		locker.exec("BEGIN IMMEDIATE");
		try {
			const outcomes = await Promise.allSettled(grouped);
			expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
			expect((outcomes[0] as PromiseRejectedResult).reason).toMatchObject({ code: "SQLITE_BUSY" });
		} finally {
			locker.exec("ROLLBACK");
			locker.close();
		}
		await first;
		expect(runs).toBe(1);
		expect(countCommitted()).toBe(1);
	});
});

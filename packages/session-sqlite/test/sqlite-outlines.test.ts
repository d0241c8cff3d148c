// Opening with load: "context" reads each message's stored outline, not its full record, for the
// history outside the model context; rows written before outlines existed are read in full. (That
// each context record is read once, as every database store does: database-store-context-loading.ts.)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Session, type SessionMessageRecord } from "@keel/agent-core/session";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeDatabaseContextLoading } from "../../agent/test/database-store-context-loading.js";
import { createSqliteTranscriptStore } from "../src/index.js";
import { createSqliteStoreHarness } from "./sqlite-store-harness.js";

let directory: string;
let path: string;
beforeEach(() => {
	directory = mkdtempSync(join(tmpdir(), "keel-sqlite-outlines-"));
	path = join(directory, "sessions.db");
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function message(index: number, role: "user" | "assistant"): SessionMessageRecord {
	const timestamp = 10 + index;
	return {
		v: 1,
		type: "message",
		sessionId: "outlined",
		id: `m${index}`,
		parentId: index === 0 ? null : `m${index - 1}`,
		timestamp,
		message:
			role === "user"
				? { role: "user", content: `question ${index}`, timestamp }
				: ({
						role: "assistant",
						content: [{ type: "text", text: `answer ${index}` }],
						api: "faux",
						provider: "faux",
						model: "faux",
						usage: {
							input: 0,
							output: 0,
							cacheRead: 0,
							cacheWrite: 0,
							totalTokens: 0,
							cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
						},
						stopReason: "stop",
						timestamp,
					} as SessionMessageRecord["message"]),
	};
}

async function writeSession(): Promise<void> {
	const store = createSqliteTranscriptStore({ path });
	const writer = await store.openWriter("outlined", {
		create: { v: 1, type: "session", sessionId: "outlined", timestamp: 1 },
	});
	await writer.append(Array.from({ length: 6 }, (_, index) => message(index, index % 2 === 0 ? "user" : "assistant")));
	await writer.close();
	store.close();
}

function onDisk(run: (database: Database.Database) => void): void {
	const database = new Database(path);
	try {
		run(database);
	} finally {
		database.close();
	}
}

describe('SQLite sessions opened with load: "context"', () => {
	it("keep each message's outline and read it instead of the full record", async () => {
		await writeSession();
		onDisk((database) => {
			const rows = database.prepare("SELECT seq, outline FROM keel_records ORDER BY seq").all() as {
				seq: number;
				outline: string | null;
			}[];
			expect(rows[0].outline).toBeNull(); // the header is kept whole
			expect(JSON.parse(rows[1].outline as string)).toEqual({
				type: "message",
				v: 1,
				sessionId: "outlined",
				timestamp: 10,
				id: "m0",
				parentId: null,
				message: { role: "user", timestamp: 10 },
			});
		});
		const store = createSqliteTranscriptStore({ path });
		const session = await Session.open(store, "outlined", { load: "context" });
		expect(session.modelContext().map((entry) => session.idOf(entry))).toEqual(["m0", "m1", "m2", "m3", "m4", "m5"]);
		expect(session.modelContext()[0]).toEqual({ role: "user", content: "question 0", timestamp: 10 });
		await session.close();
		store.close();
	});

	it("reads rows written before outlines existed in full, the same as the others", async () => {
		await writeSession();
		onDisk((database) => database.exec("UPDATE keel_records SET outline = NULL"));
		const store = createSqliteTranscriptStore({ path });
		const session = await Session.open(store, "outlined", { load: "context" });
		expect(session.problems).toEqual([]);
		expect(session.modelContext().map((entry) => session.idOf(entry))).toEqual(["m0", "m1", "m2", "m3", "m4", "m5"]);
		expect(session.modelContext()[5]).toMatchObject({ role: "assistant", content: [{ text: "answer 5" }] });
		await session.close();
		store.close();
	});

	it("does not read the full record of an outlined message before the last compaction that it does not need", async () => {
		await writeSession();
		// m1's full record is replaced by something unreadable; its outline stays. A compaction keeping
		// m4 on leaves m1 off the model context, so a context load never reads it; a full load reports it.
		const store = createSqliteTranscriptStore({ path });
		const compacted = await Session.open(store, "outlined");
		const { summaryRecord } = await compacted.appendCompaction(
			{ role: "summary", summary: "four messages", summarisedMessageCount: 4, timestamp: 20 },
			{ trigger: "manual", firstKeptMessageId: "m4" },
		);
		await compacted.close();
		onDisk((database) => database.exec("UPDATE keel_records SET line = '{not json' WHERE seq = 3"));
		const context = await Session.open(store, "outlined", { load: "context" });
		expect(context.problems).toEqual([]);
		expect(context.modelContext().map((entry) => context.idOf(entry))).toEqual([summaryRecord.id, "m4", "m5"]);
		await context.close();
		const all = await Session.open(store, "outlined");
		expect(all.problems.map((problem) => problem.line)).toEqual([3]);
		await all.close();
		store.close();
	});
});

describeDatabaseContextLoading("SQLite", createSqliteStoreHarness());

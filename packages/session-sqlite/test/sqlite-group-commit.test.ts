// Group commit: the appends many sessions make at the same moment share one transaction, yet each
// lands in its own session, in order, and a failing one (a fenced writer) is undone alone.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionFencedError, type SessionMessageRecord } from "@keel/agent-core/session";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSqliteTranscriptStore, type SqliteTranscriptStore } from "../src/index.js";

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

function header(sessionId: string) {
	return { v: 1 as const, type: "session" as const, sessionId, timestamp: 1 };
}

function message(sessionId: string, index: number): SessionMessageRecord {
	return {
		v: 1,
		type: "message",
		sessionId,
		id: `${sessionId}-m${index}`,
		parentId: index === 0 ? null : `${sessionId}-m${index - 1}`,
		timestamp: 2 + index,
		message: { role: "user", content: `message ${index} of ${sessionId}`, timestamp: 2 + index },
	};
}

describe("SQLite appends of many sessions at once (group commit)", () => {
	it("puts every record in its own session, in order", async () => {
		const sessionIds = Array.from({ length: 20 }, (_, index) => `group-${index}`);
		const writers = await Promise.all(sessionIds.map((id) => store.openWriter(id, { create: header(id) })));
		await Promise.all(
			writers.map((writer, index) =>
				Promise.all(Array.from({ length: 10 }, (_, turn) => writer.append(message(sessionIds[index], turn)))),
			),
		);
		await Promise.all(writers.map((writer) => writer.close()));
		for (const sessionId of sessionIds) {
			const { records, problems } = await store.read(sessionId);
			expect(problems).toEqual([]);
			expect(records.map((record) => (record as { id?: string }).id ?? record.type)).toEqual([
				"session",
				...Array.from({ length: 10 }, (_, turn) => `${sessionId}-m${turn}`),
			]);
		}
	});

	it("refuses a fenced writer's append and commits the others made with it", async () => {
		const fenced = await store.openWriter("taken", { create: header("taken") });
		const taker = await store.openWriter("taken", { takeOver: true });
		const other = await store.openWriter("other", { create: header("other") });
		const [fencedAppend, otherAppend] = await Promise.allSettled([
			fenced.append(message("taken", 0)),
			other.append(message("other", 0)),
		]);
		expect((fencedAppend as PromiseRejectedResult).reason).toBeInstanceOf(SessionFencedError);
		expect(otherAppend.status).toBe("fulfilled");
		expect((await store.read("taken")).records.map((record) => record.type)).toEqual(["session"]);
		expect((await store.read("other")).records.map((record) => record.type)).toEqual(["session", "message"]);
		await taker.append(message("taken", 0));
		expect((await store.read("taken")).records.map((record) => record.type)).toEqual(["session", "message"]);
		await Promise.all([fenced.close(), taker.close(), other.close()]);
	});

	it("close() waits for an append not awaited, then releases the session", async () => {
		const writer = await store.openWriter("pending", { create: header("pending") });
		const append = writer.append(message("pending", 0));
		await writer.close();
		await append;
		expect((await store.read("pending")).records).toHaveLength(2);
		const next = await store.openWriter("pending");
		await next.close();
	});
});

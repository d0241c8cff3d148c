// Group commit, the same behaviour in every database store (run by the SQLite and PostgreSQL test
// files): the appends many sessions make at the same moment share a commit, yet each lands in its
// own session, in order and numbered without gaps, and a fenced writer among them is refused alone.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DatabaseTranscriptStore, SessionFencedError, type SessionMessageRecord } from "../src/session/index.js";
import type { DatabaseStoreHarness } from "./database-store-harness.js";

export function groupHeader(sessionId: string) {
	return { v: 1 as const, type: "session" as const, sessionId, timestamp: 1 };
}

/** Message `index` of a session's single chain (id `<session>-m<index>`). */
export function groupMessage(sessionId: string, index: number): SessionMessageRecord {
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

export function describeGroupCommit(name: string, harness: DatabaseStoreHarness): void {
	describe(`${name} appends of many sessions at once (group commit)`, () => {
		let store: DatabaseTranscriptStore;
		beforeEach(async () => {
			store = await harness.open();
		});
		afterEach(() => harness.cleanup());

		it("puts every record in its own session, in order, numbered without gaps", async () => {
			const sessionIds = Array.from({ length: 20 }, (_, index) => `group-${index}`);
			const writers = await Promise.all(sessionIds.map((id) => store.openWriter(id, { create: groupHeader(id) })));
			// Not awaited one by one: every writer's appends are queued in the same turn.
			await Promise.all(
				writers.map((writer, index) =>
					Promise.all(Array.from({ length: 10 }, (_, turn) => writer.append(groupMessage(sessionIds[index], turn)))),
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
				expect(await harness.storedNumbers(sessionId)).toEqual({
					seqs: Array.from({ length: 11 }, (_, index) => index + 1),
					lastSeq: 11,
				});
			}
		});

		it("refuses a fenced writer's append and commits the others made with it", async () => {
			const fenced = await store.openWriter("taken", { create: groupHeader("taken") });
			const taker = await store.openWriter("taken", { takeOver: true });
			const first = await store.openWriter("first", { create: groupHeader("first") });
			const other = await store.openWriter("other", { create: groupHeader("other") });
			// Made in the same turn: a store that commits the first append alone groups the two after it.
			const [firstAppend, fencedAppend, otherAppend] = await Promise.allSettled([
				first.append(groupMessage("first", 0)),
				fenced.append(groupMessage("taken", 0)),
				other.append(groupMessage("other", 0)),
			]);
			expect(firstAppend.status).toBe("fulfilled");
			expect(fencedAppend.status).toBe("rejected");
			expect((fencedAppend as PromiseRejectedResult).reason).toBeInstanceOf(SessionFencedError);
			expect(otherAppend.status).toBe("fulfilled");
			expect((await store.read("taken")).records.map((record) => record.type)).toEqual(["session"]);
			expect((await store.read("other")).records.map((record) => record.type)).toEqual(["session", "message"]);
			await taker.append(groupMessage("taken", 0));
			expect((await store.read("taken")).records.map((record) => record.type)).toEqual(["session", "message"]);
			await Promise.all([fenced.close(), taker.close(), first.close(), other.close()]);
		});

		it("stores text with a lone surrogate or a NUL character, exactly as appended", async () => {
			const writer = await store.openWriter("odd", { create: groupHeader("odd") });
			const other = await store.openWriter("plain", { create: groupHeader("plain") });
			const odd: SessionMessageRecord = {
				...groupMessage("odd", 0),
				message: { role: "user", content: "half a pair \ud800 and a NUL \u0000 here", timestamp: 2 },
			};
			const title = {
				v: 1 as const,
				type: "title" as const,
				sessionId: "odd",
				timestamp: 3,
				title: "odd \udc00 title",
			};
			await Promise.all([writer.append([odd, title]), other.append(groupMessage("plain", 0))]);
			const { records, problems } = await store.read("odd");
			expect(problems).toEqual([]);
			expect(records.slice(1)).toEqual([odd, title]);
			expect((await store.list({ search: "half a pair" })).map((info) => info.sessionId)).toEqual(["odd"]);
			expect((await store.read("plain")).records).toHaveLength(2);
			await Promise.all([writer.close(), other.close()]);
		});

		it("close() waits for an append not awaited, then releases the session", async () => {
			const writer = await store.openWriter("pending", { create: groupHeader("pending") });
			const append = writer.append(groupMessage("pending", 0));
			await writer.close();
			await append;
			expect((await store.read("pending")).records).toHaveLength(2);
			const next = await store.openWriter("pending");
			await next.close();
		});
	});
}

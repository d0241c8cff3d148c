// Opening a session with load: "context", the same behaviour in every database store (run by the
// SQLite and PostgreSQL test files): each record of the model context is read once — the records
// after the last compaction boundary (all of them, never compacted) or within the newest window's
// bytes come in full from the scan, outlines only before, and only what a compaction kept from
// before its boundary is read again.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	type DatabaseTranscriptStore,
	type ParsedSessionRecord,
	Session,
	type SessionMessageRecord,
	serializeSessionRecord,
} from "../src/session/index.js";
import type { DatabaseStoreHarness } from "./database-store-harness.js";
import { assistantMessage, userMessage } from "./session-helpers.js";

/** Six messages, alternating user and assistant, in one chain. */
async function writeSession(store: DatabaseTranscriptStore): Promise<Session> {
	const session = await Session.create(store);
	for (let index = 0; index < 6; index++) {
		const message = index % 2 === 0 ? userMessage(`question ${index}`) : assistantMessage(`answer ${index}`);
		await session.append({ ...message, timestamp: 10 + index });
	}
	return session;
}

/** Counts, by id, the records the store reads again by position and the outlines its scan hands over. */
function countReads(store: DatabaseTranscriptStore): { readAgain: string[]; outlinesVisited: string[] } {
	const readAgain: string[] = [];
	const outlinesVisited: string[] = [];
	const idOf = (record: ParsedSessionRecord) => (record as { id: string }).id;
	const { readAt, scanOutlines } = store;
	store.readAt = (sessionId, positions) =>
		readAt(sessionId, positions).then((records) => {
			readAgain.push(...records.map(idOf));
			return records;
		});
	store.scanOutlines = (sessionId, visit, fullFrom) =>
		scanOutlines(
			sessionId,
			(record, lineNumber, position, outlined, bytes) => {
				if (outlined) outlinesVisited.push(idOf(record));
				visit(record, lineNumber, position, outlined, bytes);
			},
			fullFrom,
		);
	return { readAgain, outlinesVisited };
}

export function describeDatabaseContextLoading(name: string, harness: DatabaseStoreHarness): void {
	describe(`${name} sessions opened with load: "context" read each context record once`, () => {
		let store: DatabaseTranscriptStore;
		beforeEach(async () => {
			store = await harness.open();
		});
		afterEach(() => harness.cleanup());

		it("read a never-compacted context once, in full, without reading any record again", async () => {
			const written = await writeSession(store);
			const expected = written.modelContext();
			await written.close();
			const { readAgain, outlinesVisited } = countReads(store);
			const session = await Session.open(store, written.id, { load: "context" });
			expect(session.modelContext()).toEqual(expected);
			expect(readAgain).toEqual([]);
			expect(outlinesVisited).toEqual([]);
			await session.close();
		});

		it("read outlines before the newest window's bytes and full records within it, none read again", async () => {
			const written = await writeSession(store);
			const records = written.branch();
			const ids = records.map((record) => record.id);
			await written.close();
			const bytesOf = (record: SessionMessageRecord) => Buffer.byteLength(serializeSessionRecord(record));
			const contextTokens = Math.ceil(bytesOf(records[4]) / 4) + Math.ceil(bytesOf(records[5]) / 4);
			// The last two messages hold at most the window's bytes: the one before (record 5, after the
			// header) completes them.
			expect(await store.newestBytesStart(written.id, contextTokens * 4)).toBe(5);
			expect(await store.newestBytesStart(written.id, 1_000_000)).toBeUndefined();
			const { readAgain, outlinesVisited } = countReads(store);
			const session = await Session.open(store, written.id, { load: "context", contextTokens });
			expect(session.modelContextRecords().map((record) => record.id)).toEqual(ids.slice(4));
			expect(session.contextCut).toEqual({ firstMessageId: ids[4], omittedMessages: 4, contextTokens });
			expect(outlinesVisited).toEqual(ids.slice(0, 3));
			expect(readAgain).toEqual([]);
			await session.close();
		});

		it("read outlines before the last compaction boundary and full records after it, reading again only what it kept", async () => {
			const written = await writeSession(store);
			const ids = written.modelContext().map((message) => written.idOf(message));
			const { summaryRecord } = await written.appendCompaction(
				{ role: "summary", summary: "four messages", summarisedMessageCount: 4, timestamp: 20 },
				{ trigger: "manual", firstKeptMessageId: ids[4] },
			);
			const after = await written.append({ role: "user", content: "after the compaction", timestamp: 30 });
			const expected = written.modelContext();
			await written.close();
			const { readAgain, outlinesVisited } = countReads(store);
			const session = await Session.open(store, written.id, { load: "context" });
			expect(session.modelContext()).toEqual(expected);
			expect(readAgain.sort()).toEqual([summaryRecord.id, ids[4], ids[5]].sort());
			expect(outlinesVisited).toEqual([...ids, summaryRecord.id]);
			expect(outlinesVisited).not.toContain(after.id);
			await session.close();
		});
	});
}

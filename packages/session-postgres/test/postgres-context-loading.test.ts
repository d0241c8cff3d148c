// Opening a PostgreSQL session with load: "context" reads each record of the model context once:
// the records after the last compaction boundary (all of them, never compacted) come in full from
// the scan, outlines only before it, and only what the compaction kept from before it is read again.
import { Session, type SessionMessageRecord, serializeSessionRecord } from "@keel/agent-core/session";
import { afterEach, describe, expect, it } from "vitest";
import { createPostgresTranscriptStore, type PostgresTranscriptStore } from "../src/index.js";
import { createTestSchema, dropTestSchema, POSTGRES_URL } from "./postgres-test-database.js";

let schema: string | undefined;
let store: PostgresTranscriptStore | undefined;
afterEach(async () => {
	await store?.close();
	store = undefined;
	if (schema) await dropTestSchema(schema);
	schema = undefined;
});

async function openStore(): Promise<PostgresTranscriptStore> {
	schema = await createTestSchema();
	store = await createPostgresTranscriptStore({ connectionString: POSTGRES_URL, schema });
	return store;
}

/** Six messages, alternating user and assistant, in one chain. */
async function writeSession(opened: PostgresTranscriptStore): Promise<Session> {
	const session = await Session.create(opened);
	for (let index = 0; index < 6; index++) {
		if (index % 2 === 0) await session.append({ role: "user", content: `question ${index}`, timestamp: 10 + index });
		else
			await session.append({
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
				timestamp: 10 + index,
			} as SessionMessageRecord["message"]);
	}
	return session;
}

/** Counts, by id, the records the store reads again by position and the outlines its scan hands over. */
function countReads(counted: PostgresTranscriptStore): { readAgain: string[]; outlinesVisited: string[] } {
	const readAgain: string[] = [];
	const outlinesVisited: string[] = [];
	const readAt = counted.readAt;
	counted.readAt = async (sessionId, positions) => {
		const records = await readAt(sessionId, positions);
		for (const record of records) readAgain.push((record as { id: string }).id);
		return records;
	};
	const scanOutlines = counted.scanOutlines;
	counted.scanOutlines = (sessionId, visit, fullFrom) =>
		scanOutlines(
			sessionId,
			(record, lineNumber, position, outlined, bytes) => {
				if (outlined) outlinesVisited.push((record as { id: string }).id);
				visit(record, lineNumber, position, outlined, bytes);
			},
			fullFrom,
		);
	return { readAgain, outlinesVisited };
}

describe('PostgreSQL sessions opened with load: "context"', () => {
	it("read a never-compacted context once, in full, without reading any record again", async () => {
		const opened = await openStore();
		const written = await writeSession(opened);
		const expected = written.modelContext();
		await written.close();
		const { readAgain, outlinesVisited } = countReads(opened);
		const session = await Session.open(opened, written.id, { load: "context" });
		expect(session.modelContext()).toEqual(expected);
		expect(readAgain).toEqual([]);
		expect(outlinesVisited).toEqual([]);
		await session.close();
	});

	it("read outlines before the newest window's bytes and full records within it, none read again", async () => {
		const opened = await openStore();
		const written = await writeSession(opened);
		const records = written.branch();
		const ids = records.map((record) => record.id);
		await written.close();
		const bytesOf = (record: SessionMessageRecord) => Buffer.byteLength(serializeSessionRecord(record));
		const contextTokens = Math.ceil(bytesOf(records[4]) / 4) + Math.ceil(bytesOf(records[5]) / 4);
		// The last two messages hold at most the window's bytes: the one before (record 5, after the
		// header) completes them.
		expect(await opened.newestBytesStart(written.id, contextTokens * 4)).toBe(5);
		expect(await opened.newestBytesStart(written.id, 1_000_000)).toBeUndefined();
		const { readAgain, outlinesVisited } = countReads(opened);
		const session = await Session.open(opened, written.id, { load: "context", contextTokens });
		expect(session.modelContextRecords().map((record) => record.id)).toEqual(ids.slice(4));
		expect(session.contextCut).toEqual({ firstMessageId: ids[4], omittedMessages: 4, contextTokens });
		expect(outlinesVisited).toEqual(ids.slice(0, 3));
		expect(readAgain).toEqual([]);
		await session.close();
	});

	it("read outlines before the last compaction boundary and full records after it, reading again only what it kept", async () => {
		const opened = await openStore();
		const written = await writeSession(opened);
		const ids = written.modelContext().map((message) => written.idOf(message));
		const { summaryRecord } = await written.appendCompaction(
			{ role: "summary", summary: "four messages", summarisedMessageCount: 4, timestamp: 20 },
			{ trigger: "manual", firstKeptMessageId: ids[4] },
		);
		const after = await written.append({ role: "user", content: "after the compaction", timestamp: 30 });
		const expected = written.modelContext();
		await written.close();
		const { readAgain, outlinesVisited } = countReads(opened);
		const session = await Session.open(opened, written.id, { load: "context" });
		expect(session.modelContext()).toEqual(expected);
		expect(readAgain.sort()).toEqual([summaryRecord.id, ids[4], ids[5]].sort());
		expect(outlinesVisited).toEqual([...ids, summaryRecord.id]);
		expect(outlinesVisited).not.toContain(after.id);
		await session.close();
	});
});

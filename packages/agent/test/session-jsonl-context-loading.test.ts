// Opening a JSONL session with load: "context" parses each record of the model context once: the
// messages after the last compaction boundary keep the full record the scan parsed, and only what
// the compaction kept from before it is read again by offset. Everything else stays an outline.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Session } from "../src/session/index.js";
import { createJsonlTranscriptStore, type JsonlTranscriptStore } from "../src/session/jsonl/index.js";
import { lastLineMentioning } from "../src/session/jsonl/last-line-mentioning.js";
import { assistantMessage, userMessage } from "./session-helpers.js";

const directory = mkdtempSync(join(tmpdir(), "keel-context-loading-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The store, with the ids of the records it read again by offset. */
function countingStore(name: string): { store: JsonlTranscriptStore; readAgain: string[] } {
	const store = createJsonlTranscriptStore({ directory: join(directory, name) });
	const readAgain: string[] = [];
	const readAt = store.readAt;
	store.readAt = async (sessionId, offsets) => {
		const records = await readAt(sessionId, offsets);
		for (const record of records) readAgain.push((record as { id: string }).id);
		return records;
	};
	return { store, readAgain };
}

describe('load: "context" on a JSONL transcript', () => {
	it("reads again only what a compaction kept from before its boundary, and outlines the branch it does not need", async () => {
		const { store, readAgain } = countingStore("compacted");
		const session = await Session.create(store);
		await session.append(userMessage("first question"));
		await session.append(assistantMessage("first answer"));
		const kept = await session.append(userMessage("second question"));
		const keptAnswer = await session.append(assistantMessage("second answer"));
		const { summaryRecord } = await session.appendCompaction(
			{ role: "summary", summary: "two questions so far", summarisedMessageCount: 2, timestamp: Date.now() },
			{ trigger: "manual", firstKeptMessageId: kept.id },
		);
		const third = await session.append(userMessage("third question"));
		const abandoned = await session.append(assistantMessage("an abandoned answer"));
		const otherLeaf = (await session.append(userMessage("a follow-up on the abandoned answer"))).id;
		const expectedOther = session.messages(otherLeaf);
		await session.fork(third.id);
		await session.append(assistantMessage("the third answer"));
		const expectedContext = session.modelContext();
		await session.close();

		const opened = await Session.open(store, session.id, { load: "context" });
		try {
			expect(opened.modelContext()).toEqual(expectedContext);
			expect(readAgain.sort()).toEqual([summaryRecord.id, kept.id, keptAnswer.id].sort());
			// After the boundary but on neither the current branch nor a leaf: an outline.
			expect(opened.getRecord(abandoned.id)?.message).toEqual({
				role: "assistant",
				content: [],
				stopReason: "stop",
				timestamp: expect.any(Number),
			});
			expect(() => opened.messages(otherLeaf)).toThrow("await session.loadBranch");
			await opened.loadBranch(otherLeaf);
			expect(opened.messages(otherLeaf)).toEqual(expectedOther);
		} finally {
			await opened.close();
		}
	});

	it("asks the store for at most 2,000 records at a time when it reads a long kept history again", async () => {
		const store = createJsonlTranscriptStore({ directory: join(directory, "long-kept") });
		const slices: number[] = [];
		const readAt = store.readAt;
		store.readAt = (sessionId, offsets) => {
			slices.push(offsets.length);
			return readAt(sessionId, offsets);
		};
		const session = await Session.create(store);
		const first = await session.append(userMessage("message 0"));
		for (let index = 1; index < 4_500; index++) await session.append(userMessage(`message ${index}`));
		// A compaction that keeps everything: the whole history before the boundary is context.
		await session.appendCompaction(
			{ role: "summary", summary: "nothing left out", summarisedMessageCount: 0, timestamp: Date.now() },
			{ trigger: "manual", firstKeptMessageId: first.id },
		);
		const expectedContext = session.modelContext();
		await session.close();

		const opened = await Session.open(store, session.id, { load: "context" });
		try {
			expect(opened.modelContext()).toEqual(expectedContext);
			expect(slices).toEqual([2_000, 2_000, 501]);
		} finally {
			await opened.close();
		}
	});

	it("never reads a record again when the session was never compacted, and matches load: all", async () => {
		const { store, readAgain } = countingStore("never-compacted");
		const session = await Session.create(store);
		const first = await session.append(userMessage("first question"));
		const abandoned = await session.append(assistantMessage("an abandoned answer"));
		const otherLeaf = (await session.append(userMessage("a follow-up"))).id;
		await session.fork(first.id);
		await session.append(assistantMessage("the answer kept"));
		await session.append(userMessage("the next question"));
		await session.close();

		const all = await Session.open(store, session.id, { load: "all" });
		const expectedContext = all.modelContext();
		const expectedOther = all.messages(otherLeaf);
		await all.close();
		const opened = await Session.open(store, session.id, { load: "context" });
		try {
			expect(opened.modelContext()).toEqual(expectedContext);
			expect(readAgain).toEqual([]);
			expect(opened.getRecord(abandoned.id)?.message).toMatchObject({ role: "assistant", content: [] });
			await opened.loadBranch(otherLeaf);
			expect(opened.messages(otherLeaf)).toEqual(expectedOther);
			expect(readAgain).toEqual([abandoned.id]);
		} finally {
			await opened.close();
		}
	});

	it("outlines what precedes a boundary the search from the end missed (written with spaces) once the scan meets it", async () => {
		const { store, readAgain } = countingStore("spaced");
		const session = await Session.create(store);
		await session.append(userMessage("first question"));
		const summarised = await session.append(assistantMessage("first answer"));
		const { summaryRecord } = await session.appendCompaction(
			{ role: "summary", summary: "one question so far", summarisedMessageCount: 2, timestamp: Date.now() },
			{ trigger: "manual" },
		);
		await session.append(userMessage("second question"));
		const expectedContext = session.modelContext();
		await session.close();
		// Rewrite every line with spaces after the colons, as another JSON writer might.
		const path = join(directory, "spaced", `${session.id}.jsonl`);
		const handle = await open(path, "r");
		const lines = (await handle.readFile("utf8")).trimEnd().split("\n");
		await handle.close();
		writeFileSync(
			path,
			`${lines.map((line) => JSON.stringify(JSON.parse(line), null, 1).replaceAll("\n", "")).join("\n")}\n`,
		);

		const opened = await Session.open(store, session.id, { load: "context" });
		try {
			expect(opened.modelContext()).toEqual(expectedContext);
			// The summary precedes the boundary: outlined when the boundary was met, then read again.
			expect(readAgain).toEqual([summaryRecord.id]);
			expect(opened.getRecord(summarised.id)?.message).toMatchObject({ role: "assistant", content: [] });
		} finally {
			await opened.close();
		}
	});
});

describe("lastLineMentioning", () => {
	/** The reference: split into lines and take the last one holding the marker. */
	function expectedStart(text: string, marker: string): number | undefined {
		let offset = 0;
		let found: number | undefined;
		for (const line of text.split("\n")) {
			if (line.includes(marker)) found = offset;
			offset += Buffer.byteLength(line) + 1;
		}
		return found;
	}

	it("finds where the last line holding the bytes starts, for markers across block edges and lines longer than a block", async () => {
		const texts = [
			"",
			"no marker here\nnor here\n",
			"MARK at the start\nsecond\n",
			"first\nsecond MARK\nthird\n",
			"é✓ MARK é✓\nMARK again, longer than any block used below, é✓é✓é✓\ntail\n",
			"a\nb\nc MAR\nK d\nMARKMARK\n",
			"MARK",
		];
		for (const [index, text] of texts.entries()) {
			const path = join(directory, `mention-${index}.jsonl`);
			writeFileSync(path, text);
			const handle = await open(path, "r");
			try {
				for (let blockBytes = 1; blockBytes <= 24; blockBytes++) {
					const found = await lastLineMentioning(handle, Buffer.byteLength(text), Buffer.from("MARK"), blockBytes);
					expect({ text, blockBytes, found }).toEqual({ text, blockBytes, found: expectedStart(text, "MARK") });
				}
			} finally {
				await handle.close();
			}
		}
	});

	it("refuses to search for nothing", async () => {
		const path = join(directory, "mention-empty.jsonl");
		writeFileSync(path, "line\n");
		const handle = await open(path, "r");
		try {
			await expect(lastLineMentioning(handle, 5, Buffer.alloc(0))).rejects.toThrow("must not be empty");
		} finally {
			await handle.close();
		}
	});
});

// The outline index beside a JSONL transcript (`<file>.outline`) is a cache: opening a session with
// load: "context" through it gives what a full parse gives, whatever became of the index — missing,
// cut mid-line, garbled, of another version, covering more than the transcript, stale after a torn
// tail, or behind the transcript because its writer died before writing its last entries.
import {
	appendFileSync,
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	statSync,
	truncateSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { outlineMessageRecord, resumeAgent, Session, type SessionMessageRecord } from "../src/session/index.js";
import { createJsonlTranscriptStore, type JsonlTranscriptStore } from "../src/session/jsonl/index.js";
import { OutlineSidecarEntryReader } from "../src/session/jsonl/outline-sidecar-entry-reader.js";
import { OutlineSidecarEntries } from "../src/session/jsonl/outline-sidecar-format.js";
import { assistantMessage, toolResult, userMessage } from "./session-helpers.js";

const root = mkdtempSync(join(tmpdir(), "keel-outline-index-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => {
	vi.useRealTimers();
});

let directories = 0;
function newDirectory(): string {
	const directory = join(root, `d${directories++}`);
	mkdirSync(directory);
	return directory;
}

/** A session with tool calls, a compaction, a tombstone, a state change and an abandoned branch. */
async function writeSession(store: JsonlTranscriptStore): Promise<string> {
	const session = await Session.create(store, { title: "outlined" });
	await session.append(userMessage("first question"));
	await session.append(assistantMessage("", [{ id: "call-1", name: "read" }]));
	await session.append(toolResult("call-1", "file contents"));
	await session.append(assistantMessage("first answer"));
	const kept = await session.append(userMessage("second question"));
	await session.append(assistantMessage("second answer"));
	await session.appendCompaction(
		{ role: "summary", summary: "two questions so far", summarisedMessageCount: 4, timestamp: Date.now() },
		{ trigger: "manual", firstKeptMessageId: kept.id },
	);
	const third = await session.append(userMessage("third question"));
	await session.append(assistantMessage("an abandoned answer"));
	await session.append(userMessage("a follow-up on the abandoned answer"));
	await session.fork(third.id);
	const mistaken = await session.append(assistantMessage("a mistaken answer"));
	await session.tombstone(mistaken.id, "wrong");
	await session.updateState({ currentTask: "answering" });
	await session.append(assistantMessage("", [{ id: "call-2", name: "read" }]));
	await session.append(toolResult("call-2", "more contents"));
	await session.append(assistantMessage("the third answer"));
	await session.close();
	return session.id;
}

/** What an application sees of an opened session, and of the agent resumed from it. */
async function openedAs(store: JsonlTranscriptStore, sessionId: string, load: "context" | "all" = "context") {
	const session = await Session.open(store, sessionId, { load });
	try {
		const agent = await resumeAgent(session);
		return {
			header: session.header,
			leafId: session.leafId,
			state: session.state,
			modelContext: session.modelContext(),
			branches: session.branches(),
			problems: session.problems,
			agentMessages: agent.state.messages,
		};
	} finally {
		await session.close();
	}
}

/** How many records scanOutlines hands over as outlines (0: everything was parsed in full). */
async function outlinedCount(store: JsonlTranscriptStore, sessionId: string): Promise<number> {
	let outlined = 0;
	await store.scanOutlines(sessionId, (_record, _line, _offset, isOutline) => {
		if (isOutline) outlined++;
	});
	return outlined;
}

/** A copy of the session's transcript (and of its index, unless `withIndex` is false) in a new directory. */
function copySession(from: string, sessionId: string, withIndex = true): string {
	const to = newDirectory();
	copyFileSync(join(from, `${sessionId}.jsonl`), join(to, `${sessionId}.jsonl`));
	if (withIndex) copyFileSync(join(from, `${sessionId}.jsonl.outline`), join(to, `${sessionId}.jsonl.outline`));
	return to;
}

const indexOf = (directory: string, sessionId: string) => join(directory, `${sessionId}.jsonl.outline`);

describe("the outline index beside a JSONL transcript", () => {
	it("is written by the writer, owner-only, versioned, one entry per line of the transcript", async () => {
		const directory = newDirectory();
		const sessionId = await writeSession(createJsonlTranscriptStore({ directory }));
		const index = readFileSync(indexOf(directory, sessionId), "utf8");
		const transcriptLines = readFileSync(join(directory, `${sessionId}.jsonl`), "utf8").split("\n").length - 1;
		expect(index.startsWith("keel-outline 2 ")).toBe(true);
		expect(index.split("\n").length - 1).toBe(transcriptLines + 1);
		expect(statSync(indexOf(directory, sessionId)).mode & 0o777).toBe(0o600);
	});

	it("reads an index of several of its 1 MiB chunks, lines cut by a chunk's end included, as a full parse reads the transcript", async () => {
		const directory = newDirectory();
		const store = createJsonlTranscriptStore({ directory });
		const session = await Session.create(store, { title: "long" });
		// About 180 bytes of index per exchange: 8,000 exchanges make an index of about 1.4 MiB.
		for (let turn = 0; turn < 8_000; turn++) {
			await session.append(assistantMessage("", [{ id: `call-${turn}`, name: "read" }]));
			await session.append(toolResult(`call-${turn}`, `contents ${turn}`));
		}
		await session.close();
		expect(statSync(indexOf(directory, session.id)).size).toBeGreaterThan(1024 * 1024);
		const withoutIndex = createJsonlTranscriptStore({ directory: copySession(directory, session.id, false) });

		expect(await outlinedCount(store, session.id)).toBe(16_000);
		expect(await openedAs(store, session.id)).toEqual(await openedAs(withoutIndex, session.id));
	});

	it('gives load: "context" the same session and agent context as load: "all" and as a full parse without it', async () => {
		const directory = newDirectory();
		const store = createJsonlTranscriptStore({ directory });
		const sessionId = await writeSession(store);
		const withoutIndex = createJsonlTranscriptStore({ directory: copySession(directory, sessionId, false) });
		const expected = await openedAs(withoutIndex, sessionId);

		expect(await outlinedCount(store, sessionId)).toBeGreaterThan(10);
		expect(await openedAs(store, sessionId)).toEqual(expected);
		const all = await openedAs(store, sessionId, "all");
		expect(all.modelContext).toEqual(expected.modelContext);
		expect(all.agentMessages).toEqual(expected.agentMessages);
	});

	// A garble is dropped, with what follows, once a scan reaches it while the writer is open (here,
	// before the compaction, where load: "context" reads outlines).
	const damages: [string, (index: string) => void][] = [
		["missing", (index) => rmSync(index)],
		[
			"cut in the middle of an entry",
			(index) => {
				const text = readFileSync(index, "utf8");
				truncateSync(index, text.indexOf("\n", text.length / 2) - 5);
			},
		],
		[
			"garbled early on",
			(index) => {
				const text = readFileSync(index, "utf8");
				const early = text.indexOf("\n", text.length / 4) + 1;
				writeFileSync(index, `${text.slice(0, early)}12 x {not an entry\n${text.slice(early)}`);
			},
		],
		["nothing but garbage", (index) => writeFileSync(index, "\u0000\u0001 garbage\nmore garbage")],
		[
			"of an unknown version",
			(index) => writeFileSync(index, readFileSync(index, "utf8").replace("keel-outline 2 ", "keel-outline 9 ")),
		],
		[
			"of another transcript of the same name",
			(index) =>
				writeFileSync(
					index,
					readFileSync(index, "utf8").replace(/^keel-outline 2 [0-9a-f]+/, `keel-outline 2 ${"0".repeat(32)}`),
				),
		],
	];
	for (const [damage, apply] of damages) {
		it(`is ignored where it is ${damage}: the lines it does not vouch for are parsed in full`, async () => {
			const directory = newDirectory();
			const sessionId = await writeSession(createJsonlTranscriptStore({ directory }));
			const expected = await openedAs(
				createJsonlTranscriptStore({ directory: copySession(directory, sessionId, false) }),
				sessionId,
			);
			apply(indexOf(directory, sessionId));
			const store = createJsonlTranscriptStore({ directory });
			expect(await openedAs(store, sessionId)).toEqual(expected);
			// The writer that opened it dropped what it could not trust, and the reader filled it in.
			expect(await outlinedCount(store, sessionId)).toBeGreaterThan(10);
			expect(await openedAs(store, sessionId)).toEqual(expected);
		});
	}

	it("covers only what is still in the transcript when the transcript is shorter than the index", async () => {
		const directory = newDirectory();
		const sessionId = await writeSession(createJsonlTranscriptStore({ directory }));
		const transcript = join(directory, `${sessionId}.jsonl`);
		const text = readFileSync(transcript);
		// Back to the end of a line in the middle: a transcript restored from an older copy.
		truncateSync(transcript, text.indexOf(10, text.length / 2) + 1);
		const expected = await openedAs(
			createJsonlTranscriptStore({ directory: copySession(directory, sessionId, false) }),
			sessionId,
		);
		expect(await openedAs(createJsonlTranscriptStore({ directory }), sessionId)).toEqual(expected);
	});

	it("does not cover a torn last line the writer sets aside, and drops its entry", async () => {
		const directory = newDirectory();
		const sessionId = await writeSession(createJsonlTranscriptStore({ directory }));
		const transcript = join(directory, `${sessionId}.jsonl`);
		// The last line loses its newline (and the index still has its entry): a torn append.
		truncateSync(transcript, statSync(transcript).size - 1);
		const without = copySession(directory, sessionId, false);
		const expected = await openedAs(createJsonlTranscriptStore({ directory: without }), sessionId);
		expect(expected.problems.map((problem) => problem.kind)).toEqual(["torn-last-line"]);
		const opened = await openedAs(createJsonlTranscriptStore({ directory }), sessionId);
		expect({ ...opened, problems: opened.problems.map((problem) => problem.kind) }).toEqual({
			...expected,
			problems: ["torn-last-line"],
		});
		const indexLines = readFileSync(indexOf(directory, sessionId), "utf8").split("\n").length - 1;
		const transcriptLines = readFileSync(transcript, "utf8").split("\n").length - 1;
		expect(indexLines).toBe(transcriptLines + 1);
	});

	it("leaves lines appended after it (by an older writer) to a full parse, and is then filled in", async () => {
		const directory = newDirectory();
		const store = createJsonlTranscriptStore({ directory });
		const sessionId = await writeSession(store);
		const transcript = join(directory, `${sessionId}.jsonl`);
		const lines = readFileSync(transcript, "utf8").split("\n");
		const last = JSON.parse(lines[lines.length - 2]) as { id: string; timestamp: number };
		appendFileSync(
			transcript,
			`${JSON.stringify({ type: "message", v: 1, sessionId, timestamp: last.timestamp + 1, id: "late", parentId: last.id, message: userMessage("a late question") })}\n`,
		);
		const expected = await openedAs(
			createJsonlTranscriptStore({ directory: copySession(directory, sessionId, false) }),
			sessionId,
		);
		expect(expected.modelContext.at(-1)).toMatchObject({ content: "a late question" });
		expect(await openedAs(store, sessionId)).toEqual(expected);
		// The header, the lines written before, and the late one.
		const indexLines = readFileSync(indexOf(directory, sessionId), "utf8").split("\n").length - 1;
		expect(indexLines).toBe(1 + (lines.length - 1) + 1);
	});

	it("gets an index for a session written before it existed on its first open", async () => {
		const directory = newDirectory();
		const store = createJsonlTranscriptStore({ directory });
		const sessionId = await writeSession(store);
		const written = readFileSync(indexOf(directory, sessionId), "utf8");
		rmSync(indexOf(directory, sessionId));
		expect(await outlinedCount(store, sessionId)).toBe(0);
		await openedAs(store, sessionId);
		expect(readFileSync(indexOf(directory, sessionId), "utf8")).toBe(written);
	});

	it("behind a writer killed before it wrote its entries, lets the reader parse the rest in full", async () => {
		vi.useFakeTimers();
		const directory = newDirectory();
		const sessionId = await writeSession(createJsonlTranscriptStore({ directory }));
		const store = createJsonlTranscriptStore({ directory });
		const session = await Session.open(store, sessionId, { load: "context" });
		await session.append(userMessage("asked just before the kill"));
		await session.append(assistantMessage("answered just before the kill"));
		// What a SIGKILL now leaves on disk: the lines written, their entries still queued.
		const killed = copySession(directory, sessionId);
		const transcriptLines = readFileSync(join(killed, `${sessionId}.jsonl`), "utf8").split("\n").length - 1;
		expect(readFileSync(indexOf(killed, sessionId), "utf8").split("\n").length - 1).toBe(transcriptLines - 1);
		await session.close();
		vi.useRealTimers();

		const expected = await openedAs(
			createJsonlTranscriptStore({ directory: copySession(killed, sessionId, false) }),
			sessionId,
		);
		expect(expected.modelContext.at(-1)).toMatchObject({ role: "assistant" });
		expect(await openedAs(createJsonlTranscriptStore({ directory: killed }), sessionId)).toEqual(expected);
	});

	it("hands over an outline of a damaged line it covers, as the database stores do: the damage shows when the line is read", async () => {
		const directory = newDirectory();
		const store = createJsonlTranscriptStore({ directory });
		const session = await Session.create(store);
		const old = await session.append(userMessage("an old question"));
		await session.appendCompaction(
			{ role: "summary", summary: "one question so far", summarisedMessageCount: 1, timestamp: Date.now() },
			{ trigger: "manual" },
		);
		await session.append(userMessage("a new question"));
		await session.close();
		const transcript = join(directory, `${session.id}.jsonl`);
		const text = readFileSync(transcript, "utf8");
		// The old question's text garbled in place (same length): before the boundary, not context.
		writeFileSync(transcript, text.replace('"an old question"', '"an old question'.padEnd(17, "\u0001")));
		const withoutIndex = await openedAs(
			createJsonlTranscriptStore({ directory: copySession(directory, session.id, false) }),
			session.id,
		);
		expect(withoutIndex.problems.map((problem) => problem.kind)).toEqual(["malformed"]);
		const opened = await Session.open(store, session.id, { load: "context" });
		try {
			expect(opened.problems).toEqual([]);
			expect(opened.modelContext()).toEqual(withoutIndex.modelContext);
			const oldLine = Buffer.byteLength(text.slice(0, text.lastIndexOf("\n", text.indexOf(`"id":"${old.id}"`)) + 1));
			await expect(store.readAt(session.id, [oldLine])).rejects.toThrow("not valid JSON");
		} finally {
			await opened.close();
		}
	});

	it("reads back each outline, plain or JSON, as outlineMessageRecord gives it and in the same shape", () => {
		const record = (message: unknown, extra: Partial<SessionMessageRecord> = {}) =>
			({
				type: "message",
				v: 1,
				sessionId: "s",
				timestamp: 5,
				id: `m${records.length}`,
				parentId: `m${records.length - 1}`,
				message,
				...extra,
			}) as SessionMessageRecord;
		const withCall = (id: unknown, name: unknown) =>
			assistantMessage("text", [{ id: id as string, name: name as string }]);
		const records: SessionMessageRecord[] = [];
		const add = (message: unknown, extra: Partial<SessionMessageRecord> = {}) => records.push(record(message, extra));
		add(userMessage("hello"), { parentId: null });
		add(userMessage("hello"));
		add(userMessage("hello"), { parentId: 'ünïcødé "quoted"', id: 'ünïcødé "quoted" too' });
		add(userMessage("a parent not the entry before"), { parentId: "m0" });
		add(assistantMessage("an answer"));
		add(withCall("call-1", "read"));
		add({
			...assistantMessage("", [
				{ id: "call-2", name: "read" },
				{ id: 'call "3"', name: "write file" },
			]),
			stopReason: "toolUse",
		});
		add({ ...withCall("call-\u0001", 'na"me'), stopReason: "toolUse" });
		add({ ...withCall("call-\t", "read"), stopReason: "toolUse" });
		add({ ...assistantMessage("no stop reason"), stopReason: undefined });
		add(toolResult("call-1", "output"));
		add({ ...toolResult("call-1", "output"), isError: true });
		add({ ...toolResult("call-1", "output"), isError: undefined });
		add({ ...toolResult("call-✓", "output", "tööl") });
		add({ role: "progress", timestamp: 7 });
		add({ role: "custom", timestamp: 8, anything: [1, 2] });
		add({ ...userMessage("no time"), timestamp: undefined });
		add({ ...userMessage("its own time"), timestamp: 12 });
		add({ ...userMessage("a fractional time"), timestamp: 12.5 });
		add(userMessage("a negative time"), { timestamp: -1 });
		add(userMessage("an empty parent id"), { parentId: "" });
		add(userMessage("after an empty parent id"));
		const entries = new OutlineSidecarEntries();
		const reader = new OutlineSidecarEntryReader("session-1");
		const lines = records.map((each, index) => entries.entry(index * 100, 99, [each]));
		// The user, assistant and tool-result messages with plain strings and integer times (9 of them)
		// take the plain form, with no JSON to parse; the rest are JSON.
		expect(lines.filter((line) => !line.split(" ")[2].startsWith("{")).length).toBe(9);
		records.forEach((each, index) => {
			const line = Buffer.from(lines[index]);
			expect(reader.read(line, 0, line.length - 1)).toBe(true);
			const expected = outlineMessageRecord(each, "session-1");
			expect(reader.outline).toEqual(expected);
			expect(JSON.stringify(reader.outline)).toBe(JSON.stringify(expected));
			expect([reader.offset, reader.length]).toEqual([index * 100, 99]);
		});
		// An outline JSON could not hold as it is (its time is no number) is not written: the line is read in full.
		const timeless = record(userMessage("odd record time"), { timestamp: Number.NaN });
		expect(entries.entry(0, 99, [timeless])).toBe("0 99 -\n");
	});

	const garbles: [string, (entry: string) => string][] = [
		["a letter in a number", (entry) => entry.replace(/^(\d+ \d+ [uar]\t\d+\t\d)\d/, "$1x")],
		["an unknown kind of message", (entry) => entry.replace(/^(\d+ \d+ )[uar]\t/, "$1q\t")],
		["a field missing", (entry) => entry.slice(0, entry.lastIndexOf("\t"))],
		["a field too many", (entry) => `${entry}\t1`],
		["a control character in an id", (entry) => entry.replace(/^((?:[^\t]*\t){3})/, "$1\u0001")],
		["a byte not ASCII in an id", (entry) => entry.replace(/^((?:[^\t]*\t){3})/, "$1é")],
		[
			"an empty parent id after an entry without an outline",
			(entry) => entry.replace(/^((?:[^\t]*\t){4})[^\t]+/, "$1"),
		],
	];
	for (const [garble, apply] of garbles) {
		it(`ends what it covers at a plain entry with ${garble}: the lines from there on are parsed in full`, async () => {
			const directory = newDirectory();
			const sessionId = await writeSession(createJsonlTranscriptStore({ directory }));
			const expected = await openedAs(
				createJsonlTranscriptStore({ directory: copySession(directory, sessionId, false) }),
				sessionId,
			);
			const lines = readFileSync(indexOf(directory, sessionId), "utf8").split("\n");
			// A plain entry with its parent id written out: the first after a line read in full.
			const garbled = lines.findIndex((line) => /^\d+ \d+ [uar]\t(?:[^\t]*\t){3}[^\t]/.test(line));
			expect(garbled).toBeGreaterThan(3);
			const outlinedBefore = lines.slice(1, garbled).filter((line) => !line.endsWith(" -")).length;
			lines[garbled] = apply(lines[garbled]);
			writeFileSync(indexOf(directory, sessionId), lines.join("\n"));
			const store = createJsonlTranscriptStore({ directory });
			expect(await outlinedCount(store, sessionId)).toBe(outlinedBefore);
			expect(await openedAs(store, sessionId)).toEqual(expected);
		});
	}

	it("rebuilds an index of version 1, whose outlines were JSON, on the first open, which reads the transcript in full", async () => {
		const directory = newDirectory();
		const sessionId = await writeSession(createJsonlTranscriptStore({ directory }));
		const expected = await openedAs(
			createJsonlTranscriptStore({ directory: copySession(directory, sessionId, false) }),
			sessionId,
		);
		// Version 1: the same header with its version, and each outline as JSON without the session id.
		const transcript = readFileSync(join(directory, `${sessionId}.jsonl`), "utf8");
		const [header] = readFileSync(indexOf(directory, sessionId), "utf8").split("\n");
		let version1 = `${header.replace("keel-outline 2 ", "keel-outline 1 ")}\n`;
		let offset = 0;
		for (const line of transcript.split("\n").slice(0, -1)) {
			const outlined = outlineMessageRecord(JSON.parse(line)) as { sessionId?: string } | undefined;
			if (outlined) outlined.sessionId = undefined;
			version1 += `${offset} ${Buffer.byteLength(line)} ${outlined ? JSON.stringify(outlined) : "-"}\n`;
			offset += Buffer.byteLength(line) + 1;
		}
		writeFileSync(indexOf(directory, sessionId), version1);
		const store = createJsonlTranscriptStore({ directory });
		expect(await outlinedCount(store, sessionId)).toBe(0);
		expect(await openedAs(store, sessionId)).toEqual(expected);
		expect(readFileSync(indexOf(directory, sessionId), "utf8").startsWith("keel-outline 2 ")).toBe(true);
		expect(await outlinedCount(store, sessionId)).toBeGreaterThan(10);
		expect(await openedAs(store, sessionId)).toEqual(expected);
	});

	it("goes with its session: delete removes it, and list() never takes it for a session", async () => {
		const directory = newDirectory();
		const store = createJsonlTranscriptStore({ directory });
		const sessionId = await writeSession(store);
		expect((await store.list()).map((info) => info.sessionId)).toEqual([sessionId]);
		await store.delete(sessionId);
		expect(existsSync(indexOf(directory, sessionId))).toBe(false);
		expect(await store.list()).toEqual([]);
	});
});

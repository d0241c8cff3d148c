// Importing pi session files into Keel sessions and exporting Keel sessions as pi session files.
// fixtures/pi/pi-written-session.jsonl was written by pi's own SessionManager (pi-coding-agent
// 1.5.2, fixtures/pi/write-pi-session.mjs). The tests that load Keel's exports with pi's
// SessionManager run pi in a child process under the Node it requires (pi-session-manager.ts); they
// skip, saying why, where scripts/ensure-runtimes.mjs could not install pi or that Node.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolResultMessage } from "@keel/ai";
import { afterEach, beforeEach, describe, expect, it, type TestContext } from "vitest";
import {
	convertPiSession,
	createMemoryTranscriptStore,
	exportSession,
	ForeignTranscriptError,
	importTranscript,
	Session,
	TranscriptInterchangeError,
} from "../src/session/index.js";
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";
import { findPiSessionManager, type PiContextMessage, type PiReading } from "./pi-session-manager.js";
import { assistantMessage, toolResult, userMessage } from "./session-helpers.js";

const fixture = join(import.meta.dirname, "fixtures", "pi", "pi-written-session.jsonl");
const piText = readFileSync(fixture, "utf8");

describe("importing a pi session file", () => {
	it("imports every message of a file pi wrote, with its compaction, title and working directory", async () => {
		const store = createMemoryTranscriptStore();
		const result = await importTranscript(store, piText);
		expect(result.format).toBe("pi");
		expect(result.session.sessionId).toBe("0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
		expect(result.skipped).toEqual({ model_change: 1, thinking_level_change: 1 });
		const session = await Session.open(store, result.session.sessionId);
		expect(session.state.workingDirectory).toBe("/home/user/project");
		expect((await store.list())[0].title).toBe("Build fix");
		const roles = session.messages().map((message) => message.role);
		// Every message entry of the file, in order, with the compaction in the middle.
		expect(roles).toEqual([
			"system",
			"user",
			"assistant",
			"toolResult",
			"toolResult",
			"assistant",
			"user",
			"assistant",
			"summary",
			"compact_boundary",
			"system",
			"user",
			"assistant",
		]);
		const results = session.messages().filter((message) => message.role === "toolResult") as ToolResultMessage[];
		expect(results.map((result) => [result.toolCallId, result.toolName])).toEqual([
			["toolu_01", "bash"],
			["toolu_02", "read"],
		]);
		// pi's context after the compaction: the summary, the kept messages from "Fix it." on, and what follows.
		const context = session.modelContext();
		expect(context.map((message) => message.role)).toEqual([
			"summary",
			"user",
			"assistant",
			"system",
			"user",
			"assistant",
		]);
		expect(context[1]).toMatchObject({ role: "user", content: "Fix it." });
		expect(context.at(-1)).toMatchObject({ content: [{ type: "text", text: "All 12 tests pass." }] });
		await session.close();
	});

	it("refuses a pi session of an older format version, and a line that is no entry, writing nothing", async () => {
		const store = createMemoryTranscriptStore();
		const older = piText.replace('"version":3', '"version":2');
		await expect(importTranscript(store, older)).rejects.toThrow(/format version 2/);
		await expect(importTranscript(store, older)).rejects.toBeInstanceOf(TranscriptInterchangeError);
		const noEntry = piText.replace(/\n\{"type":"model_change","id":"[^"]+",/, '\n{"type":"model_change",');
		await expect(importTranscript(store, noEntry)).rejects.toThrow(/line 2 is not a pi session entry/);
		await expect(importTranscript(store, piText.slice(0, -30))).rejects.toThrow(/cut off/);
		expect(await store.list()).toEqual([]);
	});

	it("never writes into the pi file: its bytes are unchanged after importing and resuming", async () => {
		const directory = mkdtempSync(join(tmpdir(), "keel-pi-import-"));
		try {
			const source = join(directory, "pi.jsonl");
			copyFileSync(fixture, source);
			const store = createJsonlTranscriptStore({ directory: join(directory, "sessions") });
			const result = await importTranscript(store, readFileSync(source, "utf8"));
			const session = await Session.open(store, result.session.sessionId);
			await session.append(userMessage("One more thing."));
			await session.close();
			expect(readFileSync(source).equals(readFileSync(fixture))).toBe(true);
		} finally {
			rmSync(directory, { recursive: true, force: true });
		}
	});
});

describe("opening a pi session file directly", () => {
	let directory: string;
	beforeEach(() => {
		directory = mkdtempSync(join(tmpdir(), "keel-pi-open-"));
	});
	afterEach(() => rmSync(directory, { recursive: true, force: true }));

	it("refuses with an error pointing to the import instead of reading 0 messages, and leaves the file as it is", async () => {
		mkdirSync(join(directory, "sessions"));
		copyFileSync(fixture, join(directory, "sessions", "pi.jsonl"));
		const store = createJsonlTranscriptStore({ directory: join(directory, "sessions") });
		const error = await Session.open(store, "pi").catch((thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(ForeignTranscriptError);
		expect((error as ForeignTranscriptError).format).toBe("pi");
		expect((error as Error).message).toMatch(/pi session file.*keel sessions import/);
		expect(readFileSync(join(directory, "sessions", "pi.jsonl")).equals(readFileSync(fixture))).toBe(true);
		expect(readdirSync(join(directory, "sessions"))).toEqual(["pi.jsonl"]);
	});

	it("still opens a Keel transcript whose first line is damaged, reporting the damage", async () => {
		const store = createMemoryTranscriptStore();
		const session = await Session.create(store, { sessionId: "damaged" });
		await session.append(userMessage("hello"));
		await session.close();
		const { records } = await store.read("damaged");
		const lines = records.map((record) => JSON.stringify(record));
		const damaged = createJsonlTranscriptStore({ directory });
		writeFileSync(join(directory, "damaged.jsonl"), `{"v":1,"type":"sess\n${lines.slice(1).join("\n")}\n`);
		const reopened = await Session.open(damaged, "damaged");
		expect(reopened.messages().map((message) => message.role)).toEqual(["user"]);
		expect(reopened.damage.skippedLines[0].line).toBe(1);
		await reopened.close();
	});
});

async function keelSessionWithBranchAndCompaction() {
	const store = createMemoryTranscriptStore();
	const session = await Session.create(store, {
		sessionId: "keel-pi",
		title: "Pi export",
		state: { workingDirectory: "/repo" },
	});
	const first = await session.append(userMessage("Why does the build fail?"));
	await session.append(
		assistantMessage("Let me look.", [{ id: "call-1", name: "bash", arguments: { command: "npm run build" } }]),
	);
	await session.append(toolResult("call-1", "error TS2322", "bash"));
	await session.append(assistantMessage("A type error in src/a.ts."));
	// Another branch from the first prompt, then back to the main one, which is then compacted.
	const mainLeaf = session.leafId as string;
	await session.fork(first.id);
	await session.append(assistantMessage("An abandoned answer."));
	await session.switchBranch(mainLeaf);
	await session.appendCompaction(
		{ role: "summary", summary: "The build failed on a type error.", summarisedMessageCount: 4, timestamp: Date.now() },
		{ trigger: "manual", tokensBefore: 900 },
	);
	await session.append(userMessage("Fix it."));
	await session.append(assistantMessage("Fixed."));
	const context = session.modelContext();
	await session.close();
	return { store, context };
}

describe("exporting to pi's format", () => {
	it("writes pi's header and entry tree, which import back to the same conversation and branches", async () => {
		const { store, context } = await keelSessionWithBranchAndCompaction();
		const text = await exportSession(store, "keel-pi", "pi");
		const lines = text
			.trimEnd()
			.split("\n")
			.map((line) => JSON.parse(line));
		expect(lines[0]).toMatchObject({ type: "session", version: 3, id: "keel-pi", cwd: "/repo" });
		for (const line of lines.slice(1)) {
			expect(typeof line.id).toBe("string");
			expect(line.parentId === null || typeof line.parentId === "string").toBe(true);
			expect(Number.isNaN(Date.parse(line.timestamp))).toBe(false);
		}
		expect(lines.find((line) => line.type === "compaction")).toMatchObject({
			summary: "The build failed on a type error.",
			tokensBefore: 900,
		});
		expect(lines.at(-1)).toMatchObject({ type: "session_info", name: "Pi export" });
		const back = convertPiSession(text, { sessionId: "back" });
		const imported = createMemoryTranscriptStore();
		await importTranscript(imported, text, { sessionId: "back" });
		const reopened = await Session.open(imported, "back");
		expect(
			reopened
				.modelContext()
				.map((message) => [message.role, JSON.stringify((message as { content?: unknown }).content)]),
		).toEqual(context.map((message) => [message.role, JSON.stringify((message as { content?: unknown }).content)]));
		expect(reopened.branches()).toHaveLength(2);
		expect(back.main.messages.length).toBeGreaterThan(context.length);
		await reopened.close();
	});
});

describe("pi's own SessionManager loading Keel's exports", () => {
	const pi = findPiSessionManager();
	// pi starts in a Node process of its own, which a loaded machine can make slow.
	const piTimeout = 120_000;

	/** Writes `files` (name to text) into a scratch directory and reads them all with pi. */
	const readWithPi = async (context: TestContext, files: Record<string, string>): Promise<PiReading | undefined> => {
		if ("missing" in pi) {
			console.warn(`Skipping a test that runs pi's SessionManager: ${pi.missing}`);
			context.skip();
			return undefined;
		}
		const directory = mkdtempSync(join(tmpdir(), "keel-pi-load-"));
		try {
			const paths = Object.entries(files).map(([name, text]) => {
				writeFileSync(join(directory, name), text);
				return join(directory, name);
			});
			const reading = await pi.read(paths);
			// pi only read them.
			for (const [index, text] of Object.values(files).entries()) {
				expect(readFileSync(paths[index], "utf8")).toBe(text);
			}
			return reading;
		} finally {
			rmSync(directory, { recursive: true, force: true });
		}
	};

	it(
		"pi loads a Keel session exported to its format, with the same context",
		async (testContext) => {
			const { store, context } = await keelSessionWithBranchAndCompaction();
			const reading = await readWithPi(testContext, { "exported.jsonl": await exportSession(store, "keel-pi", "pi") });
			if (!reading) return;
			// pi ran under the Node it requires, not this one.
			expect(Number(reading.node.split(".")[0])).toBeGreaterThanOrEqual(22);
			const [exported] = reading.sessions;
			expect(exported.messages.map((message) => message.role)).toEqual(["compactionSummary", "user", "assistant"]);
			expect(exported.messages[0].summary).toBe("The build failed on a type error.");
			expect(exported.messages.slice(1).map((message) => JSON.stringify(message.content))).toEqual(
				context.slice(-2).map((message) => JSON.stringify((message as { content?: unknown }).content)),
			);
			expect(exported.name).toBe("Pi export");
		},
		piTimeout,
	);

	it(
		"a pi file imported into Keel and exported again gives pi the same conversation",
		async (testContext) => {
			const store = createMemoryTranscriptStore();
			await importTranscript(store, piText, { sessionId: "round-trip" });
			const reading = await readWithPi(testContext, {
				"original.jsonl": piText,
				"exported.jsonl": await exportSession(store, "round-trip", "pi"),
			});
			if (!reading) return;
			const [original, exported] = reading.sessions;
			const withoutSystem = (messages: PiContextMessage[]) =>
				messages
					.filter((message) => message.role !== "system")
					.map((message) => [message.role, JSON.stringify(message.content ?? message.summary)]);
			// The compaction summary, the kept turn and the turn after it.
			expect(withoutSystem(original.messages)).toHaveLength(5);
			expect(withoutSystem(exported.messages)).toEqual(withoutSystem(original.messages));
			expect(exported.messages.some((message) => message.role === "system")).toBe(true);
			expect(exported.name).toBe("Build fix");
		},
		piTimeout,
	);
});

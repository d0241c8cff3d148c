// Property-based fuzzing of session records and of opening damaged transcripts. A real transcript
// (tool calls and results, a fork, a tombstone, a state record) is mutated line by line — lines
// dropped, repeated, swapped, values replaced inside their JSON, junk and bytes inserted, the file
// cut — and opened with load: "all" and load: "context". Opening must not throw, both ways must
// resume the same conversation with the same report, no message may be sent twice, every line that
// cannot be read must be reported, and an append must build on what was resumed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bodyMutation, hostileText, mutateBody } from "../../ai/test/fuzz/body-mutations.js";
import { parseSessionRecords, Session, SessionRecordError } from "../src/session/index.js";
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";
import { assistantMessage, toolResult, userMessage } from "./session-helpers.js";

// Runs are bounded by count, not time; the limit only catches a hang, generously on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const SEED = 20_261_127;
let directory: string;
/** The seed transcript, one record per line. */
let transcript: string;

beforeAll(async () => {
	directory = mkdtempSync(join(tmpdir(), "keel-session-fuzz-"));
	const store = createJsonlTranscriptStore({ directory });
	const session = await Session.create(store, { sessionId: "seed", title: "fuzz", state: { currentTask: "t" } });
	await session.append(userMessage("first question"));
	const asked = await session.append(assistantMessage("let me look", [{ id: "call_1", name: "read" }]));
	await session.append(toolResult("call_1", "file contents"));
	await session.append(assistantMessage("the answer"));
	const second = await session.append(userMessage("second question"));
	await session.append(assistantMessage("second answer"));
	await session.fork(asked.id);
	await session.append(userMessage("another way"));
	await session.tombstone(second.id, "hidden");
	await session.append(assistantMessage("final"));
	await session.close();
	transcript = readFileSync(join(directory, "seed.jsonl"), "utf8");
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("session records under fuzzed lines", () => {
	it("parseSessionRecords throws nothing but a SessionRecordError", () => {
		const lines = fc.oneof(
			hostileText,
			fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
			fc
				.constantFrom(...transcript.split("\n").filter(Boolean))
				.chain((line) =>
					fc.array(bodyMutation, { minLength: 1, maxLength: 3 }).map((mutations) => mutateBody(line, mutations)),
				),
		);
		fc.assert(
			fc.property(lines, (line) => {
				try {
					parseSessionRecords(line, 1);
				} catch (error) {
					expect(error).toBeInstanceOf(SessionRecordError);
				}
			}),
			{ seed: SEED, numRuns: 500 },
		);
	});
});

function unreadableLines(text: string): number {
	let count = 0;
	for (const line of text.split("\n").slice(0, text.endsWith("\n") ? -1 : undefined)) {
		if (line === "") continue;
		try {
			parseSessionRecords(line);
		} catch {
			count++;
		}
	}
	return count;
}

describe("opening a fuzzed transcript", () => {
	it("never throws, resumes the same conversation both ways, sends no message twice and reports every unreadable line", async () => {
		let run = 0;
		let tornRuns = 0;
		await fc.assert(
			fc.asyncProperty(fc.array(bodyMutation, { minLength: 1, maxLength: 4 }), async (mutations) => {
				// Records separated by blank lines, which readers skip, so the event-level mutations act on records.
				const text = mutateBody(transcript.replaceAll("\n", "\n\n"), mutations);
				const sessionId = `run-${run++}`;
				writeFileSync(join(directory, `${sessionId}.jsonl`), text);
				const store = createJsonlTranscriptStore({ directory });
				const all = await Session.open(store, sessionId, { load: "all" });
				const allContext = all.modelContextRecords().map((record) => record.id);
				const allDamage = all.damage;
				await all.close();
				const context = await Session.open(store, sessionId, { load: "context" });
				try {
					expect(context.modelContextRecords().map((record) => record.id)).toEqual(allContext);
					expect(context.damage.repairs).toEqual(allDamage.repairs);
					expect(new Set(allContext).size).toBe(allContext.length);
					const torn = text.endsWith("\n") || text === "" ? 0 : 1;
					tornRuns += torn;
					expect(allDamage.skippedLines.length).toBe(
						unreadableLines(text.endsWith("\n") ? text : text.slice(0, text.lastIndexOf("\n") + 1)) + torn,
					);
					// The append follows what was resumed (after interrupted results for calls left open).
					const appended = await context.append(userMessage("after the damage"));
					const after = context.modelContextRecords().map((record) => record.id);
					expect(after.slice(0, allContext.length)).toEqual(allContext);
					expect(after.at(-1)).toBe(appended.id);
				} finally {
					await context.close();
				}
				const reopened = await Session.open(store, sessionId);
				try {
					expect(reopened.modelContextRecords().at(-1)?.id).toBe(
						(await readLastMessageId(join(directory, `${sessionId}.jsonl`))) ?? undefined,
					);
				} finally {
					await reopened.close();
				}
			}),
			{ seed: SEED, numRuns: 60 },
		);
		// The runs include files cut in their last line (set aside on open, and reported).
		expect(tornRuns).toBeGreaterThan(0);
	});
});

async function readLastMessageId(path: string): Promise<string | undefined> {
	const lines = readFileSync(path, "utf8").trimEnd().split("\n");
	return (JSON.parse(lines[lines.length - 1]) as { id?: string }).id;
}

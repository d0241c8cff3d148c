// The window of load: "context" (context-window.ts): its default covers every catalogued model but
// the ones LARGER_WINDOW_MODELS names, a turn longer than the window is kept whole, and the JSONL
// store keeps in full only the records of the window while it scans, so the context is parsed once
// and the history before it is never held.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getModels, getProviders } from "@keel/ai";
import { afterAll, describe, expect, it } from "vitest";
import {
	DEFAULT_CONTEXT_TOKENS,
	LARGER_WINDOW_MODELS,
	Session,
	type SessionMessageRecord,
	serializeSessionRecord,
} from "../src/session/index.js";
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";
import { assistantMessage, userMessage } from "./session-helpers.js";

const directory = mkdtempSync(join(tmpdir(), "keel-context-window-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function tokensOf(records: readonly SessionMessageRecord[]): number {
	return records.reduce((total, record) => total + Math.ceil(Buffer.byteLength(serializeSessionRecord(record)) / 4), 0);
}

describe("the window of load: context", () => {
	it("is by default the largest context window of every catalogued model but those LARGER_WINDOW_MODELS names", () => {
		const windows = getProviders().flatMap((provider) =>
			getModels(provider).map((model) => ({ model: `${provider}/${model.id}`, contextWindow: model.contextWindow })),
		);
		expect(windows.length).toBeGreaterThan(100);
		const larger = windows.filter((entry) => entry.contextWindow > DEFAULT_CONTEXT_TOKENS).map((entry) => entry.model);
		expect(larger.sort(), "models whose window is larger than DEFAULT_CONTEXT_TOKENS").toEqual(
			[...LARGER_WINDOW_MODELS].sort(),
		);
		const others = windows.filter((entry) => !LARGER_WINDOW_MODELS.includes(entry.model));
		expect(Math.max(...others.map((entry) => entry.contextWindow))).toBe(DEFAULT_CONTEXT_TOKENS);
	});

	it("keeps a turn longer than the window whole, from its user message", async () => {
		const store = createJsonlTranscriptStore({ directory: join(directory, "long-turn") });
		const session = await Session.create(store);
		await session.append(userMessage("an earlier question"));
		await session.append(assistantMessage("an earlier answer"));
		const prompt = await session.append(userMessage("a long task"));
		for (let step = 0; step < 6; step++) await session.append(assistantMessage(`step ${step} ${"y".repeat(400)}`));
		const turn = session.branch().slice(2);
		await session.close();

		const opened = await Session.open(store, session.id, { load: "context", contextTokens: tokensOf(turn) - 1 });
		expect(opened.modelContextRecords().map((record) => record.id)).toEqual(turn.map((record) => record.id));
		expect(opened.contextCut).toEqual({
			firstMessageId: prompt.id,
			omittedMessages: 2,
			contextTokens: tokensOf(turn) - 1,
		});
		await opened.close();
	});

	it("starts the context after a tombstoned first message of the window, without loading what precedes it", async () => {
		const store = createJsonlTranscriptStore({ directory: join(directory, "tombstoned-start") });
		const session = await Session.create(store);
		for (let index = 0; index < 6; index++) {
			await session.append(userMessage(`question ${index}`));
			await session.append(assistantMessage(`answer ${index}`));
		}
		const all = session.branch();
		await session.close();

		const window = all.slice(-4);
		const opened = await Session.open(store, session.id, { load: "context", contextTokens: tokensOf(window) });
		expect(opened.contextCut?.firstMessageId).toBe(window[0].id);
		await opened.tombstone(window[0].id);
		expect(opened.modelContextRecords().map((record) => record.id)).toEqual(window.slice(1).map((record) => record.id));
		await opened.close();
	});

	it("parses each record of a JSONL window once: none is read again, and the history before it is outlined", async () => {
		const store = createJsonlTranscriptStore({ directory: join(directory, "parsed-once") });
		const readAgain: string[] = [];
		const readAt = store.readAt;
		store.readAt = async (sessionId, offsets) => {
			const records = await readAt(sessionId, offsets);
			for (const record of records) readAgain.push((record as { id: string }).id);
			return records;
		};
		const session = await Session.create(store);
		for (let index = 0; index < 200; index++) {
			await session.append(userMessage(`question ${index} ${"q".repeat(200)}`));
			await session.append(assistantMessage(`answer ${index} ${"a".repeat(600)}`));
		}
		const all = session.branch();
		await session.close();

		const window = all.slice(-20);
		const opened = await Session.open(store, session.id, { load: "context", contextTokens: tokensOf(window) });
		expect(opened.modelContextRecords().map((record) => record.id)).toEqual(window.map((record) => record.id));
		expect(readAgain).toEqual([]);
		// Before the window: an outline, its text still on disk.
		expect(opened.getRecord(all[0].id)?.message).toEqual({ role: "user", timestamp: all[0].message.timestamp });
		expect(() => opened.branch()).toThrow("await session.loadBranch(");
		await opened.close();
	});
});

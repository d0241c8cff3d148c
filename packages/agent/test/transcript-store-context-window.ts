// Part of the TranscriptStore contract (run against every store by transcript-store-conformance.ts):
// Session.open(..., { load: "context", contextTokens }) on a never-compacted session longer than the
// window keeps exactly its newest window, cut at a user message, whatever the store.
import type { ToolResultMessage } from "@keel/ai";
import { type FauxProviderRegistration, fauxAssistantMessage, registerFauxProvider } from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	compact,
	Session,
	type SessionMessageRecord,
	serializeSessionRecord,
	type TranscriptStore,
} from "../src/session/index.js";
import { assistantMessage, header, userRecord } from "./session-fixtures.js";
import type { StoreUnderTest } from "./transcript-store-conformance.js";

const TURNS = 12;

/** One turn: a prompt, a tool call, its result and the answer (ids u<n>, a<n>, r<n>, f<n>). */
function turn(sessionId: string, index: number, parentId: string | null): SessionMessageRecord[] {
	const text = `turn ${index} ${"x".repeat(300 + index * 7)}`;
	const base = { v: 1, type: "message" as const, sessionId, timestamp: 2_000 + index };
	return [
		userRecord(sessionId, `u${index}`, parentId, text),
		{
			...base,
			id: `a${index}`,
			parentId: `u${index}`,
			message: assistantMessage([{ type: "toolCall", id: `c${index}`, name: "read", arguments: { path: text } }]),
		},
		{
			...base,
			id: `r${index}`,
			parentId: `a${index}`,
			message: {
				role: "toolResult",
				toolCallId: `c${index}`,
				toolName: "read",
				content: [{ type: "text", text: `${text} ${"é".repeat(40)}` }],
				isError: false,
				timestamp: 2_000 + index,
			},
		},
		{ ...base, id: `f${index}`, parentId: `r${index}`, message: assistantMessage([{ type: "text", text }]) },
	];
}

function turns(sessionId: string): SessionMessageRecord[] {
	const records: SessionMessageRecord[] = [];
	for (let index = 0; index < TURNS; index++) records.push(...turn(sessionId, index, records.at(-1)?.id ?? null));
	return records;
}

/** The estimate load: "context" uses: 4 bytes of the stored record a token. */
function tokensOf(record: SessionMessageRecord): number {
	return Math.ceil(Buffer.byteLength(serializeSessionRecord(record)) / 4);
}

function sum(records: readonly SessionMessageRecord[]): number {
	return records.reduce((total, record) => total + tokensOf(record), 0);
}

async function writeSession(store: TranscriptStore, sessionId: string): Promise<SessionMessageRecord[]> {
	const records = turns(sessionId);
	const writer = await store.openWriter(sessionId, { create: header(sessionId) });
	await writer.append(records);
	await writer.close();
	return records;
}

export function describeContextWindowConformance(subjectOf: () => StoreUnderTest): void {
	describe('load: "context" of a never-compacted session longer than contextTokens', () => {
		let store: TranscriptStore;
		let records: SessionMessageRecord[];
		/** The last three turns and the end of the one before: the window starts inside that turn. */
		let contextTokens: number;
		const windowStart = (TURNS - 3) * 4;
		beforeEach(async () => {
			store = subjectOf().store;
			records = await writeSession(store, "s1");
			contextTokens = sum(records.slice(windowStart - 2));
		});

		it("opens to exactly the newest window, cut at a user message with every tool call beside its result", async () => {
			const session = await Session.open(store, "s1", { load: "context", contextTokens });
			const context = session.modelContextRecords();
			expect(context.map((record) => record.id)).toEqual(records.slice(windowStart).map((record) => record.id));
			expect(sum(context)).toBeLessThanOrEqual(contextTokens);
			expect(session.contextCut).toEqual({
				firstMessageId: `u${TURNS - 3}`,
				omittedMessages: windowStart,
				contextTokens,
			});
			const calls = context.flatMap((record) =>
				record.message.role === "assistant"
					? record.message.content.flatMap((block) => (block.type === "toolCall" ? [block.id] : []))
					: [],
			);
			const results = context.flatMap((record) =>
				record.message.role === "toolResult" ? [(record.message as ToolResultMessage).toolCallId] : [],
			);
			expect(results).toEqual(calls);
			expect(session.problems).toEqual([]);
			await session.close();
		});

		it("still gives the whole branch with load: all and after loadBranch", async () => {
			const all = await Session.open(store, "s1", { load: "all" });
			expect(all.contextCut).toBeUndefined();
			expect(all.modelContextRecords()).toHaveLength(records.length);
			await all.close();
			const session = await Session.open(store, "s1", { load: "context", contextTokens });
			await session.loadBranch();
			expect(session.branch().map((record) => record.id)).toEqual(records.map((record) => record.id));
			expect(session.messages()[0]).toEqual(records[0].message);
			// The model context stays cut: loading the branch shows the history, it does not resend it.
			expect(session.modelContextRecords()[0].id).toBe(`u${TURNS - 3}`);
			await session.close();
		});

		it("chains appends after the leaf, and a reopened session sees them after the window", async () => {
			const session = await Session.open(store, "s1", { load: "context", contextTokens });
			const appended = await session.append({ role: "user", content: "next question", timestamp: 9_000 });
			expect(appended.parentId).toBe(`f${TURNS - 1}`);
			expect(session.modelContextRecords().at(-1)?.id).toBe(appended.id);
			expect(session.modelContextRecords()[0].id).toBe(`u${TURNS - 3}`);
			await session.close();
			const all = await Session.open(store, "s1");
			expect(all.branch().map((record) => record.id)).toEqual([...records.map((record) => record.id), appended.id]);
			await all.close();
		});

		describe("compacted after the cut", () => {
			let summariser: FauxProviderRegistration<"faux-context-window-summariser">;
			beforeEach(() => {
				summariser = registerFauxProvider({ api: "faux-context-window-summariser" });
			});
			afterEach(() => summariser.unregister());

			it("summarises what the model saw, and the compaction holds across a reopen", async () => {
				summariser.setResponses([fauxAssistantMessage("the last turns, summarised")]);
				const session = await Session.open(store, "s1", { load: "context", contextTokens });
				const result = await compact(session, { model: summariser.getModel(), keepRecentMessages: 4 });
				// The window but its last turn: nothing the cut left out.
				expect(result?.summarisedMessageCount).toBe(records.length - windowStart - 4);
				const sent = summariser.state.requests[0].context.messages.map((message) => JSON.stringify(message)).join("");
				expect(sent).toContain(`turn ${TURNS - 3} `);
				expect(sent).not.toContain(`turn ${TURNS - 4} `);
				const expected = ["summary", "user", "assistant", "toolResult", "assistant"];
				expect(session.modelContext().map((message) => message.role)).toEqual(expected);
				await session.close();
				const reopened = await Session.open(store, "s1", { load: "context", contextTokens });
				expect(reopened.contextCut).toBeUndefined();
				expect(reopened.modelContext().map((message) => message.role)).toEqual(expected);
				await reopened.close();
			});
		});

		it("leaves a session no longer than the window uncut", async () => {
			const session = await Session.open(store, "s1", { load: "context", contextTokens: sum(records) });
			expect(session.contextCut).toBeUndefined();
			expect(session.modelContextRecords().map((record) => record.id)).toEqual(records.map((record) => record.id));
			await session.close();
			const byDefault = await Session.open(store, "s1", { load: "context" });
			expect(byDefault.contextCut).toBeUndefined();
			expect(byDefault.modelContextRecords()).toHaveLength(records.length);
			await byDefault.close();
		});

		it("refuses a contextTokens that is not a whole number above 0, and opens afterwards", async () => {
			for (const bad of [0, -1, Number.NaN, 1.5, Number.POSITIVE_INFINITY, "100"]) {
				await expect(Session.open(store, "s1", { load: "context", contextTokens: bad as number })).rejects.toThrow(
					`contextTokens must be a whole number of tokens above 0, got ${typeof bad === "string" ? '"100"' : String(bad)}`,
				);
			}
			await expect(Session.open(store, "s1", { load: "all", contextTokens: 100 })).rejects.toThrow(
				'contextTokens applies to load: "context" only',
			);
			// Nothing was locked or lost by the refusals.
			const session = await Session.open(store, "s1", { load: "context", contextTokens });
			expect(session.modelContextRecords()).toHaveLength(records.length - windowStart);
			await session.close();
		});

		it("reports a damaged line inside the window, and one outside it wherever the open reads it", async ({ skip }) => {
			const subject = subjectOf();
			if (!subject.damageRecord) skip();
			// Line 1 is the header: record i is line i + 2.
			const insideIndex = records.length - 5;
			const inside = insideIndex + 2;
			const outside = 4 + 2;
			await subject.damageRecord?.("s1", inside, '{"v":1,"type":"message","sessionId":"s1","id":"broken"');
			await subject.damageRecord?.("s1", outside, '{"v":1,"type":"message","sessionId":"s1","id":"broken too"');
			const all = await Session.open(store, "s1", { load: "all" });
			expect(all.problems.map((problem) => problem.line)).toEqual([outside, inside]);
			await all.close();
			const session = await Session.open(store, "s1", { load: "context", contextTokens });
			const lines = session.problems.map((problem) => problem.line);
			expect(lines).toContain(inside);
			// A store that keeps outlines (SQLite, PostgreSQL) reads an outline, not the damaged line,
			// outside the window; the JSONL store parses every line.
			if (!("scanOutlines" in store)) expect(lines).toEqual([outside, inside]);
			// The message of the damaged line is skipped and the chain mended around it.
			const context = session.modelContextRecords().map((record) => record.id);
			expect(context).not.toContain(records[insideIndex].id);
			expect(context.at(-1)).toBe(`f${TURNS - 1}`);
			await session.close();
		});
	});
}

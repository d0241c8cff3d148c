// The "approval" session record: parsed and validated like the other records, and read back into the
// paused run with its decisions, from the in-memory store as from the JSONL one.
import { describe, expect, it } from "vitest";
import type { PausedToolRun } from "../src/index.js";
import {
	createMemoryTranscriptStore,
	findPausedToolRun,
	loadPausedToolRun,
	parseSessionRecord,
	recordPausedToolRun,
	recordToolApprovalDecision,
	recordToolApprovalsCompleted,
	Session,
	type SessionApprovalRecord,
	SessionRecordError,
	serializeSessionRecord,
} from "../src/session/index.js";
import { assistantMessage, header } from "./session-fixtures.js";

const pausedRun: PausedToolRun = {
	version: 1,
	pauseId: "pause-1",
	assistantMessage: assistantMessage([
		{ type: "toolCall", id: "c1", name: "read", arguments: { value: "a" } },
		{ type: "toolCall", id: "c2", name: "write", arguments: { value: "b" } },
	]),
	calls: [
		{
			status: "done",
			toolCallId: "c1",
			toolName: "read",
			result: { content: [{ type: "text", text: "read:a" }], details: {} },
			isError: false,
		},
		{ status: "pending", toolCallId: "c2", toolName: "write", args: { value: "b" } },
	],
};

function requested(run: PausedToolRun = pausedRun): SessionApprovalRecord {
	return {
		v: 1,
		type: "approval",
		sessionId: "s1",
		timestamp: 1,
		action: "requested",
		pauseId: run.pauseId,
		pausedRun: run,
	};
}

function parseError(value: unknown): SessionRecordError {
	try {
		parseSessionRecord(JSON.stringify(value), 7);
	} catch (error) {
		expect(error).toBeInstanceOf(SessionRecordError);
		return error as SessionRecordError;
	}
	throw new Error("expected a SessionRecordError");
}

describe("the approval record", () => {
	it("round-trips through one line of JSON", () => {
		const decision: SessionApprovalRecord = {
			v: 1,
			type: "approval",
			sessionId: "s1",
			timestamp: 2,
			action: "denied",
			pauseId: "pause-1",
			toolCallId: "c2",
			reason: "no",
		};
		for (const record of [requested(), decision]) {
			expect(parseSessionRecord(serializeSessionRecord(record))).toEqual(record);
		}
	});

	it("a damaged record is an error naming the line and the field", () => {
		const wrongAction = parseError({ ...requested(), action: "maybe" });
		expect(wrongAction.message).toBe(
			'line 7: action must be one of "requested", "granted", "denied", "completed", got "maybe"',
		);
		expect(parseError({ ...requested(), pausedRun: undefined }).message).toContain(
			"line 7: pausedRun must be an object",
		);
		const badCall = parseError({
			...requested(),
			pausedRun: { ...pausedRun, calls: [{ toolCallId: "c1", toolName: "read", status: "odd" }] },
		});
		expect(badCall.field).toBe("pausedRun.calls[0].status");
		const badMessage = parseError({
			...requested(),
			pausedRun: { ...pausedRun, assistantMessage: { role: "assistant", content: 3 } },
		});
		expect(badMessage.message).toContain("pausedRun.assistantMessage.content");
		const noCall = parseError({
			v: 1,
			type: "approval",
			sessionId: "s1",
			timestamp: 1,
			action: "granted",
			pauseId: "p",
		});
		expect(noCall.message).toContain("record.toolCallId must be a string");
	});
});

describe("approvals in a transcript store", () => {
	async function storeWithPausedRun() {
		const store = createMemoryTranscriptStore();
		const writer = await store.openWriter("s1", { create: header("s1") });
		await recordPausedToolRun(writer, pausedRun);
		return { store, writer };
	}

	it("reads back the paused run, then its decision, then nothing once completed", async () => {
		const { store, writer } = await storeWithPausedRun();
		expect(await loadPausedToolRun(store, "s1")).toEqual(pausedRun);
		await recordToolApprovalDecision(writer, pausedRun, { toolCallId: "c2", approved: false, reason: "no" });
		const decided = await loadPausedToolRun(store, "s1");
		expect(decided?.calls[1]).toMatchObject({ decision: { toolCallId: "c2", approved: false, reason: "no" } });
		await recordToolApprovalsCompleted(writer, pausedRun.pauseId);
		expect(await loadPausedToolRun(store, "s1")).toBeUndefined();
	});

	it("a paused run whose every call has a result in the transcript is done even without the completed record", async () => {
		const { store, writer } = await storeWithPausedRun();
		for (const toolCallId of ["c1", "c2"]) {
			await writer.append({
				v: 1,
				type: "message",
				sessionId: "s1",
				id: toolCallId,
				parentId: null,
				timestamp: 3,
				message: { role: "toolResult", toolCallId, toolName: "t", content: [], isError: false, timestamp: 3 },
			});
		}
		expect(await loadPausedToolRun(store, "s1")).toBeUndefined();
	});

	it("recording the same decision twice writes it once; an unknown id or a changed decision is refused", async () => {
		const { store, writer } = await storeWithPausedRun();
		const once = await recordToolApprovalDecision(writer, pausedRun, { toolCallId: "c2", approved: true });
		await recordToolApprovalDecision(writer, once, { toolCallId: "c2", approved: true });
		await expect(recordToolApprovalDecision(writer, once, { toolCallId: "c2", approved: false })).rejects.toThrow(
			'Tool call "c2" was already approved; a decision cannot be changed',
		);
		await expect(recordToolApprovalDecision(writer, once, { toolCallId: "nope", approved: true })).rejects.toThrow(
			'No tool call "nope" is waiting for approval; waiting: none',
		);
		const { records } = await store.read("s1");
		expect(
			records.filter((record) => record.type === "approval").map((record) => (record as SessionApprovalRecord).action),
		).toEqual(["requested", "granted"]);
	});

	it("decisions of an older pause do not touch a newer one", () => {
		const newer = { ...pausedRun, pauseId: "pause-2" };
		const found = findPausedToolRun([
			requested(),
			requested(newer),
			{
				v: 1,
				type: "approval",
				sessionId: "s1",
				timestamp: 3,
				action: "granted",
				pauseId: "pause-1",
				toolCallId: "c2",
			},
		]);
		expect(found?.pauseId).toBe("pause-2");
		expect(found?.calls[1]).not.toHaveProperty("decision");
	});
});

describe("a Session's approval writer", () => {
	it("writes a decision through the session (read back by a later open) and refuses records that are not approvals", async () => {
		const store = createMemoryTranscriptStore();
		const session = await Session.create(store, { sessionId: "s2" });
		const paused = pausedRun;
		await session.append(paused.assistantMessage);
		await recordPausedToolRun(session.approvalRecordWriter, paused);
		await recordToolApprovalDecision(session.approvalRecordWriter, paused, { toolCallId: "c2", approved: true });
		expect(session.pausedToolRun()?.calls[1]).toMatchObject({ decision: { toolCallId: "c2", approved: true } });

		await expect(session.appendApprovalRecords({ ...header("s2"), type: "session" })).rejects.toThrow(
			'appendApprovalRecords() takes "approval" records; got a record of type "session"',
		);
		await expect(
			session.appendApprovalRecords({
				v: 1,
				type: "approval",
				sessionId: "other",
				timestamp: 1,
				action: "completed",
				pauseId: "p",
			}),
		).rejects.toThrow('An approval record of session "other" cannot be appended to session s2');
		await session.close();

		const reopened = await Session.open(store, "s2");
		expect(reopened.pausedToolRun()?.calls[1]).toMatchObject({ status: "pending", decision: { approved: true } });
		await reopened.close();
	});
});

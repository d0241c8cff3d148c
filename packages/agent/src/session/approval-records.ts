// Tool approvals in a session transcript: the paused run is written as an "approval" record when the
// run pauses, each decision before the approved tool runs, and "completed" once the batch's results
// are in the transcript. Reading the records back gives the paused run with its decisions folded in,
// so a new process resumes exactly where the old one stopped. These functions work on a transcript
// store and its writer directly, so any owner of the writer (a Session, an application) can use them.
import type { ToolResultMessage } from "@keel/ai";
import type { PausedToolRun, ToolApprovalDecision } from "../approval/approval-types.js";
import { applyToolApprovalDecisions } from "../approval/paused-run.js";
import type { AgentEvent } from "../types.js";
import {
	SESSION_FORMAT_VERSION,
	type SessionApprovalRecord,
	type SessionRecord,
	type TranscriptStore,
	type TranscriptWriter,
	type UnknownSessionRecord,
} from "./session-types.js";

/** What the approval functions need of a writer: a session id and sequential appends. */
export type ApprovalRecordWriter = Pick<TranscriptWriter, "sessionId" | "append">;

function approvalRecord(
	sessionId: string,
	action: SessionApprovalRecord["action"],
	pauseId: string,
): SessionApprovalRecord {
	return { type: "approval", v: SESSION_FORMAT_VERSION, sessionId, timestamp: Date.now(), action, pauseId };
}

/** Writes a paused run (a "requested" record): the state a later process resumes from. */
export async function recordPausedToolRun(writer: ApprovalRecordWriter, pausedRun: PausedToolRun): Promise<void> {
	const record = approvalRecord(writer.sessionId, "requested", pausedRun.pauseId);
	record.pausedRun = pausedRun;
	await writer.append(record);
}

/**
 * Records a decision for a waiting call and returns the paused run with it folded in. The same
 * decision given again writes nothing (idempotent); an unknown call id, or one that contradicts an
 * earlier decision, throws a clear error and writes nothing.
 */
export async function recordToolApprovalDecision(
	writer: ApprovalRecordWriter,
	pausedRun: PausedToolRun,
	decision: ToolApprovalDecision,
): Promise<PausedToolRun> {
	const decided = applyToolApprovalDecisions(pausedRun, [decision]);
	const before = pausedRun.calls.find((call) => call.toolCallId === decision.toolCallId);
	if (before?.status === "pending" && before.decision) return decided;
	const record = approvalRecord(writer.sessionId, decision.approved ? "granted" : "denied", pausedRun.pauseId);
	record.toolCallId = decision.toolCallId;
	if (!decision.approved && decision.reason !== undefined) record.reason = decision.reason;
	await writer.append(record);
	return decided;
}

/** Marks a paused run as done: its batch's results are in the transcript. */
export async function recordToolApprovalsCompleted(writer: ApprovalRecordWriter, pauseId: string): Promise<void> {
	await writer.append(approvalRecord(writer.sessionId, "completed", pauseId));
}

/**
 * The paused run a transcript ends with, decisions folded in, or undefined when none waits. A run
 * counts as done once a "completed" record follows it, or once every call of its batch has a
 * toolResult message after it (the process stopped between writing the results and the record).
 */
export function findPausedToolRun(
	records: readonly (SessionRecord | UnknownSessionRecord)[],
): PausedToolRun | undefined {
	let paused: PausedToolRun | undefined;
	let answered = new Set<string>();
	for (const record of records) {
		if (record.type === "message") {
			const message = (record as { message?: { role?: unknown } }).message as ToolResultMessage | undefined;
			if (paused && message?.role === "toolResult") answered.add(message.toolCallId);
			continue;
		}
		if (record.type !== "approval") continue;
		const approval = record as SessionApprovalRecord;
		if (approval.action === "requested" && approval.pausedRun) {
			paused = approval.pausedRun;
			answered = new Set();
		} else if (!paused || approval.pauseId !== paused.pauseId) {
		} else if (approval.action === "completed") {
			paused = undefined;
		} else if (approval.toolCallId !== undefined) {
			const decision: ToolApprovalDecision =
				approval.action === "granted"
					? { toolCallId: approval.toolCallId, approved: true }
					: { toolCallId: approval.toolCallId, approved: false, reason: approval.reason };
			try {
				paused = applyToolApprovalDecisions(paused, [decision]);
			} catch {
				// A decision for a call that is not waiting, or that contradicts the first: the first stands.
			}
		}
	}
	if (paused?.calls.every((call) => call.status === "recorded" || answered.has(call.toolCallId))) return undefined;
	return paused;
}

/** Reads a session and returns the paused run it ends with (see `findPausedToolRun`). */
export async function loadPausedToolRun(store: TranscriptStore, sessionId: string): Promise<PausedToolRun | undefined> {
	const { records } = await store.read(sessionId);
	return findPausedToolRun(records);
}

/**
 * An event listener (for `Agent.subscribe`, or a loop's sink) that keeps a session's approval
 * records: the paused run at a paused agent_end, each decision as the resumed run reports it (before
 * the approved tool runs), and "completed" when the batch's results went out. Pass the paused run a
 * restarted process resumed from as `pausedRun`. A returned promise makes the run wait for the write.
 */
export function createToolApprovalRecorder(
	writer: ApprovalRecordWriter,
	options: { pausedRun?: PausedToolRun } = {},
): (event: AgentEvent) => Promise<void> | undefined {
	let current = options.pausedRun;
	return (event) => {
		switch (event.type) {
			case "agent_end":
				if (!event.pausedRun) return undefined;
				current = event.pausedRun;
				return recordPausedToolRun(writer, event.pausedRun);
			case "tool_approval_response": {
				if (!current) return undefined;
				const decision: ToolApprovalDecision = event.approved
					? { toolCallId: event.toolCallId, approved: true }
					: { toolCallId: event.toolCallId, approved: false, reason: event.reason };
				const paused = current;
				return recordToolApprovalDecision(writer, paused, decision).then((decided) => {
					if (current === paused) current = decided;
				});
			}
			case "turn_end": {
				if (!current) return undefined;
				const answered = new Set(event.toolResults.map((result) => result.toolCallId));
				const open = current.calls.filter((call) => call.status !== "recorded" && !answered.has(call.toolCallId));
				if (open.length > 0) return undefined;
				const pauseId = current.pauseId;
				current = undefined;
				return recordToolApprovalsCompleted(writer, pauseId);
			}
			default:
				return undefined;
		}
	};
}

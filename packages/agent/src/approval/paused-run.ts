// The paused run as data: which calls wait, folding decisions in, checking a stored state and a
// transcript before resuming. No runtime imports, so storage code (the session entry) can use it
// without the loop.
import type { AssistantMessage } from "@keel/ai";
import type { AgentMessage } from "../types.js";
import {
	PAUSED_TOOL_RUN_VERSION,
	type PausedToolCall,
	type PausedToolRun,
	type ToolApprovalDecision,
	type ToolApprovalRequest,
} from "./approval-types.js";

/** The calls of a paused run that wait for a decision not yet given. */
export function pendingToolApprovals(paused: PausedToolRun): ToolApprovalRequest[] {
	const requests: ToolApprovalRequest[] = [];
	for (const call of paused.calls) {
		if (call.status === "pending" && !call.decision) {
			requests.push({ toolCallId: call.toolCallId, toolName: call.toolName, args: call.args });
		}
	}
	return requests;
}

/**
 * The paused run with these decisions folded in. Deciding a call again the same way changes
 * nothing; a call that is not waiting (an unknown id) or a decision that contradicts an earlier one
 * throws an error naming the calls that do wait.
 */
export function applyToolApprovalDecisions(paused: PausedToolRun, decisions: ToolApprovalDecision[]): PausedToolRun {
	const calls = paused.calls.map((call) => ({ ...call }));
	for (const decision of decisions) {
		if (!decision || typeof decision.toolCallId !== "string" || typeof decision.approved !== "boolean") {
			throw new TypeError(
				`A tool approval decision is { toolCallId: string, approved: boolean, reason?: string }; got ${describe(decision)}`,
			);
		}
		const call = calls.find((candidate) => candidate.toolCallId === decision.toolCallId);
		if (call?.status !== "pending") {
			const waiting = pendingToolApprovals(paused).map((request) => `"${request.toolCallId}"`);
			throw new Error(
				`No tool call "${decision.toolCallId}" is waiting for approval; waiting: ${waiting.join(", ") || "none"}`,
			);
		}
		if (call.decision) {
			if (call.decision.approved !== decision.approved) {
				const earlier = call.decision.approved ? "approved" : "denied";
				throw new Error(`Tool call "${decision.toolCallId}" was already ${earlier}; a decision cannot be changed`);
			}
			continue;
		}
		call.decision =
			decision.approved || decision.reason === undefined
				? { toolCallId: decision.toolCallId, approved: decision.approved }
				: { toolCallId: decision.toolCallId, approved: false, reason: decision.reason };
	}
	return { ...paused, calls };
}

/**
 * Checks that a context can resume this paused run: its transcript must end with the paused
 * assistant message (plus, in a sequential batch, the results already recorded). Throws a clear error.
 */
export function assertCanResume(messages: AgentMessage[], paused: unknown): asserts paused is PausedToolRun {
	assertPausedToolRun(paused);
	const ids = new Set(paused.calls.map((call) => call.toolCallId));
	let index = messages.length - 1;
	while (index >= 0 && (messages[index] as { role?: unknown }).role === "toolResult") index--;
	const last = messages[index] as AssistantMessage | undefined;
	const lastIds = last?.role === "assistant" ? last.content.filter((block) => block.type === "toolCall") : [];
	if (lastIds.length !== ids.size || lastIds.some((block) => block.type === "toolCall" && !ids.has(block.id))) {
		throw new Error(
			"Cannot resume the paused run: the transcript does not end with its assistant message (tool calls " +
				`${[...ids].join(", ")}); restore the messages the run paused with before resuming it`,
		);
	}
}

/** Validates a stored paused run (for example read back from a session); throws naming the field. */
export function assertPausedToolRun(value: unknown): asserts value is PausedToolRun {
	const fail = (field: string, expected: string): never => {
		throw new TypeError(`Invalid paused run: ${field} must be ${expected}`);
	};
	if (!value || typeof value !== "object") fail("the state", "an object");
	const paused = value as Record<string, unknown>;
	if (paused.version !== PAUSED_TOOL_RUN_VERSION) fail("version", String(PAUSED_TOOL_RUN_VERSION));
	if (typeof paused.pauseId !== "string") fail("pauseId", "a string");
	const assistant = paused.assistantMessage as { role?: unknown; content?: unknown } | undefined;
	if (assistant?.role !== "assistant" || !Array.isArray(assistant.content)) {
		fail("assistantMessage", "an assistant message");
	}
	if (!Array.isArray(paused.calls)) fail("calls", "an array");
	const statuses = ["done", "recorded", "pending", "not-started"];
	(paused.calls as unknown[]).forEach((call, index) => {
		const entry = call as Record<string, unknown> | null;
		if (!entry || typeof entry.toolCallId !== "string" || typeof entry.toolName !== "string") {
			fail(`calls[${index}]`, "an object with toolCallId and toolName strings");
		}
		if (!statuses.includes(entry?.status as string)) fail(`calls[${index}].status`, `one of ${statuses.join(", ")}`);
		if (entry?.status === "done") {
			const result = entry.result as { content?: unknown } | undefined;
			if (!Array.isArray(result?.content)) fail(`calls[${index}].result.content`, "an array");
			if (typeof entry.isError !== "boolean") fail(`calls[${index}].isError`, "a boolean");
		}
	});
}

/** A paused run for the calls of one batch, in call order. */
export function createPausedToolRun(assistantMessage: AssistantMessage, calls: PausedToolCall[]): PausedToolRun {
	return { version: PAUSED_TOOL_RUN_VERSION, pauseId: crypto.randomUUID(), assistantMessage, calls };
}

function describe(value: unknown): string {
	try {
		return JSON.stringify(value)?.slice(0, 200) ?? String(value);
	} catch {
		return String(value);
	}
}

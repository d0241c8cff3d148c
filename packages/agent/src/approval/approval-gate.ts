// The approval gate of one tool call, between preparation (validation, beforeToolCall) and
// execution: decides whether the call waits for approval, and, when a paused batch resumes, what
// each of its calls becomes. The loop (agent-loop.ts) emits the events and orders the calls.
import type { AssistantMessage } from "@keel/ai";
import { formatThrownValue } from "@keel/ai";
import {
	errorOutcome,
	findTool,
	type PreparedToolCall,
	type ToolCallRun,
	type ToolOutcome,
} from "../tool-execution.js";
import type { AgentEvent, AgentEventSink, AgentToolCall } from "../types.js";
import { isPromiseLike } from "../user-code.js";
import type { PausedToolCall } from "./approval-types.js";

/** The result of a call aborted while it waited for approval (the wording of the other not-run results). */
export const ABORTED_WHILE_WAITING_TEXT = "Tool call was not run: the run was aborted while it waited for approval";
/** The result of a denied call without a reason. */
export const DENIED_TOOL_TEXT = "Tool call was denied by the user";

/** A call that waits for a decision, with the validated arguments it will run with. */
export interface WaitingToolCall {
	kind: "waiting";
	args: unknown;
}

/** A call of a resumed batch whose outcome the paused run produced (its tool_execution_end went out then). */
export interface HeldToolOutcome {
	kind: "held";
	outcome: ToolOutcome;
}

/** A call of a resumed sequential batch whose result is already in the transcript. */
export interface RecordedToolCall {
	kind: "recorded";
}

/** The error outcome a denied call gets: the model reads the reason as the tool's result. */
export function deniedOutcome(reason: string | undefined): ToolOutcome {
	return errorOutcome(reason ? `Tool call was denied: ${reason}` : DENIED_TOOL_TEXT);
}

/**
 * Whether a prepared call must wait: the loop's `approvalPolicy` decides when it returns a boolean,
 * otherwise the tool's `requiresApproval`. Synchronous when neither is a function returning a promise.
 * A check that throws refuses the call (an error outcome): a failing gate never lets a call through.
 */
export function gateToolCall(
	run: ToolCallRun,
	assistantMessage: AssistantMessage,
	toolCall: AgentToolCall,
	prepared: PreparedToolCall,
): PreparedToolCall | WaitingToolCall | ToolOutcome | Promise<PreparedToolCall | WaitingToolCall | ToolOutcome> {
	const policy = run.config.approvalPolicy;
	const flag = prepared.tool.requiresApproval;
	if (!policy && !flag) return prepared;
	const context = { assistantMessage, toolCall, context: run.context };
	const toEntry = (needed: boolean): PreparedToolCall | WaitingToolCall =>
		needed ? { kind: "waiting", args: prepared.args } : prepared;
	const fromTool = (): boolean | Promise<boolean> => {
		if (typeof flag === "function") return flag(prepared.args as never, context);
		return flag === true;
	};
	const failed = (source: string, error: unknown) =>
		errorOutcome(`${source} of tool "${toolCall.name}" failed, so the call was not run: ${formatThrownValue(error)}`);
	try {
		if (policy) {
			const decided = policy({ ...context, tool: prepared.tool, args: prepared.args }, run.signal);
			if (isPromiseLike(decided)) {
				return Promise.resolve(decided).then(
					async (value) => {
						if (typeof value === "boolean") return toEntry(value);
						try {
							return toEntry((await fromTool()) === true);
						} catch (error) {
							return failed("requiresApproval", error);
						}
					},
					(error: unknown) => failed("approvalPolicy", error),
				);
			}
			if (typeof decided === "boolean") return toEntry(decided);
		}
	} catch (error) {
		return failed("approvalPolicy", error);
	}
	try {
		const needed = fromTool();
		if (isPromiseLike(needed)) {
			return Promise.resolve(needed).then(
				(value) => toEntry(value === true),
				(error: unknown) => failed("requiresApproval", error),
			);
		}
		return toEntry(needed);
	} catch (error) {
		return failed("requiresApproval", error);
	}
}

/** The event that tells the application a call waits for its decision. */
export function approvalRequestEvent(toolCall: AgentToolCall, args: unknown): AgentEvent {
	return { type: "tool_approval_request", toolCallId: toolCall.id, toolName: toolCall.name, args };
}

/**
 * What a call of a resumed batch becomes. A decided call gets its `tool_approval_response` event
 * (emitted before the tool runs, so a listener can store the decision first); an approved one is
 * prepared to run with the arguments stored at the pause (beforeToolCall is not asked again).
 */
export async function resumeToolCall(
	run: ToolCallRun,
	call: PausedToolCall,
	toolCall: AgentToolCall,
	emit: AgentEventSink,
): Promise<PreparedToolCall | WaitingToolCall | HeldToolOutcome | RecordedToolCall | ToolOutcome | undefined> {
	switch (call.status) {
		case "done":
			return { kind: "held", outcome: { kind: "done", result: call.result, isError: call.isError } };
		case "recorded":
			return { kind: "recorded" };
		case "not-started":
			return undefined;
		case "pending": {
			const decision = call.decision;
			if (run.signal?.aborted) return errorOutcome(ABORTED_WHILE_WAITING_TEXT);
			if (!decision) return { kind: "waiting", args: call.args };
			const response: AgentEvent = {
				type: "tool_approval_response",
				toolCallId: call.toolCallId,
				toolName: call.toolName,
				approved: decision.approved,
			};
			if (!decision.approved && decision.reason !== undefined) response.reason = decision.reason;
			await emit(response);
			if (!decision.approved) return deniedOutcome(decision.reason);
			const tool = findTool(run.context, toolCall.name);
			if (!tool || typeof tool.execute !== "function") {
				return errorOutcome(`Tool "${toolCall.name}" was approved but is not available to run now`);
			}
			return { kind: "ready", tool, args: call.args };
		}
	}
}

/** The stored form of a call that waits (keeps a decision already given). */
export function waitingCall(toolCall: AgentToolCall, args: unknown, resumed?: PausedToolCall): PausedToolCall {
	const call: PausedToolCall = { status: "pending", toolCallId: toolCall.id, toolName: toolCall.name, args };
	if (resumed?.status === "pending" && resumed.decision) call.decision = resumed.decision;
	return call;
}

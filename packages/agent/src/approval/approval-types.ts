// The serialisable state of a run that stopped to wait for tool approvals, and the decisions that
// resume it. Everything here is plain JSON: a paused run can be stored (in a session, a database,
// a cookie) and resumed by another process after a restart.
import type { AssistantMessage } from "@keel/ai";
import type { AgentContext, AgentTool, AgentToolCall, AgentToolResult } from "../types.js";

/** The format version of `PausedToolRun`; a stored state of another version is refused with a clear error. */
export const PAUSED_TOOL_RUN_VERSION = 1;

/**
 * One call of the paused batch, in call order.
 * - "done": it ran (or was refused before running) while the batch went on; its result is held here
 *   and enters the transcript, in call order, when the batch completes.
 * - "recorded": its result is already in the transcript (a sequential batch records each result
 *   as its call ends, so the calls before the one that waits are answered already).
 * - "pending": it waits for a decision; `args` are the validated arguments it will run with, and
 *   `decision` is set once one was given (stored before the call runs, so a restart honours it).
 * - "not-started": a sequential batch's call after the one that waits; it is prepared and run,
 *   gated again if it needs approval, once the calls before it are done.
 */
export type PausedToolCall =
	| { status: "done"; toolCallId: string; toolName: string; result: AgentToolResult; isError: boolean }
	| { status: "recorded"; toolCallId: string; toolName: string }
	| {
			status: "pending";
			toolCallId: string;
			toolName: string;
			args: unknown;
			decision?: ToolApprovalDecision;
	  }
	| { status: "not-started"; toolCallId: string; toolName: string };

/**
 * A run that stopped because tool calls wait for approval. The transcript the run worked on ends with
 * `assistantMessage` (plus, in a sequential batch, the results of the calls marked "recorded").
 * Tool results' `details` must be JSON values for the state to survive storage.
 */
export interface PausedToolRun {
	version: typeof PAUSED_TOOL_RUN_VERSION;
	/** A fresh id per pause; stored records of one pause carry it. */
	pauseId: string;
	/** The assistant message whose tool calls make up the batch. */
	assistantMessage: AssistantMessage;
	calls: PausedToolCall[];
}

/** What a `tool_approval_request` event and `pendingApprovals` tell about a waiting call. */
export interface ToolApprovalRequest {
	toolCallId: string;
	toolName: string;
	/** The validated arguments the tool will receive when approved. */
	args: unknown;
}

/** An answer to a waiting call. A denial's reason is what the model sees as the call's error result. */
export type ToolApprovalDecision =
	| { toolCallId: string; approved: true }
	| { toolCallId: string; approved: false; reason?: string };

/** What decides whether a call needs approval: the tool's own flag or function gets this. */
export interface ToolApprovalContext {
	assistantMessage: AssistantMessage;
	toolCall: AgentToolCall;
	context: AgentContext;
}

/** What the loop's approval policy gets: the tool and its validated arguments besides the call. */
export interface ToolApprovalPolicyContext extends ToolApprovalContext {
	tool: AgentTool;
	args: unknown;
}

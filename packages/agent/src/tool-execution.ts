// One tool call, in three steps: prepare (find the tool, prepareArguments, validate, beforeToolCall)
// → execute (racing the abort, forwarding partial results) → afterToolCall. Plain functions that
// return what the call ended with; the loop (agent-loop.ts) emits the events, orders the calls and
// runs them one after another or concurrently.
import {
	type AssistantMessage,
	checkToolArguments,
	formatThrownValue,
	TOOL_ARGUMENTS_REJECTED,
	type ToolResultMessage,
} from "@keel/ai";
import { INTERRUPTED_TOOL_TEXT } from "./steering-interrupt.js";
import type {
	AgentContext,
	AgentEvent,
	AgentEventSink,
	AgentLoopConfig,
	AgentTool,
	AgentToolCall,
	AgentToolResult,
	PausedToolRun,
} from "./types.js";
import { ABORTED, AbortWatch, callCallback } from "./user-code.js";

/** The text a call skipped because the user steered ends with; UIs match on it, so it never changes. */
export const SKIPPED_FOR_STEERING_TEXT = "Skipped due to queued user message.";
export const ABORTED_TOOL_TEXT = "Tool execution was aborted.";
/** The result of each call of a response cut off at the output token limit (stopReason "length"). */
export const TRUNCATED_TOOL_CALL_TEXT =
	"Tool call was not run: the response was cut off at the output token limit, so its arguments may be incomplete. Make the call again with shorter arguments, or split the work.";

/** What a call ended with: the result the model sees, and whether it is an error. */
export interface ToolOutcome {
	kind: "done";
	result: AgentToolResult;
	isError: boolean;
	/** A call beforeToolCall refused with `terminate: true`: an error result that still ends the run. */
	blockedToTerminate?: boolean;
}

/** A call that passed preparation: it is ready to run with these validated arguments. */
export interface PreparedToolCall {
	kind: "ready";
	tool: AgentTool;
	args: unknown;
}

/** What a tool call needs from its run (the loop passes its run state). */
export interface ToolCallRun {
	context: AgentContext;
	config: AgentLoopConfig;
	signal: AbortSignal | undefined;
	/**
	 * The signal the tools and their hooks get while a batch that steering may interrupt runs
	 * (steering-interrupt.ts): it aborts with `signal` or on an interrupt. Unset: they get `signal`.
	 */
	toolSignal?: AbortSignal;
}

/** The result of a call whose tool signal aborted: the run was aborted, or steering interrupted it. */
function abortedToolText(run: ToolCallRun): string {
	return run.signal?.aborted || !run.toolSignal?.aborted ? ABORTED_TOOL_TEXT : INTERRUPTED_TOOL_TEXT;
}

export function findTool(context: AgentContext, name: string): AgentTool | undefined {
	return context.tools?.find((tool) => tool.name === name);
}

/**
 * Finds the tool, runs prepareArguments, validates, asks beforeToolCall. Returns the prepared call,
 * or the error outcome that replaces running it. Synchronous unless the schema library validates
 * asynchronously or beforeToolCall returns a promise.
 */
export function prepareToolCall(
	run: ToolCallRun,
	assistantMessage: AssistantMessage,
	toolCall: AgentToolCall,
): PreparedToolCall | ToolOutcome | Promise<PreparedToolCall | ToolOutcome> {
	const tool = findTool(run.context, toolCall.name);
	if (!tool) {
		const names = (run.context.tools ?? []).map((candidate) => candidate.name).join(", ") || "(none)";
		// The same text as @keel/ai's validateToolCall, so the model sees one wording.
		return errorOutcome(`Tool "${toolCall.name}" not found. Available tools: ${names}`);
	}
	if (typeof tool.execute !== "function") {
		// A plain @keel/ai Tool (schema only) was given to the agent: say so rather than crash.
		return errorOutcome(`Tool "${tool.name}" cannot run: it has no execute function`);
	}
	const rejected = findRejectedArguments(assistantMessage, toolCall.id);
	if (rejected !== undefined) return errorOutcome(rejected);
	let rawArguments: unknown = toolCall.arguments;
	if (tool.prepareArguments) {
		try {
			rawArguments = tool.prepareArguments(toolCall.arguments);
		} catch (error) {
			return errorOutcome(`prepareArguments of tool "${tool.name}" failed: ${formatThrownValue(error)}`);
		}
	}
	let checked: unknown;
	try {
		// A validated, coerced copy; the call's own arguments stay as the model sent them. The schema
		// library's messages (AJV's, Zod's, …) become the error result the model reads to fix its call.
		checked = checkToolArguments(tool, { ...toolCall, arguments: rawArguments as AgentToolCall["arguments"] });
	} catch (error) {
		return errorOutcome(formatThrownValue(error));
	}
	if (checked instanceof Promise) {
		return checked.then(
			(args: unknown) => afterValidation(run, assistantMessage, toolCall, { kind: "ready", tool, args }),
			(error: unknown) => errorOutcome(formatThrownValue(error)),
		);
	}
	return afterValidation(run, assistantMessage, toolCall, { kind: "ready", tool, args: checked });
}

function afterValidation(
	run: ToolCallRun,
	assistantMessage: AssistantMessage,
	toolCall: AgentToolCall,
	prepared: PreparedToolCall,
): PreparedToolCall | ToolOutcome | Promise<PreparedToolCall | ToolOutcome> {
	if (!run.config.beforeToolCall) return prepared;
	return askBeforeToolCall(run, assistantMessage, toolCall, prepared);
}

/**
 * Why @keel/ai dropped this call's arguments (nested too deep or too long to keep), when it did:
 * the call then has `{}` as arguments, which must not reach the tool as if the model sent them.
 */
function findRejectedArguments(message: AssistantMessage, toolCallId: string): string | undefined {
	const diagnostic = message.diagnostics?.find(
		(entry) => entry.type === TOOL_ARGUMENTS_REJECTED && entry.details?.toolCallId === toolCallId,
	);
	return diagnostic ? (diagnostic.error?.message ?? "The tool call's arguments were dropped") : undefined;
}

async function askBeforeToolCall(
	run: ToolCallRun,
	assistantMessage: AssistantMessage,
	toolCall: AgentToolCall,
	prepared: PreparedToolCall,
): Promise<PreparedToolCall | ToolOutcome> {
	const beforeToolCall = run.config.beforeToolCall;
	if (!beforeToolCall) return prepared;
	const signal = run.toolSignal ?? run.signal;
	try {
		const decision = await callCallback(
			"beforeToolCall",
			() => beforeToolCall({ assistantMessage, toolCall, args: prepared.args, context: run.context }, signal),
			signal,
		);
		if (decision?.block) {
			const blocked = errorOutcome(decision.reason || "Tool execution was blocked");
			if (decision.terminate === true) {
				blocked.result.terminate = true;
				blocked.blockedToTerminate = true;
			}
			return blocked;
		}
		return prepared;
	} catch (error) {
		return errorOutcome(signal?.aborted ? abortedToolText(run) : formatThrownValue(error));
	}
}

/**
 * Executes a prepared call and applies afterToolCall. Never rejects: a throw, an invalid result, a
 * throwing hook and an abort all become error outcomes. Partial results go to `emitUpdate` as
 * tool_execution_update events, all delivered before this resolves.
 */
export async function executePreparedToolCall(
	run: ToolCallRun,
	assistantMessage: AssistantMessage,
	toolCall: AgentToolCall,
	prepared: PreparedToolCall,
	emitUpdate: AgentEventSink,
): Promise<ToolOutcome> {
	// Aborted after preparation (during a hook, or while earlier calls were prepared): never start it.
	const signal = run.toolSignal ?? run.signal;
	if (signal?.aborted) return errorOutcome(abortedToolText(run));

	// Updates are chained, so listeners see them one at a time and all before tool_execution_end.
	let settled = false;
	let updates: Promise<void> | undefined;
	const onUpdate = (partialResult: AgentToolResult) => {
		if (settled) return;
		const event = {
			type: "tool_execution_update" as const,
			toolCallId: toolCall.id,
			toolName: toolCall.name,
			args: prepared.args,
			partialResult,
		};
		updates = (updates ?? Promise.resolve()).then(() => emitUpdate(event));
		// A failing sink fails the run when the updates are awaited below, not inside the tool.
		updates.catch(() => {});
	};

	// An abort ends the wait at once; a tool that ignores its signal is left to run, its late result ignored.
	const abort = signal ? new AbortWatch(signal, 0) : undefined;
	let outcome: ToolOutcome;
	let abandoned = false;
	try {
		const returned = prepared.tool.execute(toolCall.id, prepared.args as never, signal, onUpdate);
		const result = abort ? await abort.race(returned) : await returned;
		abandoned = result === ABORTED;
		outcome = result === ABORTED ? errorOutcome(abortedToolText(run)) : checkToolResult(toolCall.name, result);
	} catch (error) {
		// A rejection, or a tool that throws synchronously instead of rejecting.
		outcome = errorOutcome(formatThrownValue(error));
	}
	abort?.dispose();
	settled = true;
	if (updates) await updates;
	// A call the abort cut short gets no afterToolCall: the hook would judge a result that never came.
	if (abandoned || !run.config.afterToolCall) return outcome;
	return applyAfterToolCall(run, assistantMessage, toolCall, prepared, outcome);
}

async function applyAfterToolCall(
	run: ToolCallRun,
	assistantMessage: AssistantMessage,
	toolCall: AgentToolCall,
	prepared: PreparedToolCall,
	executed: ToolOutcome,
): Promise<ToolOutcome> {
	const afterToolCall = run.config.afterToolCall;
	if (!afterToolCall) return executed;
	const signal = run.toolSignal ?? run.signal;
	try {
		const override = await callCallback(
			"afterToolCall",
			() =>
				afterToolCall(
					{
						assistantMessage,
						toolCall,
						args: prepared.args,
						context: run.context,
						result: executed.result,
						isError: executed.isError,
					},
					signal,
				),
			signal,
		);
		if (!override) return executed;
		// Each field that is not undefined replaces the tool's own.
		const result: AgentToolResult = {
			content: override.content ?? executed.result.content,
			details: override.details ?? executed.result.details,
		};
		const terminate = override.terminate ?? executed.result.terminate;
		if (terminate !== undefined) result.terminate = terminate;
		const usage = override.usage ?? executed.result.usage;
		if (usage !== undefined) result.usage = usage;
		return { kind: "done", result, isError: override.isError ?? executed.isError };
	} catch (error) {
		return errorOutcome(signal?.aborted ? abortedToolText(run) : formatThrownValue(error));
	}
}

function checkToolResult(toolName: string, result: AgentToolResult | undefined): ToolOutcome {
	if (!result || typeof result !== "object" || !Array.isArray(result.content)) {
		return errorOutcome(
			`Tool "${toolName}" returned an invalid result: expected { content: [...], details }, got ${describe(result)}`,
		);
	}
	// `isError: true` reports a failure without throwing, so the result keeps its details and usage.
	return { kind: "done", result, isError: result.isError === true };
}

function describe(value: unknown): string {
	if (value === undefined) return "undefined";
	try {
		return JSON.stringify(value).slice(0, 200);
	} catch {
		return String(value);
	}
}

/** An error outcome with this text and empty details. */
export function errorOutcome(text: string): ToolOutcome {
	return { kind: "done", result: { content: [{ type: "text", text }], details: {} }, isError: true };
}

/** The toolResult message of a call's outcome. */
export function createToolResultMessage(toolCall: AgentToolCall, outcome: ToolOutcome): ToolResultMessage {
	const message: ToolResultMessage = {
		role: "toolResult",
		toolCallId: toolCall.id,
		toolName: toolCall.name,
		content: outcome.result.content,
		details: outcome.result.details,
		isError: outcome.isError,
		timestamp: Date.now(),
	};
	// Only when the tool reported some: a result without usage keeps the shape it always had.
	if (outcome.result.usage !== undefined) message.usage = outcome.result.usage;
	return message;
}

// --- what a batch of calls ends with, and its events ------------------------------------------

/** What the tool calls of one assistant message ended with. */
export interface ToolBatchResult {
	toolResults: ToolResultMessage[];
	/** True when every result asked to end the run. */
	terminate: boolean;
	/** Set when calls wait for approval: the batch is not done and the run pauses. */
	paused?: PausedToolRun;
}

/** True when every outcome asked to end the run (and none is an error, except a refusal that asked to end it). */
export function allTerminate(outcomes: ToolOutcome[]): boolean {
	return (
		outcomes.length > 0 &&
		outcomes.every(
			(outcome) => outcome.result.terminate === true && (!outcome.isError || outcome.blockedToTerminate === true),
		)
	);
}

export function toolStartEvent(toolCall: AgentToolCall): AgentEvent {
	return { type: "tool_execution_start", toolCallId: toolCall.id, toolName: toolCall.name, args: toolCall.arguments };
}

export function toolEndEvent(toolCall: AgentToolCall, outcome: ToolOutcome): AgentEvent {
	return {
		type: "tool_execution_end",
		toolCallId: toolCall.id,
		toolName: toolCall.name,
		result: outcome.result,
		isError: outcome.isError,
	};
}

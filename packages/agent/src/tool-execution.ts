// Runs the tool calls of one assistant message: prepare → execute → finalize, sequential or
// parallel. Every call gets exactly one tool_execution_start, one tool_execution_end and one
// toolResult message, in the order of the calls, whatever throws, blocks, or is aborted.
import type { AssistantMessage, ToolResultMessage } from "@keel/ai";
import { ABORTED, AbortWatch, isPromiseLike, pollMessages, step } from "./callback-step.js";
import { errorText } from "./error-text.js";
import type {
	AgentContext,
	AgentEvent,
	AgentEventSink,
	AgentLoopConfig,
	AgentMessage,
	AgentTool,
	AgentToolCall,
	AgentToolResult,
} from "./types.js";
import { validateToolCallArguments } from "./validate-arguments.js";

/** The exact text pi uses for calls skipped because the user steered; UIs match on it. */
export const SKIPPED_FOR_STEERING_TEXT = "Skipped due to queued user message.";
export const ABORTED_TOOL_TEXT = "Tool execution was aborted.";

export interface ToolBatch {
	assistantMessage: AssistantMessage;
	toolCalls: AgentToolCall[];
	context: AgentContext;
	config: AgentLoopConfig;
	signal?: AbortSignal;
	emit: AgentEventSink;
	/** Emits the toolResult message events and adds it to the transcript. */
	recordToolResult: (message: ToolResultMessage) => void | Promise<void>;
}

export interface ToolBatchOutcome {
	toolResults: ToolResultMessage[];
	/** Steering messages found during the batch: they go in before the next LLM call. */
	steeringMessages: AgentMessage[];
	/** True when every result asked to end the run. */
	terminate: boolean;
}

interface BatchProgress extends ToolBatchOutcome {
	/** How many results asked to end the run; kept beside the messages, which hold only what the model sees. */
	terminating: number;
}

interface Finished {
	result: AgentToolResult;
	isError: boolean;
}

/** A call ready to run, or already finished (unknown tool, invalid arguments, blocked). */
type Prepared = { kind: "run"; tool: AgentTool; args: unknown } | ({ kind: "done" } & Finished);

// Like the loop, these steps await a sink, hook or steering source only when it returned a promise
// (`if (pending) await pending`): a batch of one trivial call would otherwise spend more time in
// microtasks than in the tool.

export function executeToolCalls(batch: ToolBatch): Promise<ToolBatchOutcome> {
	const runsInParallel =
		(batch.config.toolExecution ?? "parallel") === "parallel" &&
		!batch.toolCalls.some((call) => findTool(batch.context, call.name)?.executionMode === "sequential");
	return runsInParallel ? executeInParallel(batch) : executeInSequence(batch);
}

async function executeInSequence(batch: ToolBatch): Promise<ToolBatchOutcome> {
	const outcome: BatchProgress = { toolResults: [], steeringMessages: [], terminate: false, terminating: 0 };
	for (const toolCall of batch.toolCalls) {
		const started = emitStart(batch, toolCall);
		if (started) await started;
		let finished: Finished;
		if (outcome.steeringMessages.length > 0) finished = errorResult(SKIPPED_FOR_STEERING_TEXT);
		else if (batch.signal?.aborted) finished = errorResult(ABORTED_TOOL_TEXT);
		else {
			const preparing = prepareToolCall(batch, toolCall);
			const prepared = isPromiseLike(preparing) ? await preparing : preparing;
			finished = prepared.kind === "done" ? prepared : await runPreparedCall(batch, toolCall, prepared, batch.emit);
		}
		const recorded = finishCall(batch, toolCall, finished, outcome);
		if (recorded) await recorded;
		if (outcome.steeringMessages.length === 0) {
			const polled = pollSteeringDuringBatch(batch);
			outcome.steeringMessages = isPromiseLike(polled) ? await polled : polled;
		}
	}
	outcome.terminate = allTerminate(outcome);
	return outcome;
}

async function executeInParallel(batch: ToolBatch): Promise<ToolBatchOutcome> {
	const outcome: BatchProgress = { toolResults: [], steeringMessages: [], terminate: false, terminating: 0 };
	// Preparation runs one call at a time, in call order, so beforeToolCall hooks see a stable order.
	const prepared: Prepared[] = [];
	for (const toolCall of batch.toolCalls) {
		const started = emitStart(batch, toolCall);
		if (started) await started;
		if (outcome.steeringMessages.length > 0) prepared.push({ kind: "done", ...errorResult(SKIPPED_FOR_STEERING_TEXT) });
		else if (batch.signal?.aborted) prepared.push({ kind: "done", ...errorResult(ABORTED_TOOL_TEXT) });
		else {
			const preparing = prepareToolCall(batch, toolCall);
			prepared.push(isPromiseLike(preparing) ? await preparing : preparing);
			const polled = pollSteeringDuringBatch(batch);
			outcome.steeringMessages = isPromiseLike(polled) ? await polled : polled;
		}
	}
	if (outcome.steeringMessages.length > 0) {
		// The user spoke before anything ran: none of the prepared calls runs.
		for (let index = 0; index < prepared.length; index++) {
			if (prepared[index].kind === "run") prepared[index] = { kind: "done", ...errorResult(SKIPPED_FOR_STEERING_TEXT) };
		}
	}

	// Concurrent calls share one event sink, so their emissions are chained to keep it serial
	// (a batch of one call has nothing to interleave with and emits directly).
	let chain: Promise<void> | undefined;
	const emitInOrder: AgentEventSink =
		batch.toolCalls.length === 1
			? batch.emit
			: (event) => {
					chain = (chain ?? Promise.resolve()).then(() => batch.emit(event));
					return chain;
				};
	const finished =
		batch.toolCalls.length === 1
			? [await runAndAnnounce(batch, batch.toolCalls[0], prepared[0], emitInOrder)]
			: await Promise.all(
					batch.toolCalls.map((toolCall, index) => runAndAnnounce(batch, toolCall, prepared[index], emitInOrder)),
				);
	if (chain) await chain;
	// The toolResult messages go into the transcript strictly in call order.
	for (let index = 0; index < batch.toolCalls.length; index++) {
		const recorded = recordResult(batch, batch.toolCalls[index], finished[index], outcome);
		if (recorded) await recorded;
	}
	if (outcome.steeringMessages.length === 0) {
		const polled = pollSteeringDuringBatch(batch);
		outcome.steeringMessages = isPromiseLike(polled) ? await polled : polled;
	}
	outcome.terminate = allTerminate(outcome);
	return outcome;
}

/** Runs one prepared call of a parallel batch and emits its tool_execution_end as soon as it is done. */
async function runAndAnnounce(
	batch: ToolBatch,
	toolCall: AgentToolCall,
	entry: Prepared,
	emit: AgentEventSink,
): Promise<Finished> {
	const finished = entry.kind === "done" ? entry : await runPreparedCall(batch, toolCall, entry, emit);
	// tool_execution_end in completion order: a UI can show each call as soon as it is done.
	const ended = emit({
		type: "tool_execution_end",
		toolCallId: toolCall.id,
		toolName: toolCall.name,
		result: finished.result,
		isError: finished.isError,
	});
	if (ended) await ended;
	return finished;
}

// --- the three steps ------------------------------------------------------------------------

/** Synchronous unless a beforeToolCall hook returns a promise. */
function prepareToolCall(batch: ToolBatch, toolCall: AgentToolCall): Prepared | Promise<Prepared> {
	const tool = findTool(batch.context, toolCall.name);
	if (!tool) {
		const names = (batch.context.tools ?? []).map((candidate) => candidate.name).join(", ") || "(none)";
		// The same text as @keel/ai's validateToolCall, so the model sees one wording.
		return { kind: "done", ...errorResult(`Tool "${toolCall.name}" not found. Available tools: ${names}`) };
	}
	if (typeof tool.execute !== "function") {
		// A plain @keel/ai Tool (schema only) was given to the agent: say so rather than crash.
		return { kind: "done", ...errorResult(`Tool "${tool.name}" cannot run: it has no execute function`) };
	}
	let raw: unknown = toolCall.arguments;
	if (tool.prepareArguments) {
		try {
			raw = tool.prepareArguments(toolCall.arguments);
		} catch (error) {
			return { kind: "done", ...errorResult(`prepareArguments of tool "${tool.name}" failed: ${errorText(error)}`) };
		}
	}
	let args: unknown;
	try {
		args = validateToolCallArguments(tool, { ...toolCall, arguments: raw as AgentToolCall["arguments"] });
	} catch (error) {
		return { kind: "done", ...errorResult(errorText(error)) };
	}
	if (batch.config.beforeToolCall) return askBeforeToolCall(batch, toolCall, tool, args);
	return { kind: "run", tool, args };
}

async function askBeforeToolCall(
	batch: ToolBatch,
	toolCall: AgentToolCall,
	tool: AgentTool,
	args: unknown,
): Promise<Prepared> {
	const beforeToolCall = batch.config.beforeToolCall;
	if (!beforeToolCall) return { kind: "run", tool, args };
	try {
		const decision = await waitForHook(batch, "beforeToolCall", () =>
			beforeToolCall(
				{ assistantMessage: batch.assistantMessage, toolCall, args, context: batch.context },
				batch.signal,
			),
		);
		if (decision?.block) return { kind: "done", ...errorResult(decision.reason || "Tool execution was blocked") };
	} catch (error) {
		if (batch.signal?.aborted) return { kind: "done", ...errorResult(ABORTED_TOOL_TEXT) };
		return { kind: "done", ...errorResult(errorText(error)) };
	}
	return { kind: "run", tool, args };
}

/** Executes and finalizes one call; never rejects. */
function runPreparedCall(
	batch: ToolBatch,
	toolCall: AgentToolCall,
	prepared: Extract<Prepared, { kind: "run" }>,
	emit: AgentEventSink,
): Promise<Finished> {
	// Aborted after preparation (during a hook, or while earlier calls were prepared): never start it.
	if (batch.signal?.aborted) return Promise.resolve(errorResult(ABORTED_TOOL_TEXT));
	const executed = executeWithAbort(batch, toolCall, prepared, emit);
	if (!batch.config.afterToolCall) return executed;
	return executed.then((result) => (result.aborted ? result : applyAfterToolCall(batch, toolCall, prepared, result)));
}

async function applyAfterToolCall(
	batch: ToolBatch,
	toolCall: AgentToolCall,
	prepared: Extract<Prepared, { kind: "run" }>,
	executed: Finished,
): Promise<Finished> {
	const afterToolCall = batch.config.afterToolCall;
	if (!afterToolCall) return executed;
	try {
		const override = await waitForHook(batch, "afterToolCall", () =>
			afterToolCall(
				{
					assistantMessage: batch.assistantMessage,
					toolCall,
					args: prepared.args,
					context: batch.context,
					result: executed.result,
					isError: executed.isError,
				},
				batch.signal,
			),
		);
		if (!override) return executed;
		const result: AgentToolResult = {
			content: override.content ?? executed.result.content,
			details: override.details ?? executed.result.details,
		};
		const terminate = override.terminate ?? executed.result.terminate;
		if (terminate !== undefined) result.terminate = terminate;
		return { result, isError: override.isError ?? executed.isError };
	} catch (error) {
		if (batch.signal?.aborted) return errorResult(ABORTED_TOOL_TEXT);
		return errorResult(errorText(error));
	}
}

/** Partial results of one running call, forwarded as tool_execution_update events until it settles. */
interface UpdateForwarding {
	settled: boolean;
	/** Updates are chained: each waits for the previous one, so listeners see them one at a time. */
	updates?: Promise<void>;
}

function forwardUpdate(
	forwarding: UpdateForwarding,
	emit: AgentEventSink,
	toolCall: AgentToolCall,
	args: unknown,
	partialResult: AgentToolResult,
): void {
	if (forwarding.settled) return;
	const event: AgentEvent = {
		type: "tool_execution_update",
		toolCallId: toolCall.id,
		toolName: toolCall.name,
		args,
		partialResult,
	};
	const updates = (forwarding.updates ?? Promise.resolve()).then(() => emit(event));
	// A failing sink fails the run when the updates are awaited below, not inside the tool.
	updates.catch(() => {});
	forwarding.updates = updates;
}

/**
 * Runs `execute`, racing it against the abort signal: a tool that ignores its signal cannot hold
 * the run, and its late result or updates are discarded.
 */
async function executeWithAbort(
	batch: ToolBatch,
	toolCall: AgentToolCall,
	prepared: Extract<Prepared, { kind: "run" }>,
	emit: AgentEventSink,
): Promise<Finished & { aborted?: true }> {
	const forwarding: UpdateForwarding = { settled: false };
	const signal = batch.signal;
	// An abort ends the wait at once; the tool is left to run and its late result is ignored.
	const abort = signal ? new AbortWatch(signal, 0) : undefined;
	let winner: Finished | typeof ABORTED;
	try {
		const returned = prepared.tool.execute(toolCall.id, prepared.args as never, signal, (partialResult) =>
			forwardUpdate(forwarding, emit, toolCall, prepared.args, partialResult),
		);
		const result = abort ? await abort.race(returned) : await returned;
		winner = result === ABORTED ? ABORTED : checkToolResult(toolCall.name, result);
	} catch (error) {
		// A rejection, or a tool that throws synchronously instead of rejecting.
		winner = errorResult(errorText(error));
	}
	abort?.dispose();
	forwarding.settled = true;
	// Updates emitted before the result are delivered before tool_execution_end.
	if (forwarding.updates) await forwarding.updates;
	if (winner === ABORTED) return { ...errorResult(ABORTED_TOOL_TEXT), aborted: true };
	return winner;
}

// --- helpers --------------------------------------------------------------------------------

function checkToolResult(toolName: string, result: AgentToolResult | undefined): Finished {
	if (!result || typeof result !== "object" || !Array.isArray(result.content)) {
		return errorResult(
			`Tool "${toolName}" returned an invalid result: expected { content: [...], details }, got ${describe(result)}`,
		);
	}
	return { result, isError: false };
}

function describe(value: unknown): string {
	if (value === undefined) return "undefined";
	try {
		return JSON.stringify(value).slice(0, 200);
	} catch {
		return String(value);
	}
}

function errorResult(text: string): Finished {
	return { result: { content: [{ type: "text", text }], details: {} }, isError: true };
}

function findTool(context: AgentContext, name: string): AgentTool | undefined {
	return context.tools?.find((tool) => tool.name === name);
}

function emitStart(batch: ToolBatch, toolCall: AgentToolCall): void | Promise<void> {
	return batch.emit({
		type: "tool_execution_start",
		toolCallId: toolCall.id,
		toolName: toolCall.name,
		args: toolCall.arguments,
	});
}

function finishCall(
	batch: ToolBatch,
	toolCall: AgentToolCall,
	finished: Finished,
	outcome: BatchProgress,
): void | Promise<void> {
	const ended = batch.emit({
		type: "tool_execution_end",
		toolCallId: toolCall.id,
		toolName: toolCall.name,
		result: finished.result,
		isError: finished.isError,
	});
	if (ended) return Promise.resolve(ended).then(() => recordResult(batch, toolCall, finished, outcome));
	return recordResult(batch, toolCall, finished, outcome);
}

function recordResult(
	batch: ToolBatch,
	toolCall: AgentToolCall,
	finished: Finished,
	outcome: BatchProgress,
): void | Promise<void> {
	const message: ToolResultMessage = {
		role: "toolResult",
		toolCallId: toolCall.id,
		toolName: toolCall.name,
		content: finished.result.content,
		details: finished.result.details,
		isError: finished.isError,
		timestamp: Date.now(),
	};
	outcome.toolResults.push(message);
	if (finished.result.terminate === true && !finished.isError) outcome.terminating++;
	return batch.recordToolResult(message);
}

function allTerminate(outcome: BatchProgress): boolean {
	return outcome.toolResults.length > 0 && outcome.terminating === outcome.toolResults.length;
}

function pollSteeringDuringBatch(batch: ToolBatch): AgentMessage[] | Promise<AgentMessage[]> {
	if ((batch.config.steeringCheck ?? "after-each-tool") !== "after-each-tool") return [];
	return pollMessages("getSteeringMessages", batch.config.getSteeringMessages, batch.signal);
}

/** Runs a hook: its throw is named ("beforeToolCall failed: …"), and an abort stops the wait. */
function waitForHook<T>(batch: ToolBatch, name: string, hook: () => T | Promise<T>): T | Promise<T> {
	return step(name, hook, batch.signal);
}

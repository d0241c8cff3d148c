// Finishing the batch of a run that paused for approvals. Each stored call becomes what its status
// says: a held outcome (it ran while the batch went on; its tool_execution_end went out then), an
// answer already in the transcript, a decided call (approved: it runs now; denied: its error
// result), a call still undecided (the batch pauses again), or, in a sequential batch, a call not
// started yet (from there the batch goes on as a fresh one, through the loop). The results enter
// the transcript in call order, as in any batch. The loop (agent-loop.ts) owns the events and the
// transcript and hands them in as `steps`, so this unit never calls back into the loop otherwise.
import type { AssistantMessage, ToolCall, ToolResultMessage } from "@keel/ai";
import {
	allTerminate,
	createToolResultMessage,
	errorOutcome,
	executePreparedToolCall,
	SKIPPED_FOR_STEERING_TEXT,
	type ToolBatchResult,
	type ToolCallRun,
	type ToolOutcome,
	toolEndEvent,
} from "../tool-execution.js";
import type { AgentEvent, PausedToolCall, PausedToolRun } from "../types.js";
import { ABORTED_WHILE_WAITING_TEXT, resumeToolCall, waitingCall } from "./approval-gate.js";
import { createPausedToolRun } from "./paused-run.js";

/** What a call of the resumed batch is before it runs. */
type ResumedToolCall = NonNullable<Awaited<ReturnType<typeof resumeToolCall>>>;

/** What resuming a batch needs of the loop. */
export interface ResumeBatchSteps {
	/** The loop's emit (it notes what each event opens or closes). */
	emit(event: AgentEvent): void | Promise<void>;
	/** Adds a toolResult message to the transcript, with its message events. */
	record(message: ToolResultMessage): Promise<void>;
	/** Polls steering after a call, unless messages already wait. */
	pollSteering(): Promise<void>;
	/** Goes on with a sequential batch from the call at `index`, as a fresh batch does. */
	continueInSequence(
		index: number,
		toolResults: ToolResultMessage[],
		outcomes: ToolOutcome[],
	): Promise<ToolBatchResult>;
}

/** Finishes a paused batch, one call after another or concurrently as the loop decided. */
export function resumePausedBatch(
	run: ToolCallRun,
	steps: ResumeBatchSteps,
	assistantMessage: AssistantMessage,
	toolCalls: ToolCall[],
	paused: PausedToolRun,
	sequential: boolean,
): Promise<ToolBatchResult> {
	return sequential
		? resumeInSequence(run, steps, assistantMessage, toolCalls, paused)
		: resumeInParallel(run, steps, assistantMessage, toolCalls, paused);
}

async function resumeInSequence(
	run: ToolCallRun,
	steps: ResumeBatchSteps,
	assistantMessage: AssistantMessage,
	toolCalls: ToolCall[],
	paused: PausedToolRun,
): Promise<ToolBatchResult> {
	const outcomes: ToolOutcome[] = [];
	const toolResults: ToolResultMessage[] = [];
	for (let index = 0; index < toolCalls.length; index++) {
		const toolCall = toolCalls[index];
		const stored = paused.calls[index];
		const entry = stored ? await resumeToolCall(run, stored, toolCall, steps.emit) : undefined;
		// Not started when the batch paused: the rest runs as a fresh batch would.
		if (!entry) return steps.continueInSequence(index, toolResults, outcomes);
		if (entry.kind === "recorded") continue;
		if (entry.kind === "waiting") {
			// Still undecided: the batch pauses here again, the calls after it not started.
			const calls = toolCalls.map((call, position): PausedToolCall => {
				if (position < index) return { status: "recorded", toolCallId: call.id, toolName: call.name };
				if (position > index) return { status: "not-started", toolCallId: call.id, toolName: call.name };
				return waitingCall(call, entry.args, stored);
			});
			return { toolResults, terminate: false, paused: createPausedToolRun(assistantMessage, calls) };
		}
		let outcome: ToolOutcome;
		if (entry.kind === "held") outcome = entry.outcome;
		else {
			outcome =
				entry.kind === "ready"
					? await executePreparedToolCall(run, assistantMessage, toolCall, entry, steps.emit)
					: entry;
			await steps.emit(toolEndEvent(toolCall, outcome));
		}
		const message = createToolResultMessage(toolCall, outcome);
		outcomes.push(outcome);
		toolResults.push(message);
		await steps.record(message);
		await steps.pollSteering();
	}
	return { toolResults, terminate: allTerminate(outcomes) };
}

async function resumeInParallel(
	run: ToolCallRun,
	steps: ResumeBatchSteps,
	assistantMessage: AssistantMessage,
	toolCalls: ToolCall[],
	paused: PausedToolRun,
): Promise<ToolBatchResult> {
	// In call order: each decided call's tool_approval_response goes out before any of them runs.
	const entries: ResumedToolCall[] = [];
	for (let index = 0; index < toolCalls.length; index++) {
		const stored = paused.calls[index];
		const entry = stored ? await resumeToolCall(run, stored, toolCalls[index], steps.emit) : undefined;
		entries.push(entry ?? errorOutcome(`Tool call "${toolCalls[index].id}" of the paused batch was never started`));
	}
	// The calls share one sink: their events are chained so it sees one at a time.
	let chain: Promise<void> = Promise.resolve();
	const emitInTurn = (event: AgentEvent) => {
		chain = chain.then(() => steps.emit(event));
		return chain;
	};
	// A call still waiting for approval has no outcome (undefined).
	const settled = await Promise.all(
		toolCalls.map(async (toolCall, index): Promise<ToolOutcome | undefined> => {
			const entry = entries[index];
			if (entry.kind === "held") return entry.outcome;
			if (entry.kind === "waiting") return undefined;
			let outcome: ToolOutcome;
			if (entry.kind === "ready") {
				outcome = await executePreparedToolCall(run, assistantMessage, toolCall, entry, emitInTurn);
			} else if (entry.kind === "recorded") {
				// Only a sequential batch records results before it completes; it never resumes here.
				outcome = errorOutcome(SKIPPED_FOR_STEERING_TEXT);
			} else outcome = entry;
			await emitInTurn(toolEndEvent(toolCall, outcome));
			return outcome;
		}),
	);
	if (settled.includes(undefined)) {
		if (!run.signal?.aborted) {
			// Undecided calls wait again: every outcome so far is held in the new paused state.
			const calls = toolCalls.map((toolCall, index): PausedToolCall => {
				const outcome = settled[index];
				const entry = entries[index];
				if (!outcome && entry.kind === "waiting") return waitingCall(toolCall, entry.args, paused.calls[index]);
				const { result, isError } = outcome as ToolOutcome;
				return { status: "done", toolCallId: toolCall.id, toolName: toolCall.name, result, isError };
			});
			return { toolResults: [], terminate: false, paused: createPausedToolRun(assistantMessage, calls) };
		}
		// Aborted while calls waited: each gets the aborted result.
		for (let index = 0; index < toolCalls.length; index++) {
			if (settled[index]) continue;
			settled[index] = errorOutcome(ABORTED_WHILE_WAITING_TEXT);
			await steps.emit(toolEndEvent(toolCalls[index], settled[index] as ToolOutcome));
		}
	}
	const outcomes = settled as ToolOutcome[];
	const toolResults: ToolResultMessage[] = [];
	for (let index = 0; index < toolCalls.length; index++) {
		const message = createToolResultMessage(toolCalls[index], outcomes[index]);
		toolResults.push(message);
		await steps.record(message);
	}
	await steps.pollSteering();
	return { toolResults, terminate: allTerminate(outcomes) };
}

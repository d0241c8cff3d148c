// The agent loop: plain functions over one run's state. One run, top to bottom in this file:
//
//   agent_start → turn_start → prompts → [steering]
//     → stream the assistant response (streamAssistantResponse)
//     → execute its tool calls, one after another or concurrently
//       (executeToolCallsInSequence, executeToolCallsInParallel); a response that failed or was
//       aborted ends the run instead, its tool calls answered with not-run results
//       (addMissingToolResults)
//       — calls that need approval wait (approval/): the run ends there with agent_end.pausedRun,
//       and runAgentLoopAfterApprovals later finishes the batch and goes on from here
//     → turn_end → more turns while there were tool calls or steering messages
//     → follow-ups start the turns again when the agent would otherwise stop
//   → agent_end
//
// Steering that interrupts (steering-interrupt.ts) cuts the response or the tool batch in flight
// short: the response is kept as interrupted, its calls (or the batch's unfinished ones) answered,
// and the run goes on with the steering messages instead of ending.
//
// The run's one failure handler is the catch in `runLoop` (`failRun`): whatever throws (a
// callback, the stream function, the event sink), the run closes what it had open and ends with
// an error assistant message, turn_end and exactly one agent_end. tool-execution.ts holds the
// steps of one tool call (prepare, execute, afterToolCall); it returns outcomes and emits nothing
// but the tool's partial results.
import {
	type AssistantMessage,
	type Context,
	createErrorMessage,
	EventStream,
	formatThrownValue,
	type SimpleStreamOptions,
	type ToolCall,
	type ToolResultMessage,
} from "@keel/ai";
import { getDefaultStreamFn } from "./agent-defaults.js";
import {
	ABORTED_WHILE_WAITING_TEXT,
	approvalRequestEvent,
	gateToolCall,
	type WaitingToolCall,
	waitingCall,
} from "./approval/approval-gate.js";
import { applyToolApprovalDecisions, assertCanResume, createPausedToolRun } from "./approval/paused-run.js";
import { type ResumeBatchSteps, resumePausedBatch } from "./approval/resume-batch.js";
import {
	INTERRUPTED_BY_STEERING_TEXT,
	isInterruptedMessage,
	SKIPPED_FOR_INTERRUPT_TEXT,
	SteeringInterrupts,
	showInterruptedAnswers,
} from "./steering-interrupt.js";
import {
	ABORTED_TOOL_TEXT,
	allTerminate,
	createToolResultMessage,
	errorOutcome,
	executePreparedToolCall,
	findTool,
	type PreparedToolCall,
	prepareToolCall,
	SKIPPED_FOR_STEERING_TEXT,
	type ToolBatchResult,
	type ToolCallRun,
	type ToolOutcome,
	TRUNCATED_TOOL_CALL_TEXT,
	toolEndEvent,
	toolStartEvent,
} from "./tool-execution.js";
import { inTurnTrace, traceAgentEvents } from "./tracing.js";
import type {
	AgentContext,
	AgentEvent,
	AgentEventSink,
	AgentLoopConfig,
	AgentMessage,
	AgentRequestUpdate,
	AgentTurnDecision,
	PausedToolCall,
	PausedToolRun,
	PrepareNextTurnContext,
	PrepareRequestContext,
	StreamFn,
	ToolApprovalDecision,
} from "./types.js";
import { ABORTED, AbortWatch, callCallback, isPromiseLike, pollMessages } from "./user-code.js";

/**
 * How long the loop waits, after an abort, for the stream function to end its stream itself
 * (a provider ends with its own `aborted` message, usage included) before it stops waiting.
 */
const ABORT_GRACE_MS = 100;

/** The error text of an assistant message cut short by an abort, as @keel/ai's providers word it. */
const ABORTED_TEXT = "Request was aborted";

// ---------------------------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------------------------

/** Starts a run with new prompts. The caller's context is not mutated. */
export function agentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
	const stream = createAgentEventStream();
	void runAgentLoop(prompts, context, config, (event) => stream.push(event), signal, streamFn).then((messages) =>
		stream.end(messages),
	);
	return stream;
}

/**
 * Continues a run from the existing context, whose last message must be a user or toolResult message
 * (for example a transcript loaded from storage, one whose failed assistant message was removed, or
 * one ending with the not-run results of a failed response's tool calls). Throws synchronously when
 * there is nothing to continue from.
 */
export function agentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
	assertCanContinue(context);
	const stream = createAgentEventStream();
	void runAgentLoopContinue(context, config, (event) => stream.push(event), signal, streamFn).then((messages) =>
		stream.end(messages),
	);
	return stream;
}

/** The promise form of `agentLoop`: events go to `emit` (awaited); resolves to the new messages, never rejects. */
export function runAgentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): Promise<AgentMessage[]> {
	const run = createRun({ ...context, messages: [...context.messages, ...prompts] }, config, emit, signal, streamFn);
	run.newMessages.push(...prompts);
	return runLoop(run, prompts);
}

/** The promise form of `agentLoopContinue`. Rejects only when there is nothing to continue from. */
export async function runAgentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): Promise<AgentMessage[]> {
	assertCanContinue(context);
	return runLoop(createRun({ ...context, messages: [...context.messages] }, config, emit, signal, streamFn), []);
}

/**
 * Resumes a run that paused for tool approvals (its agent_end carried `pausedRun`), in this process
 * or another one: `context.messages` must end with the paused assistant message. `decisions` are
 * folded into the paused state; calls left undecided keep waiting, and the run pauses again once the
 * rest of the batch is done. With `signal` already aborted, every waiting call gets an aborted
 * result. The results go into the transcript in call order, then the run goes on as usual.
 */
export function agentLoopAfterApprovals(
	context: AgentContext,
	pausedRun: PausedToolRun,
	decisions: ToolApprovalDecision[],
	config: AgentLoopConfig,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
	assertCanResume(context.messages, pausedRun);
	const paused = applyToolApprovalDecisions(pausedRun, decisions);
	const stream = createAgentEventStream();
	const run = createRun(
		{ ...context, messages: [...context.messages] },
		config,
		(event) => stream.push(event),
		signal,
		streamFn,
	);
	void runLoop(run, [], paused).then((messages) => stream.end(messages));
	return stream;
}

/** The promise form of `agentLoopAfterApprovals`. Rejects only when the paused run cannot be resumed. */
export async function runAgentLoopAfterApprovals(
	context: AgentContext,
	pausedRun: PausedToolRun,
	decisions: ToolApprovalDecision[],
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): Promise<AgentMessage[]> {
	assertCanResume(context.messages, pausedRun);
	const paused = applyToolApprovalDecisions(pausedRun, decisions);
	return runLoop(
		createRun({ ...context, messages: [...context.messages] }, config, emit, signal, streamFn),
		[],
		paused,
	);
}

function assertCanContinue(context: AgentContext): void {
	if (context.messages.length === 0) throw new Error("Cannot continue: no messages in context");
	const last = context.messages[context.messages.length - 1] as { role?: unknown };
	if (last.role === "assistant") throw new Error("Cannot continue from message role: assistant");
}

function createAgentEventStream(): EventStream<AgentEvent, AgentMessage[]> {
	return new EventStream<AgentEvent, AgentMessage[]>(
		(event) => event.type === "agent_end",
		(event) => (event.type === "agent_end" ? event.messages : []),
	);
}

// ---------------------------------------------------------------------------------------------
// One run
// ---------------------------------------------------------------------------------------------

/** One run's state: what it works on, and what it has open so a failure can close it. */
interface Run extends ToolCallRun {
	/** The caller's event sink. Every event goes through `emit`, which keeps the fields below. */
	sink: AgentEventSink;
	streamFn: StreamFn;
	/** The messages this run added, in transcript order (the result of the run). */
	newMessages: AgentMessage[];
	/** Steering or follow-up messages taken from their source and not yet in the transcript. */
	pending: AgentMessage[];
	/** The assistant message in the context, from its first event until its message_end. */
	streaming?: AssistantMessage;
	// What the events have opened, so a failure can close it with a well-formed event tree.
	turnOpen: boolean;
	/** The message whose message_start went out and whose message_end has not yet. */
	openMessage?: AgentMessage;
	/** Tool calls with a tool_execution_start but no tool_execution_end yet. */
	runningToolCalls: Set<string>;
	/** Tool calls of the current assistant message that had a tool_execution_start. */
	startedToolCalls: Set<string>;
	agentEnded: boolean;
	/** Set when the caller can interrupt the run for steering (config.listenForInterrupts). */
	interrupts?: SteeringInterrupts;
	/**
	 * True once the transcript holds an answer interrupted by steering, which the model is then shown
	 * rewritten (showInterruptedAnswers). Checked once per run, so a run without one scans no
	 * transcript per turn (a scan of 1,000 messages costs about 6 µs, measured on the 2-core machine).
	 */
	holdsInterruptedAnswer: boolean;
}

function createRun(
	context: AgentContext,
	config: AgentLoopConfig,
	sink: AgentEventSink,
	signal: AbortSignal | undefined,
	streamFn: StreamFn | undefined,
): Run {
	return {
		context,
		config,
		signal,
		sink: traceAgentEvents(sink, config.model),
		streamFn: streamFn ?? getDefaultStreamFn(),
		newMessages: [],
		pending: [],
		turnOpen: false,
		runningToolCalls: new Set(),
		startedToolCalls: new Set(),
		agentEnded: false,
		interrupts: config.listenForInterrupts ? new SteeringInterrupts(signal) : undefined,
		holdsInterruptedAnswer: context.messages.some(isInterruptedMessage),
	};
}

// On the per-turn path a sink's or callback's result is awaited only when it is a promise
// (`if (started) await started`): `await` on a plain value still costs a microtask, and a turn with a
// tool call emits a dozen events; this saves about 1 µs per turn (scripts/bench/agent-loop.bench.ts).
// A sink that returns a promise still gets back-pressure.

/**
 * Sends one event to the sink. What the event opens or closes is noted before it goes out, so a
 * sink that throws on it sees it closed exactly once by `failRun`.
 */
function emit(run: Run, event: AgentEvent): void | Promise<void> {
	switch (event.type) {
		case "turn_start":
			run.turnOpen = true;
			break;
		case "turn_end":
			run.turnOpen = false;
			break;
		case "message_start":
			run.openMessage = event.message;
			break;
		case "message_end":
			run.openMessage = undefined;
			break;
		case "tool_execution_start":
			run.runningToolCalls.add(event.toolCallId);
			run.startedToolCalls.add(event.toolCallId);
			break;
		case "tool_execution_end":
			run.runningToolCalls.delete(event.toolCallId);
			break;
		case "tool_approval_response":
			// A resumed call: its tool_execution_start went out in the run that paused.
			run.runningToolCalls.add(event.toolCallId);
			run.startedToolCalls.add(event.toolCallId);
			break;
		case "agent_end":
			run.agentEnded = true;
			break;
	}
	return run.sink(event);
}

/**
 * The double loop. Never rejects: every failure ends in `failRun`. With `resume`, the first turn
 * finishes the paused batch of the transcript's last assistant message instead of calling the model.
 */
async function runLoop(run: Run, prompts: AgentMessage[], resume?: PausedToolRun): Promise<AgentMessage[]> {
	const { config, context, signal } = run;
	let stopListening: (() => void) | undefined;
	try {
		const interrupts = run.interrupts;
		if (interrupts && config.listenForInterrupts) {
			const listen = config.listenForInterrupts;
			stopListening = callCallback("listenForInterrupts", () => listen(interrupts.interrupt)) as
				| (() => void)
				| undefined;
		}
		await emit(run, { type: "agent_start" });
		await emit(run, { type: "turn_start" });
		for (const prompt of prompts) {
			await emit(run, { type: "message_start", message: prompt });
			await emit(run, { type: "message_end", message: prompt });
		}
		// Polled before the first turn, so messages queued while the agent was idle go in at once.
		// (A resumed batch must end with its results first: steering is polled after it.)
		if (!resume) run.pending = await pollSteering(run);
		let firstTurn = true;
		let lastTurn: PrepareNextTurnContext | undefined;
		// finishTurn asked for one more LLM call, not yet given by tool results, steering or follow-ups.
		let continuationAsked = false;
		while (true) {
			let hadToolCalls = true;
			while (hadToolCalls || run.pending.length > 0) {
				if (!firstTurn) {
					if (lastTurn && config.prepareNextTurn) await applyNextTurnUpdate(run, lastTurn);
					const started = emit(run, { type: "turn_start" });
					if (started) await started;
				}
				firstTurn = false;
				// One at a time: each message leaves `pending` as it enters the transcript.
				for (let message = run.pending.shift(); message; message = run.pending.shift()) {
					await recordMessage(run, message);
				}

				const resumed = resume ? findLastAssistantMessage(context.messages) : undefined;
				if (!resumed && config.prepareRequest) await applyRequestUpdate(run);
				const assistantMessage = resumed ?? (await streamAssistantResponse(run));
				if (isInterruptedMessage(assistantMessage) && !resumed) {
					// Cut short by steering: none of its calls started, each is answered, the steering goes next.
					const toolResults = await addMissingToolResults(run, assistantMessage, SKIPPED_FOR_INTERRUPT_TEXT);
					await emit(run, { type: "turn_end", message: assistantMessage, toolResults });
					lastTurn = { message: assistantMessage, toolResults, context, newMessages: run.newMessages };
					run.pending = await pollSteering(run);
					hadToolCalls = false;
					continue;
				}
				if (assistantMessage.stopReason === "error" || assistantMessage.stopReason === "aborted") {
					// Its tool calls (complete or cut short) are never run, but each still gets its result.
					const toolResults = await addMissingToolResults(run, assistantMessage, notRunText(assistantMessage));
					// The run ends whatever finishTurn answers; it is told so that it sees every turn.
					await askFinishTurn(run, assistantMessage, toolResults);
					await emit(run, { type: "turn_end", message: assistantMessage, toolResults });
					await emit(run, { type: "agent_end", messages: run.newMessages });
					return run.newMessages;
				}

				const toolCalls = assistantMessage.content.filter((block): block is ToolCall => block.type === "toolCall");
				hadToolCalls = toolCalls.length > 0;
				let batch = NO_TOOL_CALLS;
				if (hadToolCalls && assistantMessage.stopReason === "length" && !resume) {
					// Cut off at the output limit: a call's arguments may be incomplete, so none runs. Each
					// gets an error result saying why, and the next turn lets the model try again.
					batch = {
						toolResults: await addMissingToolResults(run, assistantMessage, TRUNCATED_TOOL_CALL_TEXT),
						terminate: false,
					};
				} else if (hadToolCalls) {
					// A batch steering may interrupt runs its tools with a signal of its own (steering-interrupt.ts).
					if (run.interrupts && !resume) run.toolSignal = run.interrupts.beginStep();
					// One tool that must not overlap with others makes its whole batch sequential.
					// A sequential batch that paused resumes sequentially, whatever the configuration says now.
					const sequential =
						(config.toolExecution ?? "parallel") !== "parallel" ||
						toolCalls.some((toolCall) => findTool(context, toolCall.name)?.executionMode === "sequential") ||
						resume?.calls.some((call) => call.status === "recorded" || call.status === "not-started") === true;
					if (resume) {
						// The paused batch is finished first (approval/resume-batch.ts), then the run goes on.
						batch = await resumePausedBatch(
							run,
							resumeSteps(run, assistantMessage, toolCalls),
							assistantMessage,
							toolCalls,
							resume,
							sequential,
						);
					} else if (sequential) batch = await executeToolCallsInSequence(run, assistantMessage, toolCalls);
					else batch = await executeToolCallsInParallel(run, assistantMessage, toolCalls);
					endToolStep(run);
				}
				resume = undefined;
				// A batch that waits for approval has not finished its turn: finishTurn is asked when it has.
				const decision = batch.paused ? undefined : await askFinishTurn(run, assistantMessage, batch.toolResults);
				const ended = emit(run, { type: "turn_end", message: assistantMessage, toolResults: batch.toolResults });
				if (ended) await ended;
				lastTurn = { message: assistantMessage, toolResults: batch.toolResults, context, newMessages: run.newMessages };
				if (batch.paused) {
					// Calls wait for approval: the run ends here, with the state that resumes it.
					await emit(run, { type: "agent_end", messages: run.newMessages, pausedRun: batch.paused });
					return run.newMessages;
				}

				// Steering messages already taken from the queue are never dropped: while they wait, the
				// run goes on so the model answers them, even if a tool or the hook asked to stop.
				if (run.pending.length === 0) {
					continuationAsked = decision?.action === "continue";
					let stop = decision?.action === "end" || (batch.terminate && !continuationAsked);
					const shouldStopAfterTurn = config.shouldStopAfterTurn;
					if (!stop && shouldStopAfterTurn) {
						const turn = {
							message: assistantMessage,
							toolResults: batch.toolResults,
							context,
							newMessages: run.newMessages,
						};
						stop = (await callCallback("shouldStopAfterTurn", () => shouldStopAfterTurn(turn), signal)) === true;
					}
					if (stop) {
						await emit(run, { type: "agent_end", messages: run.newMessages });
						return run.newMessages;
					}
					const polled = pollSteering(run);
					run.pending = isPromiseLike(polled) ? await polled : polled;
					// A terminating batch asked to stop; finishTurn's "continue" gives it one more call.
					if (batch.terminate) hadToolCalls = false;
				}
				if (hadToolCalls || run.pending.length > 0) continuationAsked = false;
			}
			// The agent would stop here: follow-ups, if any, start the turns again.
			run.pending = await pollMessages("getFollowUpMessages", config.getFollowUpMessages, signal);
			if (run.pending.length === 0) {
				// finishTurn asked for one more call and nothing else gave one: a turn on the current context.
				if (!continuationAsked) break;
				continuationAsked = false;
			}
		}
		await emit(run, { type: "agent_end", messages: run.newMessages });
		return run.newMessages;
	} catch (error) {
		endToolStep(run);
		await failRun(run, error);
		return run.newMessages;
	} finally {
		run.interrupts?.dispose();
		if (stopListening) {
			try {
				stopListening();
			} catch {
				// The run has ended: a failing unsubscribe has nothing left to fail.
			}
		}
	}
}

/** Polls the steering queue. What is queued now goes next, so an interrupt asked for before is answered. */
function pollSteering(run: Run): AgentMessage[] | Promise<AgentMessage[]> {
	if (run.interrupts) run.interrupts.requested = false;
	return pollMessages("getSteeringMessages", run.config.getSteeringMessages, run.signal);
}

/** Ends the tool batch's interruptible step, if one is open. */
function endToolStep(run: Run): void {
	if (run.toolSignal === undefined) return;
	run.interrupts?.endStep();
	run.toolSignal = undefined;
}

/** Whether the tool batch in flight was cut short by steering (its signal aborted, the run's not). */
function batchInterrupted(run: Run): boolean {
	return run.toolSignal !== undefined && run.interrupts?.stepInterrupted === true;
}

/**
 * Asks prepareNextTurn for changes and applies them to the run: a new model or thinking level for
 * the next calls, context fields replaced in place (the caller's context object stays the same), and
 * messages queued ahead of any steering so they enter the transcript first.
 */
async function applyNextTurnUpdate(run: Run, turn: PrepareNextTurnContext): Promise<void> {
	const prepareNextTurn = run.config.prepareNextTurn;
	if (!prepareNextTurn) return;
	const update = await callCallback("prepareNextTurn", () => prepareNextTurn(turn), run.signal);
	if (!update) return;
	applyTurnUpdate(run, update);
	if (update.messages && update.messages.length > 0) run.pending.unshift(...update.messages);
}

/** A new model or thinking level for the next calls, and context fields replaced in place. */
function applyTurnUpdate(run: Run, update: AgentRequestUpdate): void {
	if (update.model !== undefined || update.thinkingLevel !== undefined) {
		const config = Object.assign({}, run.config);
		if (update.model !== undefined) config.model = update.model;
		if (update.thinkingLevel !== undefined) {
			config.reasoning = update.thinkingLevel === "off" ? undefined : update.thinkingLevel;
		}
		run.config = config;
	}
	if (update.context) {
		const { systemPrompt, messages, tools } = update.context;
		if (systemPrompt !== undefined) run.context.systemPrompt = systemPrompt;
		if (messages !== undefined) {
			run.context.messages = messages;
			run.holdsInterruptedAnswer = messages.some(isInterruptedMessage);
		}
		if (tools !== undefined) run.context.tools = tools;
	}
}

/**
 * Asks prepareRequest for changes to the call about to be made, and applies them as
 * prepareNextTurn's are (without messages: the queues were already taken).
 */
async function applyRequestUpdate(run: Run): Promise<void> {
	const prepareRequest = run.config.prepareRequest;
	if (!prepareRequest) return;
	const request: PrepareRequestContext = {
		context: run.context,
		model: run.config.model,
		thinkingLevel: run.config.reasoning ?? "off",
	};
	const update = await callCallback("prepareRequest", () => prepareRequest(request, run.signal), run.signal);
	if (update) applyTurnUpdate(run, update);
}

/** Asks finishTurn about the turn that just ended; undefined without the hook or an answer. */
async function askFinishTurn(
	run: Run,
	message: AssistantMessage,
	toolResults: ToolResultMessage[],
): Promise<AgentTurnDecision | undefined> {
	const finishTurn = run.config.finishTurn;
	if (!finishTurn) return undefined;
	const turn = { message, toolResults, context: run.context, newMessages: run.newMessages };
	const decision = await callCallback("finishTurn", () => finishTurn(turn, run.signal), run.signal);
	return decision ?? undefined;
}

/** Adds a steering, follow-up or toolResult message to the transcript, with its events. */
async function recordMessage(run: Run, message: AgentMessage): Promise<void> {
	run.context.messages.push(message);
	run.newMessages.push(message);
	const started = emit(run, { type: "message_start", message });
	if (started) await started;
	const ended = emit(run, { type: "message_end", message });
	if (ended) await ended;
}

// ---------------------------------------------------------------------------------------------
// One assistant response
// ---------------------------------------------------------------------------------------------

/**
 * transformContext → convertToLlm → key → stream function; emits the message events and leaves
 * the final message in the context. Throws only for a failing callback or sink (see `failRun`).
 */
async function streamAssistantResponse(run: Run): Promise<AssistantMessage> {
	const { config, signal } = run;
	// Tool call ids are unique within one assistant message only: a new message starts a new set.
	run.startedToolCalls.clear();
	if (signal?.aborted) return finishAssistantMessage(run, createErrorMessage(config.model, "aborted", ABORTED_TEXT));

	let messages = run.context.messages;
	const transformContext = config.transformContext;
	if (transformContext) {
		messages = await callCallback("transformContext", () => transformContext(messages, signal), signal);
	}
	const converted = callCallback("convertToLlm", () => config.convertToLlm(messages), signal);
	const llmMessages = isPromiseLike(converted) ? await converted : converted;
	const llmContext: Context = { systemPrompt: run.context.systemPrompt, messages: llmMessages };
	if (run.context.tools) llmContext.tools = run.context.tools;
	const getApiKey = config.getApiKey;
	const resolvedKey = getApiKey
		? await callCallback("getApiKey", () => getApiKey(config.model.provider), signal)
		: undefined;
	// Answers cut short by steering are sent as what they said so far (steering-interrupt.ts).
	if (run.holdsInterruptedAnswer) llmContext.messages = showInterruptedAnswers(llmContext.messages);
	// Interrupted while the call was prepared: the steering goes next, the model is not called.
	const interrupts = run.interrupts;
	if (interrupts?.requested && !signal?.aborted) {
		interrupts.stepInterrupted = true;
		return finishAssistantMessage(run, createErrorMessage(config.model, "aborted", INTERRUPTED_BY_STEERING_TEXT));
	}
	// Every config field reaches the stream function as an option (sessionId, onPayload, transport, …).
	// Object.assign, not `{ ...config, apiKey, signal }`: on Node 20 a spread followed by more keys
	// takes a slow path, about 2.5 µs per turn for a two-field config and 10 µs for the Agent's.
	const options: SimpleStreamOptions = Object.assign({}, config);
	options.apiKey = resolvedKey ?? config.apiKey;
	// The call's own signal when steering may interrupt it: it aborts with the run's, or on an interrupt.
	const callSignal = interrupts ? interrupts.beginStep() : signal;
	options.signal = callSignal;
	try {
		return await streamCall(run, llmContext, options, callSignal);
	} finally {
		interrupts?.endStep();
	}
}

/** Calls the stream function and follows its stream to the final message. */
async function streamCall(
	run: Run,
	llmContext: Context,
	options: SimpleStreamOptions,
	signal: AbortSignal | undefined,
): Promise<AssistantMessage> {
	const config = run.config;
	// Waiting for the stream itself ends on the run's abort only: an interrupted call still returns
	// its stream, which ends as aborted with what was said so far.
	const called = callCallback(
		"streamFn",
		() => inTurnTrace(run.sink, () => run.streamFn(config.model, llmContext, options)),
		run.signal,
	);
	const stream = isPromiseLike(called) ? await called : called;
	if (!stream || typeof (stream as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] !== "function") {
		throw new Error("streamFn must return an AssistantMessageEventStream");
	}

	// After an abort the stream function gets a grace period to end the stream itself (usage included);
	// past it, the loop keeps what arrived and stops waiting for a stream that ignores the abort.
	const abort = signal ? new AbortWatch(signal, ABORT_GRACE_MS) : undefined;
	try {
		const iterator = stream[Symbol.asyncIterator]();
		while (true) {
			const next = abort ? await abort.race(iterator.next()) : await iterator.next();
			if (next === ABORTED) {
				abandonIterator(iterator);
				return await finishAssistantMessage(run, abortedMessage(run));
			}
			if (next.done) {
				// Ended without done or error: result() says how. A foreign stream's may never settle.
				const result = abort ? await abort.race(stream.result()) : await stream.result();
				return await finishAssistantMessage(run, result === ABORTED ? abortedMessage(run) : result);
			}
			const event = next.value;
			if (event.type === "done") return await finishAssistantMessage(run, event.message);
			if (event.type === "error") return await finishAssistantMessage(run, event.error);
			if (!run.streaming) {
				// The partial goes into the context once; providers mutate it in place afterwards.
				run.streaming = event.partial;
				run.context.messages.push(event.partial);
				const started = emit(run, { type: "message_start", message: { ...event.partial } });
				if (started) await started;
			}
			// Each update carries a snapshot of the partial, so a listener that keeps it sees it unchanged.
			if (event.type !== "start") {
				const updated = emit(run, {
					type: "message_update",
					message: { ...event.partial },
					assistantMessageEvent: event,
				});
				if (updated) await updated;
			}
		}
	} finally {
		abort?.dispose();
	}
}

/**
 * Puts the final message where the partial was (or appends it, with a message_start when none went
 * out) and emits message_end.
 */
async function finishAssistantMessage(run: Run, last: AssistantMessage): Promise<AssistantMessage> {
	// A call steering cut short ends as aborted, like any abort: it is marked so the loop goes on.
	const final =
		last.stopReason === "aborted" && run.interrupts?.stepInterrupted && !run.signal?.aborted
			? { ...last, errorMessage: INTERRUPTED_BY_STEERING_TEXT }
			: last;
	if (final !== last || isInterruptedMessage(final)) run.holdsInterruptedAnswer = true;
	const messages = run.context.messages;
	const index = run.streaming ? messages.lastIndexOf(run.streaming) : -1;
	if (index === -1) messages.push(final);
	else messages[index] = final;
	if (!run.streaming) {
		// Open from here on: a run failing on this message_start closes it as failed.
		run.streaming = final;
		const started = emit(run, { type: "message_start", message: { ...final } });
		if (started) await started;
	}
	run.streaming = undefined;
	run.newMessages.push(final);
	const ended = emit(run, { type: "message_end", message: final });
	if (ended) await ended;
	return final;
}

/** What arrived before the abort, ended as aborted. */
function abortedMessage(run: Run): AssistantMessage {
	return createErrorMessage(run.streaming ?? run.config.model, "aborted", ABORTED_TEXT);
}

/** Asks an abandoned stream to stop; whatever its return() throws or rejects with is of no interest now. */
function abandonIterator(iterator: AsyncIterator<unknown>): void {
	try {
		const returned = iterator.return?.();
		if (returned) Promise.resolve(returned).catch(() => {});
	} catch {}
}

// ---------------------------------------------------------------------------------------------
// The tool calls of one assistant message
// ---------------------------------------------------------------------------------------------
// Every call gets exactly one tool_execution_start, one tool_execution_end and one toolResult
// message, the messages in call order, whatever throws, blocks or is aborted. Steering found while
// the calls run goes into `run.pending`, so it is injected before the next LLM call.

/** What a call of a batch is between preparation and its outcome. */
type ToolCallEntry = PreparedToolCall | ToolOutcome | WaitingToolCall;

/**
 * Prepares a call (prepareToolCall), then asks the approval gate; a call that must wait is announced
 * with tool_approval_request. Synchronous when nothing on the way returns a promise.
 */
function prepareGatedToolCall(
	run: Run,
	assistantMessage: AssistantMessage,
	toolCall: ToolCall,
): ToolCallEntry | Promise<ToolCallEntry> {
	const preparing = prepareToolCall(run, assistantMessage, toolCall);
	if (isPromiseLike(preparing))
		return preparing.then((entry) => gatePreparedToolCall(run, assistantMessage, toolCall, entry));
	return gatePreparedToolCall(run, assistantMessage, toolCall, preparing);
}

function gatePreparedToolCall(
	run: Run,
	assistantMessage: AssistantMessage,
	toolCall: ToolCall,
	entry: PreparedToolCall | ToolOutcome,
): ToolCallEntry | Promise<ToolCallEntry> {
	// Without an approval policy or flag there is nothing to ask: no closure, no promise per call.
	if (entry.kind !== "ready" || (!run.config.approvalPolicy && !entry.tool.requiresApproval)) return entry;
	const gated = gateToolCall(run, assistantMessage, toolCall, entry);
	return isPromiseLike(gated)
		? gated.then((value) => announceWaitingToolCall(run, toolCall, value))
		: announceWaitingToolCall(run, toolCall, gated);
}

/** Emits tool_approval_request for a call that must wait. */
function announceWaitingToolCall(
	run: Run,
	toolCall: ToolCall,
	entry: ToolCallEntry,
): ToolCallEntry | Promise<ToolCallEntry> {
	if (entry.kind !== "waiting") return entry;
	const sent = emit(run, approvalRequestEvent(toolCall, entry.args));
	return sent ? sent.then(() => entry) : entry;
}

const NO_TOOL_CALLS: ToolBatchResult = Object.freeze({ toolResults: [], terminate: false }) as ToolBatchResult;

/**
 * Each call: start → prepare → execute → end → toolResult message → steering poll. From `from` on,
 * with the results and outcomes so far: a resumed sequential batch goes on here.
 */
async function executeToolCallsInSequence(
	run: Run,
	assistantMessage: AssistantMessage,
	toolCalls: ToolCall[],
	from = 0,
	toolResults: ToolResultMessage[] = [],
	outcomes: ToolOutcome[] = [],
): Promise<ToolBatchResult> {
	for (let index = from; index < toolCalls.length; index++) {
		const toolCall = toolCalls[index];
		const started = emit(run, toolStartEvent(toolCall));
		if (started) await started;
		let entry: ToolCallEntry;
		if (batchInterrupted(run)) entry = errorOutcome(SKIPPED_FOR_INTERRUPT_TEXT);
		else if (run.pending.length > 0) entry = errorOutcome(SKIPPED_FOR_STEERING_TEXT);
		else if (run.signal?.aborted) entry = errorOutcome(ABORTED_TOOL_TEXT);
		else {
			const preparing = prepareGatedToolCall(run, assistantMessage, toolCall);
			entry = isPromiseLike(preparing) ? await preparing : preparing;
		}
		if (entry.kind === "waiting") {
			// The calls after this one must not run before it: the batch pauses here.
			const args = entry.args;
			const calls = toolCalls.map((call, position): PausedToolCall => {
				if (position < index) return { status: "recorded", toolCallId: call.id, toolName: call.name };
				if (position > index) return { status: "not-started", toolCallId: call.id, toolName: call.name };
				return waitingCall(call, args);
			});
			return { toolResults, terminate: false, paused: createPausedToolRun(assistantMessage, calls) };
		}
		const outcome =
			entry.kind === "ready"
				? await executePreparedToolCall(run, assistantMessage, toolCall, entry, (event) => emit(run, event))
				: entry;
		const ended = emit(run, toolEndEvent(toolCall, outcome));
		if (ended) await ended;
		const message = createToolResultMessage(toolCall, outcome);
		outcomes.push(outcome);
		toolResults.push(message);
		await recordMessage(run, message);
		if (run.pending.length === 0) {
			const polled = pollSteeringDuringToolCalls(run);
			run.pending = isPromiseLike(polled) ? await polled : polled;
		}
	}
	return { toolResults, terminate: allTerminate(outcomes) };
}

/**
 * Starts and prepares every call in call order (so beforeToolCall hooks see a stable order), runs
 * the prepared ones concurrently, emits each tool_execution_end as its call completes, then the
 * toolResult messages in call order.
 */
async function executeToolCallsInParallel(
	run: Run,
	assistantMessage: AssistantMessage,
	toolCalls: ToolCall[],
): Promise<ToolBatchResult> {
	const prepared: ToolCallEntry[] = [];
	for (const toolCall of toolCalls) {
		const started = emit(run, toolStartEvent(toolCall));
		if (started) await started;
		if (batchInterrupted(run)) prepared.push(errorOutcome(SKIPPED_FOR_INTERRUPT_TEXT));
		else if (run.pending.length > 0) prepared.push(errorOutcome(SKIPPED_FOR_STEERING_TEXT));
		else if (run.signal?.aborted) prepared.push(errorOutcome(ABORTED_TOOL_TEXT));
		else {
			const preparing = prepareGatedToolCall(run, assistantMessage, toolCall);
			prepared.push(isPromiseLike(preparing) ? await preparing : preparing);
			const polled = pollSteeringDuringToolCalls(run);
			run.pending = isPromiseLike(polled) ? await polled : polled;
		}
	}
	// The user spoke before anything ran: none of the prepared calls runs.
	const skipText = batchInterrupted(run)
		? SKIPPED_FOR_INTERRUPT_TEXT
		: run.pending.length > 0
			? SKIPPED_FOR_STEERING_TEXT
			: undefined;

	// The calls share one sink: their events are chained so it sees one at a time, and each
	// tool_execution_end goes out as soon as its call is done.
	// (A batch of one call has nothing to interleave with: it emits directly, saving a promise per event.)
	let chain: Promise<void> = Promise.resolve();
	const emitInTurn =
		toolCalls.length === 1
			? (event: AgentEvent) => emit(run, event)
			: (event: AgentEvent) => {
					chain = chain.then(() => emit(run, event));
					return chain;
				};
	// A call waiting for approval has no outcome (undefined) until it is decided.
	const settled = await Promise.all(
		toolCalls.map(async (toolCall, index): Promise<ToolOutcome | undefined> => {
			const entry = prepared[index];
			let outcome: ToolOutcome;
			if (entry.kind === "done") outcome = entry;
			else if (skipText !== undefined) outcome = errorOutcome(skipText);
			else if (entry.kind === "waiting") return undefined;
			else outcome = await executePreparedToolCall(run, assistantMessage, toolCall, entry, emitInTurn);
			const ended = emitInTurn(toolEndEvent(toolCall, outcome));
			if (ended) await ended;
			return outcome;
		}),
	);
	if (settled.includes(undefined)) {
		const interrupted = batchInterrupted(run);
		if (!run.signal?.aborted && !interrupted) {
			// Calls wait for approval: the outcomes so far are held in the paused state, none enters the
			// transcript yet, so the results keep call order when the batch completes.
			const calls = toolCalls.map((toolCall, index): PausedToolCall => {
				const outcome = settled[index];
				if (!outcome) return waitingCall(toolCall, (prepared[index] as WaitingToolCall).args);
				const { result, isError } = outcome;
				return { status: "done", toolCallId: toolCall.id, toolName: toolCall.name, result, isError };
			});
			return { toolResults: [], terminate: false, paused: createPausedToolRun(assistantMessage, calls) };
		}
		// Aborted (or interrupted by steering) while calls waited: each gets the result saying so.
		const waitedText = interrupted && !run.signal?.aborted ? SKIPPED_FOR_INTERRUPT_TEXT : ABORTED_WHILE_WAITING_TEXT;
		for (let index = 0; index < toolCalls.length; index++) {
			if (settled[index]) continue;
			settled[index] = errorOutcome(waitedText);
			await emit(run, toolEndEvent(toolCalls[index], settled[index] as ToolOutcome));
		}
	}
	const outcomes = settled as ToolOutcome[];

	const toolResults: ToolResultMessage[] = [];
	for (let index = 0; index < toolCalls.length; index++) {
		const message = createToolResultMessage(toolCalls[index], outcomes[index]);
		toolResults.push(message);
		await recordMessage(run, message);
	}
	if (run.pending.length === 0) run.pending = await pollSteeringDuringToolCalls(run);
	return { toolResults, terminate: allTerminate(outcomes) };
}

/** What approval/resume-batch.ts needs of this run: its events, transcript, steering and the sequential batch. */
function resumeSteps(run: Run, assistantMessage: AssistantMessage, toolCalls: ToolCall[]): ResumeBatchSteps {
	return {
		emit: (event) => emit(run, event),
		record: (message) => recordMessage(run, message),
		pollSteering: async () => {
			if (run.pending.length === 0) run.pending = await pollSteeringDuringToolCalls(run);
		},
		continueInSequence: (index, toolResults, outcomes) =>
			executeToolCallsInSequence(run, assistantMessage, toolCalls, index, toolResults, outcomes),
	};
}

/** With "after-each-tool", or once steering interrupted the batch (whatever the check), polls steering. */
function pollSteeringDuringToolCalls(run: Run): AgentMessage[] | Promise<AgentMessage[]> {
	if ((run.config.steeringCheck ?? "after-each-tool") !== "after-each-tool" && !batchInterrupted(run)) return [];
	return pollSteering(run);
}

// ---------------------------------------------------------------------------------------------
// Failure: the package's one never-throw boundary
// ---------------------------------------------------------------------------------------------

/**
 * Closes whatever the run had open (a message, tool calls without a result, the turn), keeps the
 * messages already taken from the queues, and ends with an error (or aborted) assistant message,
 * turn_end and agent_end. The sink may be what failed: its errors are ignored from here on, and
 * nothing reaches it after agent_end.
 */
async function failRun(run: Run, error: unknown): Promise<void> {
	// agent_end already went out (the sink threw on it): the run is over, nothing more is sent.
	if (run.agentEnded) return;
	const failedSink = run.sink;
	run.sink = async (event) => {
		try {
			await failedSink(event);
		} catch {}
	};

	const reason = run.signal?.aborted ? "aborted" : "error";
	const text = formatThrownValue(error);
	const notRun = `Tool call was not run: the run failed (${text})`;
	// An open assistant message is closed below by its error message; any other open message here.
	if (run.openMessage && !run.streaming) await emit(run, { type: "message_end", message: run.openMessage });
	const lastAssistant = findLastAssistantMessage(run.context.messages);
	if (lastAssistant && lastAssistant !== run.streaming) await addMissingToolResults(run, lastAssistant, notRun);
	if (!run.turnOpen) await emit(run, { type: "turn_start" });
	// Messages already taken from the queues are not lost: they go in before the error message.
	for (let message = run.pending.shift(); message; message = run.pending.shift()) await recordMessage(run, message);
	const message = await finishAssistantMessage(
		run,
		createErrorMessage(run.streaming ?? run.config.model, reason, text),
	);
	// The error message keeps what was streamed, tool calls included: they are not run either.
	const toolResults = await addMissingToolResults(run, message, notRun);
	await emit(run, { type: "turn_end", message, toolResults });
	await emit(run, { type: "agent_end", messages: run.newMessages });
	// Tool calls still running (a parallel batch the sink failed in) must not reach the sink now.
	run.sink = () => {};
}

/**
 * The error result of the tool calls of an assistant message that ended in error or was aborted:
 * the calls never run, but every API wants each call answered, and so do UIs waiting on them.
 */
function notRunText(message: AssistantMessage): string {
	if (message.stopReason === "aborted") return "Tool call was not run: the response was aborted";
	return `Tool call was not run: the response failed (${message.errorMessage ?? "unknown error"})`;
}

function findLastAssistantMessage(messages: AgentMessage[]): AssistantMessage | undefined {
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index] as { role?: unknown } | null;
		if (message?.role === "assistant") return message as AssistantMessage;
	}
	return undefined;
}

/**
 * Every tool call in the transcript gets exactly one result: each call of `assistant` without a
 * result after it gets the error result `text`, with its tool_execution_start and _end, in call
 * order. Used when the calls will not run: the response failed or was aborted, or the run failed
 * in the middle of a batch. Returns the results it added.
 */
async function addMissingToolResults(
	run: Run,
	assistant: AssistantMessage,
	text: string,
): Promise<ToolResultMessage[]> {
	const messages = run.context.messages;
	const answered = new Set<string>();
	for (let index = messages.lastIndexOf(assistant) + 1; index < messages.length; index++) {
		const message = messages[index] as { role?: unknown } | null;
		if (message?.role === "toolResult") answered.add((message as ToolResultMessage).toolCallId);
	}
	const added: ToolResultMessage[] = [];
	for (const block of assistant.content) {
		if (block.type !== "toolCall" || answered.has(block.id)) continue;
		const outcome = errorOutcome(text);
		// A call whose tool_execution_end already went out (the sink threw on it) gets no second one.
		if (!run.startedToolCalls.has(block.id)) await emit(run, toolStartEvent(block));
		if (run.runningToolCalls.has(block.id)) await emit(run, toolEndEvent(block, outcome));
		const result = createToolResultMessage(block, outcome);
		added.push(result);
		await recordMessage(run, result);
	}
	return added;
}

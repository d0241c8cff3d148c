// The agent loop: pure functions, no hidden state. One run, top to bottom:
//
//   agent_start → turn_start → prompts → [steering] → assistant response → tool calls → turn_end
//     → more turns while there were tool calls or steering messages
//     → follow-ups restart the turns when the agent would otherwise stop
//   → agent_end (always, even when a callback throws or the run is aborted)
import {
	type AssistantMessage,
	type AssistantMessageEvent,
	type Context,
	createEmptyAssistantMessage,
	EventStream,
	type SimpleStreamOptions,
	streamSimple,
	type ToolCall,
	type ToolResultMessage,
} from "@keel/ai";
import { ABORTED, AbortWatch, isPromiseLike, pollMessages, step } from "./callback-step.js";
import { errorText } from "./error-text.js";
import { executeToolCalls } from "./tool-execution.js";
import type { AgentContext, AgentEvent, AgentEventSink, AgentLoopConfig, AgentMessage, StreamFn } from "./types.js";

/**
 * How long the loop waits, after an abort, for the stream function to end its stream itself
 * (a provider ends with its own `aborted` message, usage included) before it stops waiting.
 */
const ABORT_GRACE_MS = 100;

export const ABORTED_BEFORE_CALL_TEXT = "Request was aborted";

/** Starts a run with new prompts. The caller's context is not mutated. */
export function agentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
	const stream = createAgentEventStream();
	void runAgentLoop(prompts, context, config, (event) => stream.push(event), signal, streamFn).then(
		(messages) => stream.end(messages),
		() => stream.end([]),
	);
	return stream;
}

/**
 * Continues a run from the existing context, whose last message must be a user or toolResult message
 * (for example a transcript loaded from storage, or one whose failed assistant message was removed). Throws
 * synchronously when there is nothing to continue from.
 */
export function agentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
	assertCanContinue(context);
	const stream = createAgentEventStream();
	void runAgentLoopContinue(context, config, (event) => stream.push(event), signal, streamFn).then(
		(messages) => stream.end(messages),
		() => stream.end([]),
	);
	return stream;
}

/** The promise form of `agentLoop`: events go to `emit` (awaited); resolves to the new messages. */
export function runAgentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): Promise<AgentMessage[]> {
	const runContext: AgentContext = { ...context, messages: [...context.messages, ...prompts] };
	return runLoop(runContext, prompts, config, emit, signal, streamFn);
}

/** The promise form of `agentLoopContinue`. Rejects when there is nothing to continue from. */
export async function runAgentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): Promise<AgentMessage[]> {
	assertCanContinue(context);
	return runLoop({ ...context, messages: [...context.messages] }, [], config, emit, signal, streamFn);
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
//
// The per-turn path awaits a sink or callback result only when it is a promise (`if (pending) await
// pending`): an `await` on a plain value still costs a promise and a microtask, and a turn emits about a
// dozen events. A sink that returns a promise still gets back-pressure, exactly as before.

/** What the run has open, so a failure anywhere can close it with a well-formed event tree. */
interface RunState {
	context: AgentContext;
	newMessages: AgentMessage[];
	turnOpen: boolean;
	/** The assistant message being streamed (already in the context), if any. */
	streaming?: AssistantMessage;
	/** Tool calls with a tool_execution_start but no tool_execution_end yet. */
	runningToolCalls: Set<string>;
	/** Tool calls of the current batch that had a tool_execution_start (even if they ended since). */
	startedToolCalls: Set<string>;
	/** Set just before agent_end is emitted: a sink that throws on it must not get a second one. */
	agentEnded: boolean;
	/** A non-assistant message whose message_start went out and whose message_end has not yet. */
	openMessage?: AgentMessage;
	/** Steering or follow-up messages taken from their source and not yet in the transcript. */
	pending: AgentMessage[];
	/** The sink for tool events (tracks `runningToolCalls`) and the result recorder: made once per run. */
	toolSink: AgentEventSink;
	recordToolResult: (message: ToolResultMessage) => void | Promise<void>;
}

async function runLoop(
	context: AgentContext,
	prompts: AgentMessage[],
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal: AbortSignal | undefined,
	streamFn: StreamFn | undefined,
): Promise<AgentMessage[]> {
	const run: RunState = {
		context,
		newMessages: [...prompts],
		turnOpen: false,
		runningToolCalls: new Set(),
		startedToolCalls: new Set(),
		agentEnded: false,
		pending: [],
		toolSink: (event) => {
			if (event.type === "tool_execution_start") {
				run.runningToolCalls.add(event.toolCallId);
				run.startedToolCalls.add(event.toolCallId);
			} else if (event.type === "tool_execution_end") run.runningToolCalls.delete(event.toolCallId);
			return emit(event);
		},
		recordToolResult: (message) => recordMessage(run, emit, message),
	};
	try {
		await emit({ type: "agent_start" });
		// Open before the event goes out: a sink that throws on turn_start must not get a second one.
		run.turnOpen = true;
		await emit({ type: "turn_start" });
		for (const prompt of prompts) await emitMessage(run, emit, prompt);
		// Polled before the first turn, so messages queued while the agent was idle go in at once.
		run.pending = await pollMessages("getSteeringMessages", config.getSteeringMessages, signal);
		let firstTurn = true;
		while (true) {
			let hadToolCalls = true;
			while (hadToolCalls || run.pending.length > 0) {
				if (!firstTurn) {
					run.turnOpen = true;
					const started = emit({ type: "turn_start" });
					if (started) await started;
				}
				firstTurn = false;
				// One at a time: each message leaves `pending` as it enters the transcript.
				for (let message = run.pending.shift(); message; message = run.pending.shift()) {
					const recorded = recordMessage(run, emit, message);
					if (recorded) await recorded;
				}

				const assistantMessage = await streamAssistantResponse(run, config, emit, signal, streamFn);
				if (assistantMessage.stopReason === "error" || assistantMessage.stopReason === "aborted") {
					await endTurn(run, emit, assistantMessage, []);
					await endRun(run, emit);
					return run.newMessages;
				}

				const toolCalls = assistantMessage.content.filter((block): block is ToolCall => block.type === "toolCall");
				hadToolCalls = toolCalls.length > 0;
				let toolResults: ToolResultMessage[] = [];
				let terminate = false;
				if (hadToolCalls) {
					const outcome = await executeToolCalls({
						assistantMessage,
						toolCalls,
						context: run.context,
						config,
						signal,
						emit: run.toolSink,
						recordToolResult: run.recordToolResult,
					});
					toolResults = outcome.toolResults;
					run.pending = outcome.steeringMessages;
					terminate = outcome.terminate;
				}
				const ended = endTurn(run, emit, assistantMessage, toolResults);
				if (ended) await ended;

				// Steering messages already taken from the queue are never dropped: while they wait, the
				// run goes on so the model answers them, even if a tool or the hook asked to stop.
				let stopRequested = run.pending.length === 0 && terminate;
				if (!stopRequested && run.pending.length === 0 && config.shouldStopAfterTurn) {
					stopRequested = await shouldStop(config, run, assistantMessage, toolResults, signal);
				}
				if (stopRequested) {
					await endRun(run, emit);
					return run.newMessages;
				}
				if (run.pending.length === 0) {
					const polled = pollMessages("getSteeringMessages", config.getSteeringMessages, signal);
					run.pending = isPromiseLike(polled) ? await polled : polled;
				}
			}
			// The agent would stop here: follow-ups, if any, start the turns again.
			run.pending = await pollMessages("getFollowUpMessages", config.getFollowUpMessages, signal);
			if (run.pending.length === 0) break;
		}
		await endRun(run, emit);
		return run.newMessages;
	} catch (error) {
		await failRun(run, config, emit, signal, error);
		return run.newMessages;
	}
}

function endRun(run: RunState, emit: AgentEventSink): void | Promise<void> {
	run.agentEnded = true;
	return emit({ type: "agent_end", messages: run.newMessages });
}

function endTurn(
	run: RunState,
	emit: AgentEventSink,
	message: AssistantMessage,
	toolResults: ToolResultMessage[],
): void | Promise<void> {
	run.turnOpen = false;
	return emit({ type: "turn_end", message, toolResults });
}

function recordMessage(run: RunState, emit: AgentEventSink, message: AgentMessage): void | Promise<void> {
	run.context.messages.push(message);
	run.newMessages.push(message);
	return emitMessage(run, emit, message);
}

/**
 * message_start then message_end; a promise only when the sink returned one. The message stays in
 * `openMessage` between the two, so a run failing in between still closes it.
 */
function emitMessage(run: RunState, emit: AgentEventSink, message: AgentMessage): void | Promise<void> {
	run.openMessage = message;
	const started = emit({ type: "message_start", message });
	if (started) return Promise.resolve(started).then(() => endMessage(run, emit, message));
	return endMessage(run, emit, message);
}

function endMessage(run: RunState, emit: AgentEventSink, message: AgentMessage): void | Promise<void> {
	run.openMessage = undefined;
	return emit({ type: "message_end", message });
}

async function shouldStop(
	config: AgentLoopConfig,
	run: RunState,
	message: AssistantMessage,
	toolResults: ToolResultMessage[],
	signal: AbortSignal | undefined,
): Promise<boolean> {
	if (!config.shouldStopAfterTurn) return false;
	const stop = await step(
		"shouldStopAfterTurn",
		() => config.shouldStopAfterTurn?.({ message, toolResults, context: run.context, newMessages: run.newMessages }),
		signal,
	);
	return stop === true;
}

// ---------------------------------------------------------------------------------------------
// One assistant response
// ---------------------------------------------------------------------------------------------

/** A provider event that carries the partial message (every one but done and error). */
type PartialMessageEvent = Exclude<AssistantMessageEvent, { type: "done" } | { type: "error" }>;

/**
 * transformContext → convertToLlm → key → stream function; emits the message events and leaves
 * the final message in the context. Throws only for a failing callback (handled by `failRun`).
 */
async function streamAssistantResponse(
	run: RunState,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal: AbortSignal | undefined,
	streamFn: StreamFn | undefined,
): Promise<AssistantMessage> {
	// Tool call ids are unique within one assistant message only: a new message starts a new set.
	run.startedToolCalls.clear();
	if (signal?.aborted) {
		const message = endedMessage(config, "aborted", ABORTED_BEFORE_CALL_TEXT);
		await recordFinalMessage(run, emit, message);
		return message;
	}

	let messages = run.context.messages;
	const transformContext = config.transformContext;
	if (transformContext) messages = await step("transformContext", () => transformContext(messages, signal), signal);
	const converted = step("convertToLlm", () => config.convertToLlm(messages), signal);
	const llmMessages = isPromiseLike(converted) ? await converted : converted;
	const llmContext: Context = { systemPrompt: run.context.systemPrompt, messages: llmMessages };
	if (run.context.tools) llmContext.tools = run.context.tools;
	const getApiKey = config.getApiKey;
	const resolvedKey = getApiKey ? await step("getApiKey", () => getApiKey(config.model.provider), signal) : undefined;
	// Every config field reaches the stream function as an option (sessionId, onPayload, transport, …).
	// Object.assign, not `{ ...config, apiKey, signal }`: on Node 20 a spread followed by more keys
	// takes a slow path (about 1 µs for a two-field config, 3 µs for the Agent's), on every turn.
	const options: SimpleStreamOptions = Object.assign({}, config);
	options.apiKey = resolvedKey ?? config.apiKey;
	options.signal = signal;
	const call = streamFn ?? streamSimple;
	const called = step("streamFn", () => call(config.model, llmContext, options), signal);
	const stream = isPromiseLike(called) ? await called : called;
	if (!stream || typeof (stream as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] !== "function") {
		throw new Error("streamFn must return an AssistantMessageEventStream");
	}

	// After an abort the provider gets a grace period to end the stream itself (usage included).
	const abort = signal ? new AbortWatch(signal, ABORT_GRACE_MS) : undefined;
	try {
		const iterator = stream[Symbol.asyncIterator]();
		let final: AssistantMessage | undefined;
		while (final === undefined) {
			const next = abort ? await abort.race(iterator.next()) : await iterator.next();
			if (next === ABORTED) {
				// The stream function ignored the abort: keep what arrived and stop waiting for it.
				abandonIterator(iterator);
				final = withError(run.streaming ?? endedMessage(config, "aborted", ""), "aborted", ABORTED_BEFORE_CALL_TEXT);
				break;
			}
			if (next.done) {
				// A foreign stream's result() may never settle: an abort stops that wait too.
				const result = abort ? await abort.race(stream.result()) : await stream.result();
				final =
					result === ABORTED
						? withError(run.streaming ?? endedMessage(config, "aborted", ""), "aborted", ABORTED_BEFORE_CALL_TEXT)
						: result;
				break;
			}
			if (next.value.type === "done") final = next.value.message;
			else if (next.value.type === "error") final = next.value.error;
			else {
				const emitted = emitStreamEvent(run, emit, next.value);
				if (emitted) await emitted;
			}
		}
		const recorded = recordFinalMessage(run, emit, final);
		if (recorded) await recorded;
		return final;
	} finally {
		abort?.dispose();
	}
}

/** Asks an abandoned stream to stop; whatever its return() throws or rejects with is of no interest now. */
function abandonIterator(iterator: AsyncIterator<unknown>): void {
	try {
		const returned = iterator.return?.();
		if (isPromiseLike(returned)) Promise.resolve(returned).catch(() => {});
	} catch {}
}

/** message_start for the first provider event, message_update for every event after `start`. */
function emitStreamEvent(run: RunState, emit: AgentEventSink, event: PartialMessageEvent): void | Promise<void> {
	if (run.streaming) return emitUpdate(emit, event);
	// The partial goes into the context once; providers mutate it in place afterwards.
	run.streaming = event.partial;
	run.context.messages.push(event.partial);
	const started = emit({ type: "message_start", message: { ...event.partial } });
	if (event.type === "start") return started;
	if (started) return Promise.resolve(started).then(() => emitUpdate(emit, event));
	return emitUpdate(emit, event);
}

/** Each update carries a snapshot of the partial, so a listener that keeps it sees it unchanged. */
function emitUpdate(emit: AgentEventSink, event: PartialMessageEvent): void | Promise<void> {
	if (event.type === "start") return;
	return emit({ type: "message_update", message: { ...event.partial }, assistantMessageEvent: event });
}

/** Puts the final message where the partial was (or appends it) and emits message_end. */
function recordFinalMessage(run: RunState, emit: AgentEventSink, final: AssistantMessage): void | Promise<void> {
	const messages = run.context.messages;
	if (run.streaming) {
		const index = messages.lastIndexOf(run.streaming);
		if (index === -1) messages.push(final);
		else messages[index] = final;
		return endFinalMessage(run, emit, final);
	}
	messages.push(final);
	// Like a streamed message from here on: a run failing before message_end closes it as failed.
	run.streaming = final;
	const started = emit({ type: "message_start", message: { ...final } });
	if (started) return Promise.resolve(started).then(() => endFinalMessage(run, emit, final));
	return endFinalMessage(run, emit, final);
}

function endFinalMessage(run: RunState, emit: AgentEventSink, final: AssistantMessage): void | Promise<void> {
	run.streaming = undefined;
	run.newMessages.push(final);
	return emit({ type: "message_end", message: final });
}

function endedMessage(config: AgentLoopConfig, reason: "error" | "aborted", errorMessage: string): AssistantMessage {
	const model = config.model;
	const message = createEmptyAssistantMessage(model.api, model.provider, model.id);
	message.stopReason = reason;
	if (errorMessage) message.errorMessage = errorMessage;
	return message;
}

function withError(message: AssistantMessage, reason: "error" | "aborted", errorMessage: string): AssistantMessage {
	return { ...message, content: [...message.content], stopReason: reason, errorMessage };
}

// ---------------------------------------------------------------------------------------------
// Failure: close whatever is open, so the transcript and the event tree stay well formed
// ---------------------------------------------------------------------------------------------

async function failRun(
	run: RunState,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal: AbortSignal | undefined,
	error: unknown,
): Promise<void> {
	// agent_end was already emitted (the sink threw on it): the run is over, nothing more is sent.
	if (run.agentEnded) return;
	// The sink itself may be what failed: from here on its errors are ignored, never rethrown.
	const safeEmit = async (event: AgentEvent) => {
		try {
			await emit(event);
		} catch {}
	};
	const reason = signal?.aborted ? "aborted" : "error";
	const text = errorText(error);
	const openMessage = run.openMessage;
	if (openMessage) await endMessage(run, safeEmit, openMessage);
	await addMissingToolResults(run, safeEmit, text);
	if (!run.turnOpen) await safeEmit({ type: "turn_start" });
	// Messages already taken from the queues are not lost: they go in before the error message.
	for (let message = run.pending.shift(); message; message = run.pending.shift()) {
		await recordMessage(run, safeEmit, message);
	}
	let message: AssistantMessage;
	if (run.streaming) {
		message = withError(run.streaming, reason, text);
		const index = run.context.messages.lastIndexOf(run.streaming);
		if (index === -1) run.context.messages.push(message);
		else run.context.messages[index] = message;
		run.streaming = undefined;
	} else {
		message = endedMessage(config, reason, text);
		run.context.messages.push(message);
		await safeEmit({ type: "message_start", message: { ...message } });
	}
	run.newMessages.push(message);
	await safeEmit({ type: "message_end", message });
	run.turnOpen = false;
	await safeEmit({ type: "turn_end", message, toolResults: [] });
	await safeEmit({ type: "agent_end", messages: run.newMessages });
}

/** Every tool call in the transcript gets exactly one result, even when the run failed mid-batch. */
async function addMissingToolResults(
	run: RunState,
	emit: (event: AgentEvent) => Promise<void>,
	reason: string,
): Promise<void> {
	const messages = run.context.messages;
	let lastAssistant = -1;
	for (let index = messages.length - 1; index >= 0; index--) {
		if ((messages[index] as { role?: unknown }).role === "assistant") {
			lastAssistant = index;
			break;
		}
	}
	if (lastAssistant === -1) return;
	const assistant = messages[lastAssistant] as AssistantMessage;
	if (assistant === run.streaming) return;
	const answered = new Set<string>();
	for (const message of messages.slice(lastAssistant + 1)) {
		if ((message as { role?: unknown }).role === "toolResult") answered.add((message as ToolResultMessage).toolCallId);
	}
	for (const block of assistant.content) {
		if (block.type !== "toolCall" || answered.has(block.id)) continue;
		const text = `Tool call was not run: the run failed (${reason})`;
		const result = { content: [{ type: "text" as const, text }], details: {} };
		// A call whose tool_execution_end already went out (the sink threw on it) gets no second one.
		const started = run.startedToolCalls.has(block.id);
		if (!started) {
			await emit({ type: "tool_execution_start", toolCallId: block.id, toolName: block.name, args: block.arguments });
		}
		if (!started || run.runningToolCalls.has(block.id)) {
			run.runningToolCalls.delete(block.id);
			await emit({ type: "tool_execution_end", toolCallId: block.id, toolName: block.name, result, isError: true });
		}
		const message: ToolResultMessage = {
			role: "toolResult",
			toolCallId: block.id,
			toolName: block.name,
			content: result.content,
			details: result.details,
			isError: true,
			timestamp: Date.now(),
		};
		messages.push(message);
		run.newMessages.push(message);
		await emit({ type: "message_start", message });
		await emit({ type: "message_end", message });
	}
}

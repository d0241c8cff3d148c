// A stream function over an ordered list of models: the first that answers streams to the caller.
// The chain moves on only before the caller has seen any content, so the caller's stream is one
// answer from one model: one `start`, the content events of the model that answered, one `done`
// or `error`.
import { transformMessages } from "../message/transform-messages.js";
import { stream, streamSimple } from "../stream.js";
import { startFallbackTrace } from "../tracing/guarded-hooks.js";
import type { FallbackAttemptTrace } from "../tracing/hooks.js";
import type {
	Api,
	AssistantMessage,
	AssistantMessageDiagnostic,
	AssistantMessageEvent,
	Context,
	Model,
	SimpleStreamOptions,
} from "../types.js";
import { createErrorMessage, formatThrownValue } from "../utils/error-message.js";
import {
	type AssistantMessageEventStream,
	createAssistantMessageEventStream,
	createEmptyAssistantMessage,
} from "../utils/event-stream.js";
import { linkAbort } from "../utils/linked-abort.js";
import { classifyFallbackFailure, type FallbackFailureKind } from "./failure-kind.js";
import { buildTargetOptions, type FallbackCallOptions } from "./target-options.js";

/** One model of a chain, with the options that belong to it alone. */
export interface FallbackTarget {
	model: Model<Api>;
	/** This model's key, headers and provider options; laid over the caller's portable options. */
	options?: FallbackCallOptions;
}

export interface FallbackOptions {
	/**
	 * Move on when the prompt does not fit the model's context window, to the next model whose
	 * `contextWindow` is larger (models with a window no larger are skipped). Default false: the
	 * overflow error reaches the caller, who may compact the context instead.
	 */
	onContextOverflow?: boolean;
	/** Move on when the model refuses or its provider's safety filter stops it. Default false. */
	onRefusal?: boolean;
	/** How each model is called: `streamSimple` (default; reasoning levels) or `stream` (provider options). */
	entry?: "stream" | "streamSimple";
}

/** The `details` of a `fallback_attempt` diagnostic: one per model the chain tried or skipped. */
export interface FallbackAttemptDetails {
	/** 0 for the first model tried. */
	position: number;
	api: Api;
	provider: string;
	model: string;
	outcome: "answered" | "failed" | "skipped";
	/** Why the model gave no answer (failed), or why it was not tried (skipped: "context_overflow"). */
	failure?: FallbackFailureKind;
	/** The tokens and cost the attempt used (zero for a skipped model). */
	usage?: AssistantMessage["usage"];
}

export const FALLBACK_ATTEMPT_DIAGNOSTIC = "fallback_attempt";

/**
 * What `createFallbackStream` returns: a `StreamFunction` that takes unified options (an `Agent`'s
 * stream function) or unified plus provider options (a `stream` caller). Never throws.
 */
export type FallbackStreamFunction = (
	model: Model<Api>,
	context: Context,
	options?: SimpleStreamOptions | FallbackCallOptions,
) => AssistantMessageEventStream;

/**
 * A stream function that tries models in order and streams the first answer. It moves on when a
 * model fails before any content arrives: an error that survived the model's own retries, and,
 * when enabled, a context overflow or a refusal. An abort never moves on. Each model gets the
 * conversation made valid for it (`transformMessages`) and only the caller's portable options plus
 * its own (never another provider's key, headers or options). The model the caller passes goes
 * first (with the caller's options whole), then the chain's other models in order; an `Agent`
 * passes its `state.model`.
 *
 * The final message is the answering model's (its usage and cost); its `diagnostics` end with one
 * `fallback_attempt` entry per model tried or skipped, with the failure and the usage of each.
 * Throws at once for an empty chain.
 */
export function createFallbackStream(
	targets: readonly (Model<Api> | FallbackTarget)[],
	options: FallbackOptions = {},
): FallbackStreamFunction {
	const chain = targets.map(toTarget);
	if (chain.length === 0) throw new Error("createFallbackStream needs at least one model");
	return (model, context, callerOptions) => {
		const order = orderTargets(chain, model);
		const output = createAssistantMessageEventStream();
		const first = order[0].target.model;
		output.push({ type: "start", partial: createEmptyAssistantMessage(first.api, first.provider, first.id) });
		// The models are called on a signal of their own: the caller's abort reaches them, and a call
		// still running when the chain ends (an exception while reading it) is aborted, not left open.
		const abort = linkAbort((callerOptions as { signal?: unknown } | undefined)?.signal);
		// Every options object is a record of its keys; the union only keeps excess-key checks for callers.
		const linkedOptions = { ...(callerOptions as FallbackCallOptions | undefined), signal: abort.signal };
		runChain(output, order, context, linkedOptions, options)
			.catch((error: unknown) => {
				abort.release();
				const failure = createErrorMessage(first, "error", `Fallback chain failed: ${formatThrownValue(error)}`);
				output.push({ type: "error", reason: "error", error: failure });
				output.end();
			})
			.finally(() => abort.release());
		return output;
	};
}

interface OrderedTarget {
	target: FallbackTarget;
	isCallerModel: boolean;
}

function toTarget(entry: Model<Api> | FallbackTarget, index: number): FallbackTarget {
	const target = entry && "model" in entry && typeof entry.model === "object" ? entry : { model: entry as Model<Api> };
	if (!target.model || typeof target.model !== "object" || typeof target.model.api !== "string") {
		throw new Error(`createFallbackStream: entry ${index} is not a model or {model, options}`);
	}
	return target;
}

function isSameTarget(model: Model<Api>, other: Model<Api>): boolean {
	return model.provider === other.provider && model.api === other.api && model.id === other.id;
}

/** The caller's model first (with its own options when the chain lists it), then the rest in order. */
function orderTargets(chain: readonly FallbackTarget[], model: Model<Api> | undefined): OrderedTarget[] {
	if (!model || typeof model !== "object") return chain.map((target) => ({ target, isCallerModel: false }));
	const listed = chain.find((target) => isSameTarget(target.model, model));
	const rest = chain.filter((target) => target !== listed);
	return [
		{ target: listed ? { ...listed, model } : { model }, isCallerModel: true },
		...rest.map((target) => ({ target, isCallerModel: false })),
	];
}

async function runChain(
	output: AssistantMessageEventStream,
	order: readonly OrderedTarget[],
	context: Context,
	callerOptions: FallbackCallOptions | undefined,
	options: FallbackOptions,
): Promise<void> {
	const diagnostics: AssistantMessageDiagnostic[] = [];
	// Undefined unless tracing is enabled: then one span over the chain and one per target tried.
	const chainTrace = startFallbackTrace(order.map(({ target }) => target.model));
	// The terminal event of the last model that failed: the caller's, when no model answers.
	let lastTerminal: TerminalEvent | undefined;
	// After an overflow, only a model with a larger window is worth trying.
	let minimumWindow = 0;

	for (const [position, { target, isCallerModel }] of order.entries()) {
		const { model } = target;
		if (minimumWindow > 0 && !(model.contextWindow > minimumWindow)) {
			diagnostics.push(attemptDiagnostic(position, model, "skipped", "context_overflow"));
			continue;
		}
		const targetContext: Context = { ...context, messages: transformMessages(context.messages, model) };
		const targetOptions = buildTargetOptions(model, callerOptions, target.options, isCallerModel);
		const attemptTrace = chainTrace?.startAttempt(model, position);
		const attempt = await runTarget(output, model, targetContext, targetOptions, options.entry, attemptTrace);
		// Once content reached the caller the answer is this model's, whatever its end. An answer
		// without content (an empty `stop`) is an answer too.
		const failure = attempt.committed ? undefined : classifyFallbackFailure(attempt.message, model);
		if (failure === undefined) {
			const failed = attempt.message.stopReason === "error" || attempt.message.stopReason === "aborted";
			diagnostics.push(attemptDiagnostic(position, model, failed ? "failed" : "answered", undefined, attempt.message));
			const terminal = withDiagnostics(attempt.terminal, diagnostics);
			output.push(terminal);
			output.end();
			attemptTrace?.end(attempt.message);
			chainTrace?.end(terminal.type === "done" ? terminal.message : terminal.error);
			return;
		}
		diagnostics.push(attemptDiagnostic(position, model, "failed", failure, attempt.message));
		attemptTrace?.end(attempt.message, failure);
		lastTerminal = attempt.terminal;
		if (!movesOn(failure, options)) break;
		if (failure === "context_overflow") minimumWindow = Math.max(minimumWindow, model.contextWindow);
	}
	// The first model is always tried, so a failure is known here.
	if (lastTerminal) {
		const terminal = withDiagnostics(lastTerminal, diagnostics);
		output.push(terminal);
		output.end();
		chainTrace?.end(terminal.type === "done" ? terminal.message : terminal.error);
	}
	output.end();
}

function movesOn(failure: FallbackFailureKind, options: FallbackOptions): boolean {
	if (failure === "error") return true;
	if (failure === "context_overflow") return options.onContextOverflow === true;
	if (failure === "refusal") return options.onRefusal === true;
	return false;
}

interface TargetOutcome {
	/** True when content reached the caller: the chain can no longer move on. */
	committed: boolean;
	message: AssistantMessage;
	/** The model's terminal event, not yet forwarded. */
	terminal: TerminalEvent;
}

type TerminalEvent = Extract<AssistantMessageEvent, { type: "done" | "error" }>;

/**
 * Streams one model. Its `start` is dropped (the caller had the chain's); from its first content
 * event on, every event goes to the caller. Returns at its terminal event, which the chain sends.
 */
async function runTarget(
	output: AssistantMessageEventStream,
	model: Model<Api>,
	context: Context,
	options: FallbackCallOptions,
	entry: FallbackOptions["entry"],
	trace: FallbackAttemptTrace | undefined,
): Promise<TargetOutcome> {
	let events: AssistantMessageEventStream;
	const start = () => (entry === "stream" ? stream(model, context, options) : streamSimple(model, context, options));
	try {
		// Started inside the attempt's span so the model call's span nests under it.
		events = trace ? trace.activate(start) : start();
	} catch (error) {
		// Only an api nobody registered throws: that model fails, the next may be served.
		const message = createErrorMessage(model, "error", formatThrownValue(error));
		return { committed: false, message, terminal: { type: "error", reason: "error", error: message } };
	}
	let committed = false;
	for await (const event of events) {
		if (event.type === "start") continue;
		if (event.type === "done") return { committed, message: event.message, terminal: event };
		if (event.type === "error") return { committed, message: event.error, terminal: event };
		committed = true;
		output.push(event);
	}
	// The stream ended without a terminal event (a broken custom provider): its result says so.
	const message = await events.result();
	const terminal: TerminalEvent =
		message.stopReason === "error" || message.stopReason === "aborted"
			? { type: "error", reason: message.stopReason, error: message }
			: { type: "done", reason: message.stopReason, message };
	return { committed, message, terminal };
}

function attemptDiagnostic(
	position: number,
	model: Model<Api>,
	outcome: FallbackAttemptDetails["outcome"],
	failure: FallbackFailureKind | undefined,
	message?: AssistantMessage,
): AssistantMessageDiagnostic {
	const details: FallbackAttemptDetails = {
		position,
		api: model.api,
		provider: model.provider,
		model: model.id,
		outcome,
		...(failure ? { failure } : {}),
		...(message ? { usage: message.usage } : {}),
	};
	const diagnostic: AssistantMessageDiagnostic = {
		type: FALLBACK_ATTEMPT_DIAGNOSTIC,
		timestamp: Date.now(),
		details: details as unknown as Record<string, unknown>,
	};
	if (outcome === "failed" && message) {
		diagnostic.error = { message: message.errorMessage ?? message.rawStopReason ?? message.stopReason };
	}
	if (outcome === "skipped") {
		diagnostic.error = {
			message: `Skipped: its context window (${model.contextWindow} tokens) is no larger than that of a model that overflowed`,
		};
	}
	return diagnostic;
}

/** The terminal event with a copy of its message that lists every attempt after its own diagnostics. */
function withDiagnostics(event: TerminalEvent, diagnostics: AssistantMessageDiagnostic[]): TerminalEvent {
	if (event.type === "done") {
		const message = { ...event.message, diagnostics: [...(event.message.diagnostics ?? []), ...diagnostics] };
		return { ...event, message };
	}
	const error = { ...event.error, diagnostics: [...(event.error.diagnostics ?? []), ...diagnostics] };
	return { ...event, error };
}

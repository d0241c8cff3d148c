// The harness every provider call runs in: it returns the caller's one event stream at once, emits
// `start`, then loads and prepares the provider, checks the options, and runs the attempts. Its
// top-level catch is the one place in @keel/ai where an unexpected exception becomes an error event.
import { AMBIENT_CREDENTIALS, getEnvApiKey, missingApiKeyMessage } from "../env-api-keys.js";
import { AssistantMessageBuilder } from "../message/assistant-message-builder.js";
import { findInputProblem } from "../message/input-support.js";
import { isValidMaxTokens } from "../message/simple-options.js";
import { startModelCallTrace } from "../tracing/guarded-hooks.js";
import type { ModelCallTrace } from "../tracing/hooks.js";
import { pushTracingEvents } from "../tracing/trace-events.js";
import type { Api, Context, Model, StreamOptions } from "../types.js";
import { type AssistantMessageEventStream, createAssistantMessageEventStream } from "../utils/event-stream.js";
import { type CallFailureContext, failStoppedCall, failUnexpectedly } from "./call-failure.js";
import { CallLifetime, CallStoppedError, DEFAULT_TIMEOUT_MS } from "./call-lifetime.js";
import { classifyError, type ErrorClassification } from "./error-classification.js";
import type { ProviderAttempt } from "./provider-attempt.js";
import { runAttempts } from "./retry-loop.js";

export { NonRetryableError, type ProviderAttempt } from "./provider-attempt.js";

export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
export { DEFAULT_TIMEOUT_MS } from "./call-lifetime.js";

export interface ProviderStreamConfig {
	/** When true, a missing key ends the call with a clear error before any request. Default true. */
	requiresApiKey?: boolean;
	/** Provider-specific error reading; defaults to `classifyError`. */
	classifyError?: (error: unknown) => ErrorClassification;
	/**
	 * What the call connects to, as connection errors name it ("Could not connect to <name> at …").
	 * Defaults to `model.provider`; a transport that talks to something else (a proxy) names that.
	 */
	endpointName?: string;
	/** Where the call connects to, as HTTP errors name its host; defaults to `model.baseUrl`. */
	endpointUrl?: string;
	/** The call's context; tracing records its messages when the user opted into content recording. */
	context?: Context;
}

/** A provider call once its module is loaded and its options are mapped. */
export interface PreparedProviderCall<TApi extends Api> {
	options: StreamOptions;
	requiresApiKey: boolean;
	classifyError: (error: unknown) => ErrorClassification;
	endpointName?: string;
	endpointUrl?: string;
	run: (attempt: ProviderAttempt<TApi>) => Promise<void>;
}

/**
 * Runs a provider call under Keel's contract: returns at once, never throws, never hangs.
 *
 * `run` performs one attempt: it sends the request and feeds the decoder, which ends the message
 * through the builder. Failures before the first content block are retried (408/409/429/5xx,
 * overloaded, connection errors) with backoff that honours retry-after; failures after content
 * are not, because the caller has already seen it. Abort, `timeoutMs` and the idle watchdog end
 * the call with one error event that keeps the partial content, even if the transport ignores the signal.
 */
export function createProviderStream<TApi extends Api>(
	model: Model<TApi>,
	options: StreamOptions | undefined,
	run: (attempt: ProviderAttempt<TApi>) => Promise<void>,
	config: ProviderStreamConfig = {},
): AssistantMessageEventStream {
	return startProviderCall(
		model,
		options,
		() => ({
			options: options ?? {},
			requiresApiKey: config.requiresApiKey !== false,
			classifyError: config.classifyError ?? classifyError,
			endpointName: config.endpointName,
			endpointUrl: config.endpointUrl,
			run,
		}),
		config.context,
	);
}

/**
 * The harness itself. `callerOptions` are the options the caller passed (their signal and limits
 * apply from this moment, while the provider module may still be loading); `prepare` loads the
 * provider and maps the options. `context` only reaches tracing (see `docs/tracing.md`).
 */
export function startProviderCall<TApi extends Api>(
	model: Model<TApi>,
	callerOptions: StreamOptions | undefined,
	prepare: () => PreparedProviderCall<TApi> | Promise<PreparedProviderCall<TApi>>,
	context?: Context,
): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const options = callerOptions ?? {};
	const apiKey = options.apiKey || getEnvApiKey(model.provider) || undefined;
	// The builder redacts the key from every string a server or a failure puts into the message. The
	// ambient-credentials marker (AWS or Google credentials found in the environment) is no secret:
	// redacting its pieces would only garble the provider's own error text.
	const secret = apiKey === AMBIENT_CREDENTIALS ? undefined : apiKey;
	// Tracing costs one check per call while off; when on, the trace follows the events the caller gets.
	const trace = startModelCallTrace(model, options, context);
	const push = (event: Parameters<typeof stream.push>[0]) => stream.push(event);
	const builder = new AssistantMessageBuilder(model, trace ? pushTracingEvents(push, trace) : push, { secret });
	const call: CallFailureContext = { model, builder };
	builder.start();
	runProviderCall(model, options, apiKey, builder, prepare, trace, context)
		.catch((error: unknown) => {
			if (error instanceof CallStoppedError) failStoppedCall(call, error.stopCause);
			else failUnexpectedly(call, error);
		})
		.finally(() => {
			// After the terminal event the message belongs to the caller: a transport still running
			// (one that ignored the abort) gets an exception instead of changing it.
			builder.seal();
			stream.end(builder.message);
			trace?.end(builder.message);
		});
	return stream;
}

async function runProviderCall<TApi extends Api>(
	model: Model<TApi>,
	callerOptions: StreamOptions,
	apiKey: string | undefined,
	builder: AssistantMessageBuilder,
	prepare: () => PreparedProviderCall<TApi> | Promise<PreparedProviderCall<TApi>>,
	trace: ModelCallTrace | undefined,
	context: Context | undefined,
): Promise<void> {
	const signalProblem = findSignalProblem(callerOptions.signal);
	if (signalProblem) return void builder.fail("error", signalProblem);
	// A file or audio block the model cannot read fails here, before the provider loads or any request.
	const inputProblem = context ? findInputProblem(model, context) : undefined;
	if (inputProblem) return void builder.fail("error", inputProblem);
	const lifetime = new CallLifetime({
		signal: callerOptions.signal,
		timeoutMs: callerOptions.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		idleTimeoutMs: callerOptions.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
	});
	try {
		// The idle limit covers loading the provider module too: a dynamic import that never settles
		// (a stalled chunk request in a browser) must not hang a call that set no timeoutMs.
		lifetime.touch();
		const prepared = await lifetime.race(Promise.resolve().then(prepare)).finally(() => lifetime.pauseIdle());
		const optionProblem = findOptionProblem(model, prepared, apiKey, callerOptions.missingKeyRemedy);
		if (optionProblem) return void builder.fail("error", optionProblem);
		await runAttempts({
			model,
			options: prepared.options,
			apiKey,
			builder,
			lifetime,
			classify: prepared.classifyError,
			endpointName: prepared.endpointName,
			endpointUrl: prepared.endpointUrl,
			run: prepared.run,
			trace,
		});
	} finally {
		lifetime.dispose();
	}
}

function findSignalProblem(signal: unknown): string | undefined {
	if (signal === undefined) return undefined;
	const candidate = signal as Partial<AbortSignal> | null;
	if (candidate && typeof candidate.addEventListener === "function" && typeof candidate.aborted === "boolean") {
		return undefined;
	}
	return `options.signal must be an AbortSignal (for example new AbortController().signal), got ${describeValue(signal)}`;
}

function findOptionProblem<TApi extends Api>(
	model: Model<TApi>,
	prepared: PreparedProviderCall<TApi>,
	apiKey: string | undefined,
	missingKeyRemedy: string | undefined,
): string | undefined {
	if (prepared.requiresApiKey && !apiKey) return missingApiKeyMessage(model.provider, missingKeyRemedy);
	const { maxTokens } = prepared.options;
	if (maxTokens !== undefined && !isValidMaxTokens(maxTokens)) {
		return `maxTokens must be a non-negative integer, got ${maxTokens}`;
	}
	return undefined;
}

function describeValue(value: unknown): string {
	if (value === null) return "null";
	if (typeof value !== "object") return `${typeof value} ${String(value)}`;
	return value.constructor?.name && value.constructor !== Object ? `a ${value.constructor.name}` : "a plain object";
}

import { getEnvApiKey, missingApiKeyMessage } from "../../env-api-keys.js";
import type { Api, Model, ResponseInfo, StreamOptions } from "../../types.js";
import { type AssistantMessageEventStream, createAssistantMessageEventStream } from "../../utils/event-stream.js";
import { AssistantMessageBuilder } from "./assistant-message-builder.js";
import { backoffDelay, classifyError, type ErrorClassification, redactSecret } from "./retry.js";
import { isValidMaxTokens } from "./simple-options.js";

export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

/** What a provider's transport gets for one attempt. */
export interface ProviderAttempt<TApi extends Api> {
	model: Model<TApi>;
	options: StreamOptions;
	/** `options.apiKey`, else the environment's key for `model.provider`, else undefined. */
	apiKey: string | undefined;
	builder: AssistantMessageBuilder;
	/** Aborts on the caller's abort, on `timeoutMs`, on the idle watchdog and when the attempt ends: pass it to the SDK. */
	signal: AbortSignal;
	/** 0 for the first attempt. */
	attempt: number;
	/** Call for every chunk received: restarts the idle watchdog. */
	touch(): void;
	/** Runs `onPayload`; its non-undefined result replaces the payload. */
	preparePayload<T>(payload: T): Promise<T>;
	/** Runs `onResponse` once per attempt with the HTTP status and headers. */
	reportResponse(response: ResponseInfo): Promise<void>;
}

export interface ProviderStreamConfig {
	/** When true, a missing key ends the call with a clear error before any request. Default true. */
	requiresApiKey?: boolean;
	/** Provider-specific error reading; defaults to `classifyError`. */
	classifyError?: (error: unknown) => ErrorClassification;
}

/** Marks an error that must end the call without a retry (bad input, missing key). */
export class NonRetryableError extends Error {
	override name = "NonRetryableError";
}

type StopCause = { kind: "aborted" } | { kind: "timeout"; ms: number } | { kind: "idle"; ms: number };

function stopMessage(cause: StopCause): string {
	if (cause.kind === "aborted") return "Request was aborted";
	if (cause.kind === "timeout") return `Request timed out after ${cause.ms} ms (timeoutMs)`;
	return `No data received from the provider for ${cause.ms} ms; the stream was stopped (idleTimeoutMs)`;
}

/**
 * Runs a provider call under Keel's contract: returns at once, never throws, never hangs.
 *
 * `run` performs one attempt: it sends the request and feeds the decoder, which ends the message
 * through the builder. Failures before the first content block are retried (408/409/429/5xx,
 * overloaded, connection errors) with backoff that honours retry-after; failures after content
 * are not, because the caller has already seen it. Abort, `timeoutMs` and the idle watchdog end
 * the call with one error event that keeps the partial content, even if the SDK ignores the signal.
 */
export function createProviderStream<TApi extends Api>(
	model: Model<TApi>,
	options: StreamOptions | undefined,
	run: (attempt: ProviderAttempt<TApi>) => Promise<void>,
	config: ProviderStreamConfig = {},
): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const resolvedOptions: StreamOptions = options ?? {};
	const apiKey = resolvedOptions.apiKey || getEnvApiKey(model.provider) || undefined;
	const builder = new AssistantMessageBuilder(model, (event) => {
		// Decoders end with the provider's own in-stream error text, which may echo the key.
		if (event.type === "error" && event.error.errorMessage) {
			event.error.errorMessage = redactSecret(event.error.errorMessage, apiKey);
		}
		stream.push(event);
	});
	void execute(model, resolvedOptions, apiKey, builder, run, config)
		.catch((error) => {
			// execute turns every failure inside its try into an error event; this catches what its setup
			// threw before (an unusable option such as a `signal` that is not an AbortSignal).
			if (!builder.isSealed) {
				builder.fail("error", `Could not start the request: ${error instanceof Error ? error.message : String(error)}`);
			}
		})
		.finally(() => stream.end(builder.message));
	return stream;
}

async function execute<TApi extends Api>(
	model: Model<TApi>,
	options: StreamOptions,
	apiKey: string | undefined,
	builder: AssistantMessageBuilder,
	run: (attempt: ProviderAttempt<TApi>) => Promise<void>,
	config: ProviderStreamConfig,
): Promise<void> {
	const classify = config.classifyError ?? classifyError;
	const maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_MAX_RETRIES);
	const maxRetryDelayMs = options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
	const idleTimeoutMs = timerLimit(options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
	const timeoutMs = timerLimit(options.timeoutMs ?? 0);

	// One controller for the whole call: the caller's signal, the total timeout and the idle
	// watchdog all abort it, and `stopCause` records which one did.
	const controller = new AbortController();
	let stopCause: StopCause | undefined;
	let rejectStopped: (reason: unknown) => void = () => {};
	const stopped = new Promise<never>((_, reject) => {
		rejectStopped = reject;
	});
	stopped.catch(() => {});
	const stop = (cause: StopCause) => {
		if (stopCause) return;
		stopCause = cause;
		controller.abort(new Error(stopMessage(cause)));
		rejectStopped(new Error(stopMessage(cause)));
	};
	// Read through a function: the closures above assign it, which TypeScript's narrowing cannot see.
	const currentStop = (): StopCause | undefined => stopCause;
	const onCallerAbort = () => stop({ kind: "aborted" });
	options.signal?.addEventListener("abort", onCallerAbort, { once: true });
	const totalTimer = timeoutMs > 0 ? setTimeout(() => stop({ kind: "timeout", ms: timeoutMs }), timeoutMs) : undefined;
	// The idle watchdog keeps a deadline rather than re-arming a timer per chunk: `touch` only records
	// the time, and the one timer, when it fires early, waits again for what is left. Plain
	// setTimeout/clearTimeout, so it works in browsers and Workers (Node's `timer.refresh()` does not).
	let idleTimer: ReturnType<typeof setTimeout> | undefined;
	let lastActivity = 0;
	const checkIdle = () => {
		const quietFor = Date.now() - lastActivity;
		if (quietFor >= idleTimeoutMs) stop({ kind: "idle", ms: idleTimeoutMs });
		else idleTimer = setTimeout(checkIdle, idleTimeoutMs - quietFor);
	};
	const touch = () => {
		if (idleTimeoutMs <= 0 || stopCause) return;
		lastActivity = Date.now();
		if (!idleTimer) idleTimer = setTimeout(checkIdle, idleTimeoutMs);
	};
	const pauseIdle = () => {
		if (idleTimer) clearTimeout(idleTimer);
		idleTimer = undefined;
	};

	try {
		builder.start();
		if (options.signal?.aborted) stop({ kind: "aborted" });
		if (stopCause) {
			builder.fail("aborted", stopMessage(stopCause));
			return;
		}
		if (config.requiresApiKey !== false && !apiKey) {
			builder.fail("error", missingApiKeyMessage(model.provider));
			return;
		}
		if (options.maxTokens !== undefined && !isValidMaxTokens(options.maxTokens)) {
			builder.fail("error", `maxTokens must be a non-negative integer, got ${options.maxTokens}`);
			return;
		}

		for (let attempt = 0; ; attempt++) {
			let responseReported = false;
			// Each attempt has its own signal, aborted when the attempt ends: whatever it left open (a
			// response body nobody read because onResponse threw) is closed rather than holding a socket.
			const attemptController = new AbortController();
			const abortAttempt = () => attemptController.abort(controller.signal.reason);
			controller.signal.addEventListener("abort", abortAttempt, { once: true });
			const endAttempt = () => {
				controller.signal.removeEventListener("abort", abortAttempt);
				if (!attemptController.signal.aborted) attemptController.abort(new Error("The attempt ended"));
			};
			const attemptContext: ProviderAttempt<TApi> = {
				model,
				options,
				apiKey,
				builder,
				signal: attemptController.signal,
				attempt,
				touch,
				preparePayload: async (payload) => {
					if (!options.onPayload) return payload;
					const replaced = await callerCallback(() => options.onPayload?.(payload, model as Model<Api>));
					return (replaced === undefined ? payload : replaced) as typeof payload;
				},
				reportResponse: async (response) => {
					if (responseReported) return;
					responseReported = true;
					await callerCallback(() => options.onResponse?.(response, model as Model<Api>));
				},
			};
			try {
				touch();
				await Promise.race([run(attemptContext), stopped]);
				endAttempt();
				pauseIdle();
				if (stopCause) throw new Error(stopMessage(stopCause));
				if (!builder.isSealed) {
					builder.fail("error", "The provider's stream ended before the response was finished (no stop event)");
				}
				return;
			} catch (error) {
				endAttempt();
				pauseIdle();
				if (builder.isSealed) return;
				const cause = currentStop();
				if (cause) {
					builder.fail(cause.kind === "aborted" ? "aborted" : "error", stopMessage(cause));
					return;
				}
				const classified = classify(error);
				const message = redactSecret(classified.message, apiKey);
				const status = classified.status;
				if (status !== undefined && !responseReported) {
					// Raced and watched like the attempt itself: a hanging onResponse must not outlive an
					// abort, timeoutMs or the idle watchdog.
					touch();
					await Promise.race([attemptContext.reportResponse({ status, headers: {} }), stopped]).catch(() => {});
					pauseIdle();
					const stoppedBy = currentStop();
					if (stoppedBy) {
						builder.fail(stoppedBy.kind === "aborted" ? "aborted" : "error", stopMessage(stoppedBy));
						return;
					}
				}
				const canRetry =
					classified.retryable && !(error instanceof NonRetryableError) && !builder.hasContent && attempt < maxRetries;
				if (!canRetry) {
					builder.fail("error", message);
					return;
				}
				const delay = classified.retryAfterMs ?? backoffDelay(attempt);
				if (maxRetryDelayMs > 0 && delay > maxRetryDelayMs) {
					builder.fail(
						"error",
						`${message} (the provider asked to retry in ${Math.ceil(delay / 1000)} s, more than maxRetryDelayMs ${maxRetryDelayMs} ms)`,
					);
					return;
				}
				builder.addDiagnostic("retry", message, { attempt: attempt + 1, delayMs: delay, status });
				builder.resetForRetry();
				const waited = await sleep(delay, controller.signal);
				if (!waited) {
					const cause = currentStop() ?? { kind: "aborted" };
					builder.fail(cause.kind === "aborted" ? "aborted" : "error", stopMessage(cause));
					return;
				}
			}
		}
	} catch (error) {
		// Last line of defence: whatever went wrong, the caller still gets one terminal event.
		if (!builder.isSealed)
			builder.fail("error", redactSecret(error instanceof Error ? error.message : String(error), apiKey));
	} finally {
		pauseIdle();
		if (totalTimer) clearTimeout(totalTimer);
		options.signal?.removeEventListener("abort", onCallerAbort);
		builder.seal();
	}
}

/**
 * Runs onPayload or onResponse. Their exceptions are the caller's bugs, not transient failures: they
 * end the call without a retry (which would run the callback again), whatever their text says.
 */
async function callerCallback<T>(callback: () => T | Promise<T>): Promise<T> {
	try {
		return await callback();
	} catch (error) {
		throw new NonRetryableError(error instanceof Error ? error.message : String(error), { cause: error });
	}
}

// setTimeout runs a delay above 2^31-1 ms after 1 ms. A limit that long (or Infinity) can never be
// reached, so it means no limit rather than an immediate timeout.
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

function timerLimit(ms: number): number {
	return ms > MAX_TIMER_DELAY_MS ? 0 : ms;
}

/** Resolves true after `ms` (at most setTimeout's range), or false as soon as the signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
	if (signal.aborted) return Promise.resolve(false);
	return new Promise((resolve) => {
		const timer = setTimeout(
			() => {
				signal.removeEventListener("abort", onAbort);
				resolve(true);
			},
			Math.min(ms, MAX_TIMER_DELAY_MS),
		);
		const onAbort = () => {
			clearTimeout(timer);
			resolve(false);
		};
		signal.addEventListener("abort", onAbort, { once: true });
	});
}

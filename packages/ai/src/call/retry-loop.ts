// Runs a provider's attempts until one finishes the message, a failure is final, or the call stops.

import type { AssistantMessageBuilder } from "../message/assistant-message-builder.js";
import type { ModelCallTrace } from "../tracing/hooks.js";
import type { Api, Model, StreamOptions } from "../types.js";
import { formatThrownValue } from "../utils/error-message.js";
import { type AttemptHistory, failAttempt, failStoppedCall, failUnfinishedStream } from "./call-failure.js";
import type { CallLifetime } from "./call-lifetime.js";
import type { ErrorClassification } from "./error-classification.js";
import { NonRetryableError, type ProviderAttempt } from "./provider-attempt.js";
import { decideRetry, retrySettings } from "./retry-policy.js";

/** One provider call, ready to run: options mapped, key resolved, checks passed. */
export interface ProviderCall<TApi extends Api> {
	model: Model<TApi>;
	options: StreamOptions;
	apiKey: string | undefined;
	builder: AssistantMessageBuilder;
	lifetime: CallLifetime;
	classify: (error: unknown) => ErrorClassification;
	/** What the call connects to, for connection errors; `model.provider` when unset. */
	endpointName?: string;
	/** Where the call connects to, for the host an HTTP error names; `model.baseUrl` when unset. */
	endpointUrl?: string;
	/** One attempt: send the request and feed the decoder, which ends the message through the builder. */
	run: (attempt: ProviderAttempt<TApi>) => Promise<void>;
	/** The call's trace when tracing is on: each attempt becomes a child span of it. */
	trace?: ModelCallTrace;
}

type AttemptOutcome =
	| { ok: true }
	| {
			ok: false;
			error: unknown;
			responseReported: () => boolean;
			reportResponse: ProviderAttempt<Api>["reportResponse"];
	  };

/**
 * Runs attempts until the message is finished or failed. A failed attempt is retried as
 * `decideRetry` says, after its delay and with the partial message reset; the caller sees one
 * `start` and one terminal event whatever the number of attempts.
 */
export async function runAttempts<TApi extends Api>(call: ProviderCall<TApi>): Promise<void> {
	const settings = retrySettings(call.options);
	const history: AttemptHistory = { attempts: 0, startedAt: Date.now() };
	for (let attempt = 0; ; attempt++) {
		history.attempts = attempt + 1;
		const attemptTrace = call.trace?.startAttempt(attempt);
		const outcome = await runAttempt(call, attempt);
		attemptTrace?.end({ error: attemptError(call, outcome) });
		if (call.builder.isSealed) return;
		if (call.lifetime.stopCause) return failStoppedCall(call, call.lifetime.stopCause);
		if (outcome.ok) return failUnfinishedStream(call);

		const classification = call.classify(outcome.error);
		const status = classification.status;
		if (status !== undefined && !outcome.responseReported()) {
			// An HTTP error the transport did not report still reaches onResponse, raced like the attempt
			// itself: a hanging onResponse must not outlive an abort, timeoutMs or the idle watchdog.
			call.lifetime.touch();
			await call.lifetime.race(outcome.reportResponse({ status, headers: {} })).catch(() => {});
			call.lifetime.pauseIdle();
			if (call.lifetime.stopCause) return failStoppedCall(call, call.lifetime.stopCause);
		}

		const failure = { error: outcome.error, classification, attempt, hasContent: call.builder.hasContent };
		const decision = decideRetry(failure, settings);
		if (!decision.retry) return failAttempt(call, outcome.error, classification, history, decision.note);
		call.builder.addDiagnostic("retry", classification.message, {
			attempt: attempt + 1,
			delayMs: decision.delayMs,
			status,
		});
		call.builder.resetForRetry();
		const waited = await call.lifetime.sleep(decision.delayMs);
		if (!waited) return failStoppedCall(call, call.lifetime.stopCause ?? { kind: "aborted" });
	}
}

async function runAttempt<TApi extends Api>(call: ProviderCall<TApi>, attempt: number): Promise<AttemptOutcome> {
	const { model, options, lifetime } = call;
	const { signal, end } = lifetime.beginAttempt();
	let responseReported = false;
	const context: ProviderAttempt<TApi> = {
		model,
		options,
		apiKey: call.apiKey,
		builder: call.builder,
		signal,
		attempt,
		touch: lifetime.touch,
		keepAlive: lifetime.keepAlive,
		preparePayload: async (payload) => {
			if (!options.onPayload) return payload;
			const replaced = await runCallerCallback(() => options.onPayload?.(payload, model as Model<Api>));
			return (replaced === undefined ? payload : replaced) as typeof payload;
		},
		reportResponse: async (response) => {
			if (responseReported) return;
			responseReported = true;
			await runCallerCallback(() => options.onResponse?.(response, model as Model<Api>));
		},
	};
	lifetime.touch();
	try {
		await lifetime.race(call.run(context));
		return { ok: true };
	} catch (error) {
		return { ok: false, error, responseReported: () => responseReported, reportResponse: context.reportResponse };
	} finally {
		end();
		lifetime.pauseIdle();
	}
}

/** Why an attempt failed, for its trace: the thrown error, a stop, or the error the decoder ended the message with. */
function attemptError<TApi extends Api>(call: ProviderCall<TApi>, outcome: AttemptOutcome): string | undefined {
	if (call.lifetime.stopCause) return call.lifetime.stopCause.kind;
	if (!outcome.ok) return call.builder.sanitize(call.classify(outcome.error).message);
	const message = call.builder.message;
	return message.stopReason === "error" || message.stopReason === "aborted" ? message.errorMessage : undefined;
}

/**
 * Runs onPayload or onResponse. Their exceptions are the caller's bugs, not transient failures: they
 * end the call without a retry (which would run the callback again), whatever their text says.
 */
async function runCallerCallback<T>(callback: () => T | Promise<T>): Promise<T> {
	try {
		return await callback();
	} catch (error) {
		throw new NonRetryableError(formatThrownValue(error), { cause: error });
	}
}

// Which failed attempts are tried again, and after how long. Pure: the retry loop asks, this answers.
import type { StreamOptions } from "../types.js";
import type { ErrorClassification } from "./error-classification.js";
import { NonRetryableError } from "./provider-attempt.js";

export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;

export interface RetrySettings {
	/** Retries after the first attempt (0 = one attempt only). */
	maxRetries: number;
	/** Cap on one retry delay: a longer retry-after ends the call at once, backoff is shortened. 0 = no cap. */
	maxRetryDelayMs: number;
}

export function retrySettings(options: Pick<StreamOptions, "maxRetries" | "maxRetryDelayMs">): RetrySettings {
	const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
	return {
		maxRetries: Number.isNaN(maxRetries) ? 0 : Math.max(0, maxRetries),
		maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
	};
}

export interface FailedAttempt {
	error: unknown;
	classification: ErrorClassification;
	/** 0 for the first attempt. */
	attempt: number;
	/** True once a content block reached the caller: the caller has seen it, so the request is not repeated. */
	hasContent: boolean;
}

export type RetryDecision =
	| { retry: true; delayMs: number }
	/** `note` explains a retry that was refused only because of its delay. */
	| { retry: false; note?: string };

/**
 * Retries a failure the classification calls transient (408/409/429/5xx, overloaded, connection
 * failures), before any content and within `maxRetries`, never a NonRetryableError. The delay is the
 * server's retry-after when it sent one, else exponential backoff with jitter, within `maxRetryDelayMs`.
 */
export function decideRetry(
	failure: FailedAttempt,
	settings: RetrySettings,
	random: () => number = Math.random,
): RetryDecision {
	const { classification } = failure;
	if (!classification.retryable || failure.error instanceof NonRetryableError) return { retry: false };
	if (failure.hasContent || failure.attempt >= settings.maxRetries) return { retry: false };
	const cap = settings.maxRetryDelayMs > 0 ? settings.maxRetryDelayMs : Number.POSITIVE_INFINITY;
	const asked = classification.retryAfterMs;
	// A wait the server asks for is honoured or refused, never shortened: retrying sooner would only
	// be rejected again. Keel's own backoff is simply capped.
	if (asked !== undefined && asked > cap) {
		const seconds = Math.ceil(asked / 1000);
		return {
			retry: false,
			note: `the provider asked to retry in ${seconds} s, more than maxRetryDelayMs ${settings.maxRetryDelayMs} ms`,
		};
	}
	const delayMs = asked ?? Math.min(backoffDelay(failure.attempt, random), cap);
	return { retry: true, delayMs };
}

/** Exponential backoff with jitter: attempt 0 → 0.5–1 s, 1 → 1–2 s, 2 → 2–4 s … capped at 30 s. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
	const ceiling = Math.min(30_000, 1000 * 2 ** attempt);
	return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

// Google's error shape, over HTTP and inside a 200 stream:
// `{"error":{"code":429,"message":"…","status":"RESOURCE_EXHAUSTED","details":[…]}}`.
// @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
// @see https://cloud.google.com/apis/design/errors

import { classifyError, type ErrorClassification } from "../../call/error-classification.js";
import { ProviderHttpError, ProviderStreamError } from "../../wire/provider-errors.js";

// Canonical statuses Google documents as temporary: quota or rate limit, overload, server fault, timeout.
const RETRYABLE_STATUSES = new Set(["RESOURCE_EXHAUSTED", "UNAVAILABLE", "INTERNAL", "DEADLINE_EXCEEDED", "ABORTED"]);

interface GoogleErrorObject {
	code?: unknown;
	message?: unknown;
	status?: unknown;
	details?: unknown;
}

/** The delay a `google.rpc.RetryInfo` detail asks for ("30s", "1.5s"), in ms. */
function retryInfoDelay(details: unknown): number | undefined {
	if (!Array.isArray(details)) return undefined;
	for (const detail of details) {
		const delay = (detail as { retryDelay?: unknown } | null)?.retryDelay;
		if (typeof delay !== "string") continue;
		const match = /^(\d+(?:\.\d+)?)s$/.exec(delay.trim());
		if (match) return Math.round(Number(match[1]) * 1000);
	}
	return undefined;
}

/**
 * An error object sent inside a 200 event stream, as the error the harness classifies:
 * `<label> error <code> <status>: <message>`, its status as the code.
 */
export function geminiStreamError(error: GoogleErrorObject, label: string): ProviderStreamError {
	const status = typeof error.status === "string" ? error.status : undefined;
	const code = typeof error.code === "number" ? ` ${error.code}` : "";
	const message = typeof error.message === "string" ? error.message : JSON.stringify(error);
	return new ProviderStreamError(`${label} error${code}${status ? ` ${status}` : ""}: ${message}`, status);
}

/**
 * `classifyError` plus Google's specifics: the canonical status (RESOURCE_EXHAUSTED, UNAVAILABLE …)
 * is named in the message and decides retries of in-stream errors, and a RetryInfo detail gives the
 * delay when no retry-after header does.
 */
export function classifyGoogleError(error: unknown): ErrorClassification {
	if (error instanceof ProviderStreamError) {
		return { message: error.message, retryable: error.code !== undefined && RETRYABLE_STATUSES.has(error.code) };
	}
	const classified = classifyError(error);
	if (!(error instanceof ProviderHttpError)) return classified;
	const detail = error.error as GoogleErrorObject;
	const status = typeof detail.status === "string" ? detail.status : undefined;
	const result = { ...classified };
	if (status && !result.message.includes(status)) result.message = `${result.message} (${status})`;
	if (status && RETRYABLE_STATUSES.has(status)) result.retryable = true;
	if (result.retryAfterMs === undefined) result.retryAfterMs = retryInfoDelay(detail.details);
	return result;
}

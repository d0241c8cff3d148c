import { classifyError, type ErrorClassification, readHeader } from "../../call/error-classification.js";
import { ProviderStreamError } from "../../wire/provider-errors.js";

// Error types Anthropic documents as transient. `overloaded_error` is its 529; it can also arrive
// as an SSE `error` event in the middle of a 200 response, where there is no HTTP status.
// @see https://docs.anthropic.com/en/api/errors
const RETRYABLE_ERROR_TYPES = new Set(["overloaded_error", "api_error", "rate_limit_error", "timeout_error"]);

/**
 * An `event: error` inside a 200 stream (`{"type":"error","error":{"type","message"}}`), as the
 * error the harness classifies: `<message> (<type>)`, its type as the code.
 */
export function anthropicStreamError(data: string): ProviderStreamError {
	let body: unknown = data;
	try {
		body = JSON.parse(data);
	} catch {
		// Kept as text: the message below still shows it.
	}
	const inner = (body as { error?: { type?: unknown; message?: unknown } } | null)?.error;
	const type = typeof inner?.type === "string" ? inner.type : undefined;
	const message = typeof inner?.message === "string" ? inner.message : data;
	return new ProviderStreamError(type ? `${message} (${type})` : message, type);
}

/**
 * `classifyError` plus Anthropic's specifics: an in-stream error is retried when its type is a
 * transient one, and the `x-should-retry` header, when present, overrides the status-based decision.
 */
export function classifyAnthropicError(error: unknown): ErrorClassification {
	if (error instanceof ProviderStreamError) {
		return { message: error.message, retryable: error.code !== undefined && RETRYABLE_ERROR_TYPES.has(error.code) };
	}
	const classified = classifyError(error);
	if (!error || typeof error !== "object") return classified;
	const shouldRetry = readHeader((error as { headers?: Headers }).headers, "x-should-retry");
	if (shouldRetry === "true") return { ...classified, retryable: true };
	if (shouldRetry === "false") return { ...classified, retryable: false };
	return classified;
}

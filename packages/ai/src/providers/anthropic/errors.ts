import { classifyError, type ErrorClassification, readHeader } from "../shared/retry.js";

// Error types Anthropic documents as transient. `overloaded_error` is its 529; it can also arrive
// as an SSE `error` event in the middle of a 200 response, where there is no HTTP status.
const RETRYABLE_ERROR_TYPES = new Set(["overloaded_error", "api_error", "rate_limit_error", "timeout_error"]);

interface AnthropicErrorShape {
	status?: unknown;
	headers?: Headers;
	error?: { error?: { type?: unknown; message?: unknown } };
}

/**
 * `classifyError` plus Anthropic's specifics: an in-stream `error` event (no status) is read from
 * its body as `<message> (<type>)`, and its type decides whether a retry can help. The
 * `x-should-retry` header, when present, overrides the status-based decision.
 */
export function classifyAnthropicError(error: unknown): ErrorClassification {
	const classified = classifyError(error);
	if (!error || typeof error !== "object") return classified;
	const shape = error as AnthropicErrorShape;
	const inner = shape.error?.error;
	const type = typeof inner?.type === "string" ? inner.type : undefined;
	if (shape.status === undefined && type) {
		const message = typeof inner?.message === "string" ? inner.message : "no message";
		return { message: `${message} (${type})`, retryable: RETRYABLE_ERROR_TYPES.has(type) };
	}
	const shouldRetry = readHeader(shape.headers, "x-should-retry");
	if (shouldRetry === "true") return { ...classified, retryable: true };
	if (shouldRetry === "false") return { ...classified, retryable: false };
	return classified;
}

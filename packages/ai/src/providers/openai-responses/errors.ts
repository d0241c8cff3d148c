import { classifyError, type ErrorClassification } from "../../call/error-classification.js";
import { ProviderStreamError } from "../../wire/provider-errors.js";

// Error codes that an in-stream `error` event uses for temporary conditions.
// @see https://platform.openai.com/docs/guides/error-codes
const RETRYABLE_STREAM_CODES = new Set(["rate_limit_exceeded", "server_error", "server_is_overloaded", "overloaded"]);

/** classifyError, plus in-stream error events whose code says a retry can help (before content). */
export function classifyOpenAIResponsesError(error: unknown): ErrorClassification {
	if (error instanceof ProviderStreamError) {
		return { message: error.message, retryable: error.code !== undefined && RETRYABLE_STREAM_CODES.has(error.code) };
	}
	return classifyError(error);
}

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

/**
 * The code and message of an in-stream `error` event, in either shape the stream uses: flat, as
 * the Responses API documents it (`{"type":"error","code","message","param"}`), or nested, as
 * some deployments and proxies send it (`{"type":"error","error":{"type","code","message"}}`).
 * The nested `type` stands in for a missing code, so the retry rule can read it.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming/error
 */
export function readResponsesStreamError(event: unknown): { code: string | undefined; message: string } {
	const record = (event ?? {}) as { code?: unknown; message?: unknown; error?: unknown };
	const nested = (record.error && typeof record.error === "object" ? record.error : {}) as {
		code?: unknown;
		type?: unknown;
		message?: unknown;
	};
	const code = textOrUndefined(record.code) ?? textOrUndefined(nested.code) ?? textOrUndefined(nested.type);
	const message = textOrUndefined(record.message) ?? textOrUndefined(nested.message) ?? "unknown error";
	return { code, message };
}

function textOrUndefined(value: unknown): string | undefined {
	return typeof value === "string" && value !== "" ? value : undefined;
}

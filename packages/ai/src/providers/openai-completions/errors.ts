import { ProviderStreamError } from "../shared/provider-errors.js";
import { classifyError, type ErrorClassification } from "../shared/retry.js";

// In-stream error codes that name a temporary condition (OpenAI's and the common vendor spellings).
const RETRYABLE_STREAM_CODES = new Set(["rate_limit_exceeded", "server_error", "server_is_overloaded", "overloaded"]);

/**
 * A `{"error": …}` chunk inside a 200 stream (vendors report upstream failures this way), as the
 * error the harness classifies. The message is the vendor's own text.
 */
export function chatCompletionsStreamError(body: unknown): ProviderStreamError {
	if (typeof body === "string") return new ProviderStreamError(body, undefined);
	const record = (body ?? {}) as { message?: unknown; code?: unknown; type?: unknown };
	const message = typeof record.message === "string" ? record.message : JSON.stringify(body);
	const code =
		typeof record.code === "string" ? record.code : typeof record.type === "string" ? record.type : undefined;
	return new ProviderStreamError(message, code);
}

/**
 * `classifyError` plus what Chat Completions vendors put in their errors:
 * - an in-stream error is retried when its code names a temporary condition or its text says
 *   "overloaded" (before any content only, as every retry);
 * - OpenRouter wraps the upstream provider's own error in `error.metadata.raw`; it is appended
 *   after a newline, since it usually says what actually went wrong.
 */
export function classifyOpenAICompletionsError(error: unknown): ErrorClassification {
	if (error instanceof ProviderStreamError) {
		const retryable =
			(error.code !== undefined && RETRYABLE_STREAM_CODES.has(error.code)) || /overloaded/i.test(error.message);
		return { message: error.message, retryable };
	}
	const classified = classifyError(error);
	if (!error || typeof error !== "object") return classified;
	const raw = upstreamError((error as { error?: unknown }).error);
	if (raw && !classified.message.includes(raw)) return { ...classified, message: `${classified.message}\n${raw}` };
	return classified;
}

function upstreamError(body: unknown): string | undefined {
	if (!body || typeof body !== "object") return undefined;
	const metadata = (body as { metadata?: unknown }).metadata;
	if (!metadata || typeof metadata !== "object") return undefined;
	const raw = (metadata as { raw?: unknown }).raw;
	if (typeof raw === "string") return raw || undefined;
	return raw === undefined || raw === null ? undefined : JSON.stringify(raw);
}

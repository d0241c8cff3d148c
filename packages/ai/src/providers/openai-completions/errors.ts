import { classifyError, type ErrorClassification } from "../../call/error-classification.js";
import { ProviderStreamError } from "../../wire/provider-errors.js";

// In-stream error codes (or types, when a server sends no code) that name a temporary condition:
// OpenAI's `rate_limit_exceeded`, `server_error` and `server_is_overloaded`
// (https://platform.openai.com/docs/guides/error-codes), and the spellings of servers that copy
// Anthropic's or their own (`overloaded`, `overloaded_error`, `service_unavailable`, `timeout`).
const RETRYABLE_STREAM_CODES = new Set([
	"rate_limit_exceeded",
	"server_error",
	"server_is_overloaded",
	"overloaded",
	"overloaded_error",
	"service_unavailable",
	"timeout",
]);

/** An HTTP status used as an error code (OpenRouter's `{"code": 502}`, vLLM's `{"code": 500}`). */
const STATUS_CODE = /^[1-5]\d\d$/;

/**
 * The error a Chat Completions server reported inside a 200 response, or undefined for a chunk.
 * Every shape vendors send is read:
 * - `{"error": {"message", "type", "code", "param"}}`: OpenAI, Groq, xAI, and OpenRouter, whose
 *   mid-stream error chunk also carries `choices` with `finish_reason: "error"` and whose code is
 *   an HTTP status number (https://openrouter.ai/docs/api-reference/errors);
 * - `{"error": "text"}`: LM Studio and small proxies;
 * - a bare `{"object": "error", "message", "type", "code"}` without `choices`: vLLM's and
 *   Mistral's error response, sent as an event when generation fails.
 * The code is the vendor's `code` (a number becomes its text), else its `type`.
 * `label` names the vendor and where the error came from ("openai stream error").
 */
export function findChatCompletionsError(data: unknown, label: string): ProviderStreamError | undefined {
	if (!data || typeof data !== "object" || Array.isArray(data)) return undefined;
	const record = data as Record<string, unknown>;
	const nested = record.error;
	// Some servers put `"error": null` (or false, or "") on every ordinary chunk.
	if (nested !== undefined && nested !== null && nested !== false && nested !== "") {
		if (typeof nested === "string") return streamError(label, nested, codeOf(record));
		if (typeof nested === "object" && !Array.isArray(nested)) {
			const error = nested as Record<string, unknown>;
			const message = textOf(error.message) ?? JSON.stringify(error);
			return streamError(label, message, codeOf(error));
		}
		return streamError(label, textOf(record.message) ?? JSON.stringify(record), codeOf(record));
	}
	const bare =
		record.object === "error" ||
		(!("choices" in record) && textOf(record.message) !== undefined && ("code" in record || "type" in record));
	if (!bare) return undefined;
	return streamError(label, textOf(record.message) ?? JSON.stringify(record), codeOf(record));
}

function streamError(label: string, message: string, code: string | undefined): ProviderStreamError {
	return new ProviderStreamError(`${label}${code ? ` ${code}` : ""}: ${message}`, code);
}

function textOf(value: unknown): string | undefined {
	return typeof value === "string" && value !== "" ? value : undefined;
}

function codeOf(error: Record<string, unknown>): string | undefined {
	const { code, type } = error;
	if (typeof code === "number" && Number.isFinite(code)) return String(code);
	return textOf(code) ?? textOf(type);
}

/**
 * `classifyError` plus what Chat Completions vendors put in their errors:
 * - an in-stream error is retried when its code names a temporary condition, is an HTTP status
 *   Keel retries (429, 5xx …), or its text says "overloaded" (before any content only, as every
 *   retry);
 * - OpenRouter wraps the upstream provider's own error in `error.metadata.raw`; it is appended
 *   after a newline, since it usually says what actually went wrong.
 */
export function classifyOpenAICompletionsError(error: unknown): ErrorClassification {
	if (error instanceof ProviderStreamError) {
		return {
			message: error.message,
			retryable: isRetryableStreamCode(error.code) || /overloaded/i.test(error.message),
		};
	}
	const classified = classifyError(error);
	if (!error || typeof error !== "object") return classified;
	const raw = upstreamError((error as { error?: unknown }).error);
	if (raw && !classified.message.includes(raw)) return { ...classified, message: `${classified.message}\n${raw}` };
	return classified;
}

function isRetryableStreamCode(code: string | undefined): boolean {
	if (code === undefined) return false;
	if (RETRYABLE_STREAM_CODES.has(code)) return true;
	// A status as a code gets the same decision as that status on an HTTP response.
	return STATUS_CODE.test(code) && classifyError({ status: Number(code), message: "" }).retryable;
}

function upstreamError(body: unknown): string | undefined {
	if (!body || typeof body !== "object") return undefined;
	const metadata = (body as { metadata?: unknown }).metadata;
	if (!metadata || typeof metadata !== "object") return undefined;
	const raw = (metadata as { raw?: unknown }).raw;
	if (typeof raw === "string") return raw || undefined;
	return raw === undefined || raw === null ? undefined : JSON.stringify(raw);
}

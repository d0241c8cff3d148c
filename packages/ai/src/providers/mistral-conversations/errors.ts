import { classifyError, type ErrorClassification } from "../../call/error-classification.js";
import { ProviderHttpError, ProviderStreamError } from "../../wire/provider-errors.js";

// In-stream error codes or types that name a temporary condition, besides HTTP statuses.
const RETRYABLE_STREAM_CODES = new Set(["rate_limit_exceeded", "rate_limited", "service_unavailable", "server_error"]);
const STATUS_CODE = /^[1-5]\d\d$/;

/**
 * The error Mistral reported inside a 200 stream, or undefined for an ordinary chunk. Mistral's
 * error object is `{"object": "error", "message", "type", "param", "code"}`; gateways in front of
 * it may send `{"error": {"message", "type", "code"}}` or `{"detail": …}`.
 */
export function findMistralStreamError(data: unknown): ProviderStreamError | undefined {
	if (!data || typeof data !== "object" || Array.isArray(data)) return undefined;
	const record = data as Record<string, unknown>;
	const nested = record.error;
	if (nested && typeof nested === "object" && !Array.isArray(nested)) {
		const error = nested as Record<string, unknown>;
		return streamError(describeMistralMessage(error.message) ?? JSON.stringify(error), codeOf(error));
	}
	if (typeof nested === "string" && nested !== "") return streamError(nested, codeOf(record));
	if (record.object === "error") {
		return streamError(describeMistralMessage(record.message) ?? JSON.stringify(record), codeOf(record));
	}
	if (!("choices" in record) && record.detail !== undefined) {
		return streamError(describeMistralMessage(record.detail) ?? JSON.stringify(record.detail), undefined);
	}
	return undefined;
}

function streamError(message: string, code: string | undefined): ProviderStreamError {
	return new ProviderStreamError(`Mistral stream error${code ? ` ${code}` : ""}: ${message}`, code);
}

function codeOf(error: Record<string, unknown>): string | undefined {
	const { code, type } = error;
	if (typeof code === "number" && Number.isFinite(code)) return String(code);
	if (typeof code === "string" && code !== "") return code;
	return typeof type === "string" && type !== "" ? type : undefined;
}

/**
 * Mistral's `message` as text. A request that fails validation (422) carries FastAPI's detail
 * list instead of text: `{"detail": [{"type", "loc": ["body", "field"], "msg", "input"}]}`; each
 * entry becomes `msg (body.field)`.
 */
export function describeMistralMessage(message: unknown): string | undefined {
	if (typeof message === "string") return message === "" ? undefined : message;
	if (!message || typeof message !== "object") return undefined;
	const detail = Array.isArray(message) ? message : (message as { detail?: unknown }).detail;
	if (typeof detail === "string") return detail;
	if (!Array.isArray(detail)) return undefined;
	const entries = detail.map((entry) => {
		const { msg, loc } = (entry ?? {}) as { msg?: unknown; loc?: unknown };
		const where = Array.isArray(loc) ? ` (${loc.join(".")})` : "";
		return `${typeof msg === "string" ? msg : JSON.stringify(entry)}${where}`;
	});
	return entries.length > 0 ? entries.join("; ") : undefined;
}

/**
 * `classifyError` plus what Mistral's errors hold: a 422's validation details are named field by
 * field, and an in-stream error is retried when its code is a status Keel retries (429, 5xx) or
 * names a temporary condition (before any content only, as every retry).
 */
export function classifyMistralError(error: unknown): ErrorClassification {
	if (error instanceof ProviderStreamError) {
		return { message: error.message, retryable: isRetryableStreamCode(error.code) };
	}
	if (error instanceof ProviderHttpError) {
		const readable = validationMessage(error.error.message);
		if (readable) {
			const rewritten = new ProviderHttpError(error.status, error.headers, { ...error.error, message: readable });
			return classifyError(rewritten);
		}
	}
	return classifyError(error);
}

/** The readable text of a 422 body that the shared reader could only quote as JSON. */
function validationMessage(quoted: string): string | undefined {
	if (!quoted.startsWith("{")) return undefined;
	try {
		const body = JSON.parse(quoted) as { message?: unknown };
		return typeof body.message === "object" ? describeMistralMessage(body.message) : undefined;
	} catch {
		return undefined;
	}
}

function isRetryableStreamCode(code: string | undefined): boolean {
	if (code === undefined) return false;
	if (RETRYABLE_STREAM_CODES.has(code)) return true;
	return STATUS_CODE.test(code) && classifyError({ status: Number(code), message: "" }).retryable;
}

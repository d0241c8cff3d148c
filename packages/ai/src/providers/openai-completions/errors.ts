import { classifyError, type ErrorClassification } from "../shared/retry.js";

interface ErrorWithBody {
	status?: unknown;
	error?: unknown;
}

/**
 * `classifyError` plus what Chat Completions vendors put in their error bodies:
 * - OpenRouter wraps the upstream provider's own error in `error.metadata.raw`; it is appended
 *   after a newline, since it usually says what actually went wrong;
 * - some servers (LM Studio) send `{"error": "<text>"}`, a string rather than an object.
 */
export function classifyOpenAICompletionsError(error: unknown): ErrorClassification {
	const classified = classifyError(error);
	if (!error || typeof error !== "object") return classified;
	const { status, error: body } = error as ErrorWithBody;
	let message = classified.message;
	if (typeof status === "number" && typeof body === "string" && body) message = `${status} ${body}`;
	const raw = upstreamError(body);
	if (raw && !message.includes(raw)) message = `${message}\n${raw}`;
	return { ...classified, message };
}

function upstreamError(body: unknown): string | undefined {
	if (!body || typeof body !== "object") return undefined;
	const metadata = (body as { metadata?: unknown }).metadata;
	if (!metadata || typeof metadata !== "object") return undefined;
	const raw = (metadata as { raw?: unknown }).raw;
	if (typeof raw === "string") return raw || undefined;
	return raw === undefined || raw === null ? undefined : JSON.stringify(raw);
}

/**
 * The openai SDK keeps only the `error` member of an error body. Servers that answer
 * `{"message": …}` (vLLM) or `{"detail": …}` (FastAPI-based proxies) would be reported as
 * "status code (no body)"; this puts their body where `classifyError` looks.
 */
export function attachErrorBody(error: unknown, bodyText: string | undefined): unknown {
	if (!bodyText || !error || typeof error !== "object") return error;
	const target = error as ErrorWithBody;
	if (typeof target.status !== "number" || target.error !== undefined) return error;
	let parsed: unknown;
	try {
		parsed = JSON.parse(bodyText);
	} catch {
		parsed = undefined;
	}
	if (parsed && typeof parsed === "object") {
		const record = parsed as Record<string, unknown>;
		const detail = record.message ?? record.detail ?? record.error;
		target.error = { message: typeof detail === "string" ? detail : JSON.stringify(detail ?? parsed) };
	} else {
		target.error = { message: bodyText.trim().slice(0, 2000) };
	}
	return error;
}

import { findNetworkCause } from "./connection-error.js";

/** How one failed attempt should be treated. */
export interface ErrorClassification {
	/** The text for `errorMessage` (the provider's own message where there is one). */
	message: string;
	status?: number;
	retryable: boolean;
	/** Delay the server asked for (retry-after-ms / retry-after), in ms. */
	retryAfterMs?: number;
}

const RETRYABLE_STATUS = new Set([408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529]);

// Connection-level failures raised by fetch/undici and wrapped by the SDKs.
const CONNECTION_ERROR =
	/connection error|fetch failed|socket hang up|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|terminated|other side closed|network/i;

const OVERLOADED = /overloaded/i;

type HeaderSource = Headers | Record<string, string | string[] | undefined> | undefined;

/** Reads one header from a fetch `Headers` or a plain record, case-insensitively. */
export function readHeader(headers: HeaderSource, name: string): string | undefined {
	if (!headers) return undefined;
	if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
	const lower = name.toLowerCase();
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() === lower) return Array.isArray(value) ? value[0] : value;
	}
	return undefined;
}

/** Headers as a plain lower-cased record (for `onResponse`). */
export function headersToRecord(headers: HeaderSource): Record<string, string> {
	const record: Record<string, string> = {};
	if (!headers) return record;
	if (typeof (headers as Headers).forEach === "function" && typeof (headers as Headers).get === "function") {
		(headers as Headers).forEach((value, key) => {
			record[key.toLowerCase()] = value;
		});
		return record;
	}
	for (const [key, value] of Object.entries(headers)) {
		if (value !== undefined) record[key.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
	}
	return record;
}

/** The delay a response asks for: `retry-after-ms`, else `retry-after` (seconds or an HTTP date). */
export function parseRetryAfter(headers: HeaderSource, now = Date.now()): number | undefined {
	const milliseconds = readHeader(headers, "retry-after-ms");
	if (milliseconds !== undefined) {
		const value = Number(milliseconds);
		if (Number.isFinite(value) && value >= 0) return value;
	}
	const retryAfter = readHeader(headers, "retry-after");
	if (retryAfter === undefined) return undefined;
	const seconds = Number(retryAfter);
	if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
	const date = Date.parse(retryAfter);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

interface ErrorLike {
	status?: unknown;
	message?: unknown;
	headers?: HeaderSource;
	error?: unknown;
	code?: unknown;
	cause?: unknown;
	name?: unknown;
}

/** Finds the provider's own message in an SDK error body (`{error:{message}}` or `{message}`). */
function providerMessage(body: unknown): { message?: string; type?: string } {
	if (!body || typeof body !== "object") return {};
	const record = body as Record<string, unknown>;
	const nested = record.error;
	if (nested && typeof nested === "object") {
		const inner = providerMessage(nested);
		if (inner.message) return inner;
	}
	const message = typeof record.message === "string" ? record.message : typeof nested === "string" ? nested : undefined;
	const type =
		typeof record.type === "string" ? record.type : typeof record.code === "string" ? record.code : undefined;
	return { message, type };
}

/**
 * Classifies an error thrown by an SDK or fetch: HTTP status and the provider's message, and
 * whether retrying can help (408/409/429/5xx/overloaded and connection failures, except a host
 * name that does not resolve). A network failure's message names its system error.
 */
export function classifyError(error: unknown): ErrorClassification {
	if (!error || typeof error !== "object") return { message: String(error), retryable: false };
	const candidate = error as ErrorLike;
	const status = typeof candidate.status === "number" ? candidate.status : undefined;
	const ownMessage = typeof candidate.message === "string" ? candidate.message : String(error);
	const fromBody = providerMessage(candidate.error);
	const detail = fromBody.message ?? stripStatusPrefix(ownMessage, status);
	const network = findNetworkCause(error);
	const causeText = network?.message ?? (candidate.cause instanceof Error ? candidate.cause.message : "");
	if (status !== undefined) {
		const type = fromBody.type && !detail.includes(fromBody.type) ? ` (${fromBody.type})` : "";
		return {
			message: `${status} ${detail}${type}`,
			status,
			retryable: RETRYABLE_STATUS.has(status) || OVERLOADED.test(detail),
			retryAfterMs: parseRetryAfter(candidate.headers),
		};
	}
	const message = causeText && !ownMessage.includes(causeText) ? `${ownMessage} (${causeText})` : ownMessage;
	if (network) return { message, retryable: network.retryable };
	const connection =
		CONNECTION_ERROR.test(ownMessage) || CONNECTION_ERROR.test(causeText) || /Connection/.test(String(candidate.name));
	return { message, retryable: connection || OVERLOADED.test(ownMessage) };
}

function stripStatusPrefix(message: string, status: number | undefined): string {
	if (status === undefined) return message;
	const prefix = `${status} `;
	return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

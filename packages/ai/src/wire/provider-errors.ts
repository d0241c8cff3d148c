// The two error shapes every HTTP provider throws for failures the provider itself reported: an HTTP
// error status, and an error event inside a 200 stream. `classifyError` (retry.ts) reads the first
// without knowing any provider: `status`, `headers` (retry-after, x-should-retry) and `error.message`
// / `error.type`. Each provider's errors.ts decides whether the second can be retried.

/** The provider's own description of a failure, read from whichever documented shape it sent. */
export interface ProviderErrorDetail {
	message: string;
	/** Anthropic's `error.type`, OpenAI's `error.type` or `error.code`; absent when the body names none. */
	type?: string;
	/** Other fields of the provider's error object, kept for provider-specific reading (OpenRouter `metadata`). */
	[field: string]: unknown;
}

/** Longest piece of an error body quoted in a message (an HTML error page can be large). */
const MAX_QUOTED_BODY = 2000;

/**
 * Most bytes of an error body read. Every documented error shape fits in a few hundred bytes; a
 * server that answers a failure with megabytes (a 20 MB error page) must not become a 20 MB
 * `errorMessage` nor keep the call downloading it. The rest is cancelled, unread.
 */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * An HTTP response outside 2xx. The message is `<status> <provider's message>`; `error` holds the
 * provider's error object where `classifyError` looks for the message and type.
 */
export class ProviderHttpError extends Error {
	override name = "ProviderHttpError";

	constructor(
		readonly status: number,
		readonly headers: Headers,
		readonly error: ProviderErrorDetail,
	) {
		super(`${status} ${error.message}`);
	}

	/** Reads the body of a failed response once and keeps the provider's own message. */
	static async fromResponse(response: Response): Promise<ProviderHttpError> {
		const body = await readErrorBody(response);
		const detail = withoutRepeatedStatus(describeErrorBody(body.text, response.statusText), response.status);
		if (body.cut) detail.message = `${detail.message} (${describeCut(body.totalBytes)})`;
		return new ProviderHttpError(response.status, response.headers, detail);
	}

	/**
	 * The same error from a caller's SDK client (`options.client`), which raises its own error for a
	 * non-2xx answer after reading the body: status, headers and the parsed body are on it. Other
	 * failures (connection errors, aborts) are returned unchanged.
	 */
	static fromClientError(error: unknown): unknown {
		// The SDK read the whole body; its message is bounded here as a body read by Keel would be.
		if (!error || typeof error !== "object") return error;
		const candidate = error as { status?: unknown; headers?: unknown; error?: unknown; message?: unknown };
		if (typeof candidate.status !== "number") return error;
		const headers = new Headers(candidate.headers instanceof Headers ? candidate.headers : undefined);
		const detail =
			candidate.error === undefined
				? { message: typeof candidate.message === "string" ? quote(candidate.message) : "no body" }
				: describeErrorValue(candidate.error);
		return new ProviderHttpError(candidate.status, headers, withoutRepeatedStatus(detail, candidate.status));
	}
}

/**
 * An error the provider reported inside a 200 event stream (Anthropic's `event: error`, a Responses
 * `error` event, a Chat Completions `{"error": …}` chunk), or in a JSON body sent instead of the
 * stream. There is no HTTP status; `code` is the provider's error type or code when it sent one.
 */
export class ProviderStreamError extends Error {
	override name = "ProviderStreamError";

	constructor(
		message: string,
		readonly code: string | undefined,
	) {
		super(message);
	}
}

/**
 * The provider's message from an error body, whichever documented shape it has:
 * - Anthropic: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`;
 * - OpenAI, Azure, OpenRouter and most compatible servers: `{"error":{"message","type","code"}}`;
 * - LM Studio: `{"error":"<text>"}`; vLLM: `{"object":"error","message":…}`; FastAPI proxies:
 *   `{"detail":…}`;
 * - anything else (a proxy's HTML or plain-text page) is quoted, shortened.
 */
export function describeErrorBody(text: string, statusText = ""): ProviderErrorDetail {
	const trimmed = text.trim();
	if (trimmed === "") return { message: statusText || "no body" };
	let parsed: unknown;
	try {
		parsed = JSON.parse(trimmed);
	} catch {
		return { message: quote(trimmed) };
	}
	return describeErrorValue(parsed);
}

/** The provider's message from an already parsed error body (see describeErrorBody). */
export function describeErrorValue(body: unknown): ProviderErrorDetail {
	if (typeof body === "string") return { message: quote(body.trim()) || "no body" };
	if (!body || typeof body !== "object") return { message: String(body) };
	const record = body as Record<string, unknown>;
	const nested = record.error;
	const nestedMessage = (nested as { message?: unknown } | null | undefined)?.message;
	if (nested && typeof nested === "object" && typeof nestedMessage === "string" && nestedMessage !== "") {
		const error = nested as Record<string, unknown>;
		const type = typeof error.type === "string" ? error.type : typeof error.code === "string" ? error.code : undefined;
		return { ...error, message: quote(error.message as string), type };
	}
	if (typeof nested === "string" && nested !== "") return { message: quote(nested) };
	// A top-level message (vLLM) is taken without its `type`: vLLM's type is its exception class name.
	if (typeof record.message === "string" && record.message !== "") return { message: quote(record.message) };
	if (typeof record.detail === "string" && record.detail !== "") return { message: quote(record.detail) };
	const detail = record.detail ?? nested;
	return { message: quote(safeStringify(detail ?? body)) };
}

/** At most MAX_QUOTED_BODY characters of a server's text, with an ellipsis when it was longer. */
function quote(text: string): string {
	return text.length > MAX_QUOTED_BODY ? `${text.slice(0, MAX_QUOTED_BODY - 1)}…` : text;
}

// JSON.stringify recurses: a body nested thousands of levels deep would overflow the stack.
function safeStringify(value: unknown): string {
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return String(value);
	}
}

/** The first MAX_ERROR_BODY_BYTES of an error body, and whether more was left unread. */
export async function readErrorBody(response: Response): Promise<{ text: string; cut: boolean; totalBytes?: number }> {
	const header = response.headers.get("content-length");
	const declared = header === null || header.trim() === "" ? Number.NaN : Number(header);
	const totalBytes = Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined;
	if (!response.body) return { text: "", cut: false };
	const reader = response.body.getReader();
	const decoder = new TextDecoder();
	let text = "";
	let bytes = 0;
	let cut = false;
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			const room = MAX_ERROR_BODY_BYTES - bytes;
			if (value.byteLength > room) {
				text += decoder.decode(value.subarray(0, room), { stream: true });
				bytes += room;
				cut = true;
				break;
			}
			text += decoder.decode(value, { stream: true });
			bytes += value.byteLength;
		}
		text += decoder.decode();
	} catch {
		// A body cut while reading an error: the status and what arrived still say what happened.
	} finally {
		// Stops the download of whatever was not read; a no-op once the body ended.
		reader.cancel().catch(() => {});
	}
	return { text, cut, totalBytes };
}

/** "error body cut at 64 KB of 20971520 bytes", or without the size when the server did not say it. */
export function describeCut(totalBytes: number | undefined): string {
	const kilobytes = MAX_ERROR_BODY_BYTES / 1024;
	return totalBytes === undefined
		? `error body cut at ${kilobytes} KB; the rest was not read`
		: `error body cut at ${kilobytes} KB of ${totalBytes} bytes`;
}

// Azure repeats the status as the error code (`{"code":"401"}`): "401 … (401)" would say nothing more.
function withoutRepeatedStatus(detail: ProviderErrorDetail, status: number): ProviderErrorDetail {
	const repeated = String(status);
	if (detail.type !== repeated && detail.code !== repeated) return detail;
	const { type, code, ...rest } = detail;
	return { ...rest, ...(type === repeated ? {} : { type }), ...(code === repeated ? {} : { code }) };
}

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

/** Longest piece of a non-JSON body quoted in a message (an HTML error page can be large). */
const MAX_QUOTED_BODY = 2000;

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
		let text = "";
		try {
			text = await response.text();
		} catch {
			// A body cut while reading an error: the status still says what happened.
		}
		return new ProviderHttpError(
			response.status,
			response.headers,
			withoutRepeatedStatus(describeErrorBody(text, response.statusText), response.status),
		);
	}

	/**
	 * The same error from a caller's SDK client (`options.client`), which raises its own error for a
	 * non-2xx answer after reading the body: status, headers and the parsed body are on it. Other
	 * failures (connection errors, aborts) are returned unchanged.
	 */
	static fromClientError(error: unknown): unknown {
		if (!error || typeof error !== "object") return error;
		const candidate = error as { status?: unknown; headers?: unknown; error?: unknown; message?: unknown };
		if (typeof candidate.status !== "number") return error;
		const headers = new Headers(candidate.headers instanceof Headers ? candidate.headers : undefined);
		const detail =
			candidate.error === undefined
				? { message: typeof candidate.message === "string" ? candidate.message : "no body" }
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
	try {
		return describeErrorValue(JSON.parse(trimmed));
	} catch {
		return { message: trimmed.slice(0, MAX_QUOTED_BODY) };
	}
}

/** The provider's message from an already parsed error body (see describeErrorBody). */
export function describeErrorValue(body: unknown): ProviderErrorDetail {
	if (typeof body === "string") return { message: body.trim().slice(0, MAX_QUOTED_BODY) || "no body" };
	if (!body || typeof body !== "object") return { message: String(body) };
	const record = body as Record<string, unknown>;
	const nested = record.error;
	const nestedMessage = (nested as { message?: unknown } | null | undefined)?.message;
	if (nested && typeof nested === "object" && typeof nestedMessage === "string" && nestedMessage !== "") {
		const error = nested as Record<string, unknown>;
		const type = typeof error.type === "string" ? error.type : typeof error.code === "string" ? error.code : undefined;
		return { ...error, message: error.message as string, type };
	}
	if (typeof nested === "string" && nested !== "") return { message: nested };
	// A top-level message (vLLM) is taken without its `type`: vLLM's type is its exception class name.
	if (typeof record.message === "string" && record.message !== "") return { message: record.message };
	if (typeof record.detail === "string" && record.detail !== "") return { message: record.detail };
	const detail = record.detail ?? nested;
	return { message: JSON.stringify(detail ?? body).slice(0, MAX_QUOTED_BODY) };
}

// Azure repeats the status as the error code (`{"code":"401"}`): "401 … (401)" would say nothing more.
function withoutRepeatedStatus(detail: ProviderErrorDetail, status: number): ProviderErrorDetail {
	const repeated = String(status);
	if (detail.type !== repeated && detail.code !== repeated) return detail;
	const { type, code, ...rest } = detail;
	return { ...rest, ...(type === repeated ? {} : { type }), ...(code === repeated ? {} : { code }) };
}

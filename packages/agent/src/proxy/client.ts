// streamProxy: a StreamFunction that runs the call on a Keel proxy server, so a browser never holds
// a provider key. It runs under @keel/ai's createProviderStream like every provider (one event
// stream, abort, timeouts, the idle watchdog, retries before content, never throw), with the
// proxy's SSE events as its wire format (decode-proxy-event.ts).
import {
	type Api,
	type AssistantMessageEventStream,
	type Context,
	classifyError,
	createProviderStream,
	formatThrownValue,
	headersToRecord,
	type Model,
	type ProviderAttempt,
	type ProviderStreamConfig,
	parseRetryAfter,
	readServerSentEvents,
	type SimpleStreamOptions,
} from "@keel/ai";
import { decodeProxyEvent, ProxyStreamError } from "./decode-proxy-event.js";
import {
	PROXY_STREAM_PATH,
	type ProxyAssistantMessageEvent,
	type ProxyStreamRequest,
	pickForwardedOptions,
} from "./protocol.js";

export interface ProxyStreamOptions extends SimpleStreamOptions {
	/**
	 * Sent as `Authorization: Bearer <authToken>`; the proxy's `authenticate` callback checks it.
	 * A function is called before each request, so short-lived tokens can be refreshed.
	 */
	authToken: string | (() => string | Promise<string>);
	/** The proxy's origin (and optional base path); the request goes to `<proxyUrl>/api/stream`. */
	proxyUrl: string;
	/**
	 * Ends the stream when the proxy sends no bytes (not even its heartbeat) for this long, in ms.
	 * Default: `idleTimeoutMs` (2 minutes when unset) plus 30 s, so the server's own idle error
	 * arrives first; 0 disables it.
	 */
	proxyIdleTimeoutMs?: number;
	/** The fetch to use; defaults to the global one. */
	fetch?: typeof fetch;
}

const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
/** The client's limits trail the server's by this much, so the server's own error (with its text) arrives first. */
const PROXY_SLACK_MS = 30_000;

/**
 * Posts the model's provider and id, the context and the forwardable options (see
 * `pickForwardedOptions`; never `apiKey`, never credential headers) to `<proxyUrl>/api/stream`, and
 * rebuilds the message from the proxy's slim SSE events. Bad options, HTTP errors, network errors, a
 * malformed stream, a stream cut short and an abort all arrive as one `error` event; `result()`
 * always settles.
 *
 * Retries (`maxRetries`, default 2) cover only what happens before the proxy accepts the request: a
 * connection failure, or 408/429/502/503/504 from the proxy or a gateway in front of it. Once the
 * proxy answers 200 it has started the upstream call (which the server retries itself), so nothing
 * after that is retried: a client retry would multiply upstream calls.
 */
export function streamProxy(
	model: Model<Api>,
	context: Context,
	options: ProxyStreamOptions,
): AssistantMessageEventStream {
	const problem = describeInvalidOptions(options);
	const harnessOptions: SimpleStreamOptions = { ...options, ...clientLimits(options) };
	return createProviderStream(
		model,
		harnessOptions,
		async (attempt) => {
			if (problem) throw new ProxyRequestError(problem);
			await runProxyAttempt(attempt, context, options);
		},
		PROXY_STREAM_CONFIG,
	);
}

/** The client needs no provider key: the server holds them. */
const PROXY_STREAM_CONFIG: ProviderStreamConfig = {
	requiresApiKey: false,
	classifyError: classifyProxyError,
	endpointName: "the proxy",
};

async function runProxyAttempt(
	attempt: ProviderAttempt<Api>,
	context: Context,
	options: ProxyStreamOptions,
): Promise<void> {
	const { model, builder } = attempt;
	let authToken: unknown;
	try {
		authToken = typeof options.authToken === "function" ? await options.authToken() : options.authToken;
	} catch (error) {
		throw new ProxyRequestError(`streamProxy: options.authToken() failed: ${formatThrownValue(error)}`);
	}
	if (typeof authToken !== "string" || authToken === "") {
		throw new ProxyRequestError("streamProxy: options.authToken() must return a non-empty string");
	}
	const body: ProxyStreamRequest = {
		model: { provider: model.provider, id: model.id },
		context,
		options: pickForwardedOptions(options),
	};
	const fetchFunction = options.fetch ?? globalThis.fetch;
	const response = await fetchFunction(joinUrl(options.proxyUrl, PROXY_STREAM_PATH), {
		method: "POST",
		headers: { Authorization: `Bearer ${authToken}`, "Content-Type": "application/json", Accept: "text/event-stream" },
		body: JSON.stringify(body),
		signal: attempt.signal,
	});
	attempt.touch();
	await attempt.reportResponse({ status: response.status, headers: headersToRecord(response.headers) });
	if (!response.ok) {
		throw new ProxyHttpError(response.status, await describeHttpError(response), parseRetryAfter(response.headers));
	}
	if (!response.body) throw new ProxyStreamError("Proxy error: the response has no body");

	// From here the proxy has started the upstream call: whatever fails is final, never retried.
	// Every chunk, heartbeat comments included, counts as activity for the idle watchdog.
	for await (const events of readServerSentEvents(response.body, attempt.touch)) {
		for (const { data } of events) {
			let event: ProxyAssistantMessageEvent;
			try {
				event = JSON.parse(data) as ProxyAssistantMessageEvent;
			} catch {
				throw new ProxyStreamError(`Proxy stream error: an event is not valid JSON: ${data.slice(0, 200)}`);
			}
			decodeProxyEvent(builder, event);
			if (builder.isSealed) return;
		}
	}
	// The server closed the connection without a terminal event (crash, restart, a proxy in
	// between): the content so far is kept, and the caller gets an error instead of a hang.
	throw new ProxyStreamError("Proxy stream ended without a done or error event");
}

/** Bad options or a failing authToken function: the caller must fix them, so never retried. */
class ProxyRequestError extends Error {
	override name = "ProxyRequestError";
}

/** A non-2xx answer from the proxy (or a gateway in front of it), before any upstream call. */
class ProxyHttpError extends Error {
	override name = "ProxyHttpError";
	constructor(
		readonly status: number,
		message: string,
		/** The delay the proxy asked for (Retry-After), in ms. */
		readonly retryAfterMs: number | undefined,
	) {
		super(message);
	}
}

/** Statuses that mean "not now" from the proxy or a gateway before it; the proxy's own 500 is a bug, not retried. */
const RETRYABLE_PROXY_STATUS = new Set([408, 429, 502, 503, 504]);

function classifyProxyError(error: unknown): ReturnType<NonNullable<ProviderStreamConfig["classifyError"]>> {
	if (error instanceof ProxyHttpError) {
		return {
			message: error.message,
			status: error.status,
			retryable: RETRYABLE_PROXY_STATUS.has(error.status),
			retryAfterMs: error.retryAfterMs,
		};
	}
	if (error instanceof ProxyStreamError || error instanceof ProxyRequestError) {
		return { message: error.message, retryable: false };
	}
	// fetch rejected: the proxy could not be reached, so no upstream call was made. The shared
	// reading says whether trying again can help: a refused or reset connection can, a proxy host
	// name that does not resolve (ENOTFOUND) or a request fetch refuses to send cannot.
	const classified = classifyError(error);
	return { message: `Proxy request failed: ${classified.message}`, retryable: classified.retryable };
}

/** The client's own total and idle limits, each trailing the server's so the server's error arrives first. */
function clientLimits(
	options: ProxyStreamOptions | undefined,
): Pick<SimpleStreamOptions, "timeoutMs" | "idleTimeoutMs"> {
	const timeoutMs = options?.timeoutMs ? options.timeoutMs + PROXY_SLACK_MS : undefined;
	if (options?.proxyIdleTimeoutMs !== undefined)
		return { timeoutMs, idleTimeoutMs: Math.max(0, options.proxyIdleTimeoutMs) };
	if (options?.idleTimeoutMs === 0) return { timeoutMs, idleTimeoutMs: 0 };
	return { timeoutMs, idleTimeoutMs: (options?.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS) + PROXY_SLACK_MS };
}

function describeInvalidOptions(options: ProxyStreamOptions | undefined): string | undefined {
	if (!options || typeof options !== "object") {
		return "streamProxy needs options with proxyUrl and authToken";
	}
	if (typeof options.proxyUrl !== "string" || options.proxyUrl.trim() === "") {
		return "streamProxy: options.proxyUrl must be the proxy's URL, for example https://example.com";
	}
	const token = options.authToken;
	if (typeof token !== "function" && (typeof token !== "string" || token === "")) {
		return "streamProxy: options.authToken must be a non-empty string or a function returning one (sent as a bearer token)";
	}
	const fetchFunction = options.fetch ?? globalThis.fetch;
	if (typeof fetchFunction !== "function") {
		return "streamProxy: no fetch function is available; pass options.fetch";
	}
	return undefined;
}

function joinUrl(base: string, path: string): string {
	return base.replace(/\/+$/, "") + path;
}

/** `Proxy error: <body.error>` when the body is JSON with an error, else `Proxy error: <status> <text>`. */
async function describeHttpError(response: Response): Promise<string> {
	let bodyText = "";
	try {
		bodyText = await response.text();
	} catch {
		// The status alone still says what failed.
	}
	try {
		const parsed = JSON.parse(bodyText) as { error?: unknown };
		if (typeof parsed.error === "string" && parsed.error !== "") return `Proxy error: ${parsed.error}`;
		if (parsed.error && typeof parsed.error === "object") {
			const message = (parsed.error as { message?: unknown }).message;
			if (typeof message === "string") return `Proxy error: ${message}`;
		}
	} catch {
		// Not JSON: fall back to the status line.
	}
	return `Proxy error: ${`${response.status} ${response.statusText}`.trim()}`;
}

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
import { clampLimit, DEFAULT_LIMIT_RANGES } from "./limit-ranges.js";
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
	 * Ends the stream when the proxy sends no event for this long, in ms (heartbeat comments do not
	 * count). Default: `idleTimeoutMs` (2 minutes when unset) as the server clamps it (at most 5
	 * minutes by default), plus as much again up to 30 s, so the server's own idle error arrives
	 * first; 0 disables it.
	 */
	proxyIdleTimeoutMs?: number;
	/** The fetch to use; defaults to the global one. */
	fetch?: typeof fetch;
}

const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
/** The most the client's limits trail the server's, so the server's own error (with its text) arrives first. */
const PROXY_SLACK_MS = 30_000;
/** setTimeout's largest delay; a longer one fires at once (with a TimeoutOverflowWarning on Node). */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

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
	const harnessOptions: SimpleStreamOptions = problem ? { ...options } : { ...options, ...clientLimits(options) };
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
	// Only events count as activity for the idle watchdog, not the heartbeat comments: a proxy that
	// sends nothing but `: ping` has stopped streaming, and must not hold the call open forever.
	for await (const events of readServerSentEvents(response.body)) {
		attempt.touch();
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

/**
 * The client's own total and idle limits. Each trails the server's by as much again, at most 30 s,
 * so the server's error (with its text and the content so far) arrives first and the client's
 * watchdogs only catch a proxy that stopped sending events.
 */
function clientLimits(options: ProxyStreamOptions): Pick<SimpleStreamOptions, "timeoutMs" | "idleTimeoutMs"> {
	const timeoutMs = options.timeoutMs && options.timeoutMs > 0 ? trailing(options.timeoutMs) : undefined;
	if (options.proxyIdleTimeoutMs !== undefined) {
		const idle = options.proxyIdleTimeoutMs;
		return { timeoutMs, idleTimeoutMs: idle > 0 ? Math.min(idle, MAX_TIMER_DELAY_MS) : 0 };
	}
	// The server clamps the idle limit a page asks for (0 and huge values included) into its range;
	// the client assumes the default range, so a page can never switch its own watchdog off.
	const asked = options.idleTimeoutMs;
	const requested = typeof asked === "number" && asked >= 0 ? asked : DEFAULT_IDLE_TIMEOUT_MS;
	const serverIdle = clampLimit(requested, DEFAULT_LIMIT_RANGES.idleTimeoutMs);
	return { timeoutMs, idleTimeoutMs: trailing(serverIdle) };
}

/** `limit` plus as much again, at most PROXY_SLACK_MS, within setTimeout's range. */
function trailing(limit: number): number {
	const slack = Math.min(limit, PROXY_SLACK_MS);
	return Math.min(limit, MAX_TIMER_DELAY_MS - slack) + slack;
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

// streamProxy: a StreamFunction that runs the call on a Keel proxy server, so a browser never holds
// a provider key. It runs under @keel/ai's createProviderStream like every provider (one event
// stream, abort, timeouts, the idle watchdog, retries before content, never throw), with the
// proxy's SSE events as its wire format (decode-proxy-event.ts).
import {
	type Api,
	type AssistantMessageEventStream,
	type Context,
	createProviderStream,
	formatThrownValue,
	type Model,
	type ProviderStreamConfig,
	type SimpleStreamOptions,
	toJsonSchema,
} from "@keel/ai";
import {
	classifyError,
	headersToRecord,
	type ProviderAttempt,
	parseRetryAfter,
	pump,
	sseFramer,
} from "@keel/ai/provider-kit";
import { decodeProxyEvent, ProxyStreamError } from "./decode-proxy-event.js";
import { clampLimit, DEFAULT_LIMIT_RANGES } from "./limit-ranges.js";
import {
	PROXY_STREAM_PATH,
	type ProxyAssistantMessageEvent,
	type ProxyStreamRequest,
	pickForwardedOptions,
} from "./protocol.js";
import { STREAM_ID_HEADER } from "./resumable-streams.js";

export interface ProxyStreamOptions extends SimpleStreamOptions {
	/**
	 * Sent as `Authorization: Bearer <authToken>`; the proxy's `authenticate` callback checks it.
	 * A function is called before each request, so short-lived tokens can be refreshed.
	 */
	authToken: string | (() => string | Promise<string>);
	/** The proxy's origin (and optional base path); the request goes to `<proxyUrl>/api/stream`. */
	proxyUrl: string;
	/**
	 * Ends the stream when the proxy sends nothing for this long, in ms. Before the first content
	 * event heartbeat comments count (the server may be retrying its upstream call); after it only
	 * events do. Default: `idleTimeoutMs` (2 minutes when unset) as the server clamps it (at most 5
	 * minutes by default), plus as much again up to 30 s, so the server's own idle error arrives
	 * first; 0 disables it.
	 */
	proxyIdleTimeoutMs?: number;
	/**
	 * The longest the client waits, in ms, for the first content event once the proxy accepted the
	 * request, however many heartbeats arrive meanwhile. Default: what a server with the default
	 * settings may spend before content (3 attempts of its idle limit and 2 retry delays) plus 30 s:
	 * 8.5 minutes with the default limits; 0 disables it (`timeoutMs` still applies).
	 */
	proxyWaitTimeoutMs?: number;
	/** The fetch to use; defaults to the global one. */
	fetch?: typeof fetch;
	/**
	 * Called with the answer's stream id when the proxy makes answers resumable (its
	 * `resumableStreams` option). Keep it (sessionStorage, say) to read the answer again after a
	 * reload with `resumeStreamId`.
	 */
	onStreamId?: (streamId: string) => void;
	/**
	 * Reads the answer of this stream id (from `onStreamId`) from its start instead of asking the
	 * model: after a reload, the whole answer arrives again, the part still coming included, with no
	 * second model call. `context` is not sent.
	 */
	resumeStreamId?: string;
	/**
	 * How many times a dropped connection is resumed, from the last event received, on a proxy
	 * with resumable answers. Default 3; 0 turns automatic resuming off.
	 */
	maxResumeAttempts?: number;
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
		// Errors name the proxy's host, not the model's provider host the proxy calls for us.
		{ ...PROXY_STREAM_CONFIG, endpointUrl: typeof options?.proxyUrl === "string" ? options.proxyUrl : undefined },
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
	const fetchFunction = options.fetch ?? globalThis.fetch;
	let response: Response;
	if (options.resumeStreamId !== undefined) {
		response = await fetchFunction(resumeUrl(options.proxyUrl, options.resumeStreamId), {
			method: "GET",
			headers: { Authorization: `Bearer ${authToken}`, Accept: "text/event-stream" },
			signal: attempt.signal,
		});
	} else {
		const body: ProxyStreamRequest = {
			model: { provider: model.provider, id: model.id },
			context: withJsonSchemaTools(context),
			options: pickForwardedOptions(options),
		};
		response = await fetchFunction(joinUrl(options.proxyUrl, PROXY_STREAM_PATH), {
			method: "POST",
			headers: {
				Authorization: `Bearer ${authToken}`,
				"Content-Type": "application/json",
				Accept: "text/event-stream",
			},
			body: JSON.stringify(body),
			signal: attempt.signal,
		});
	}
	attempt.touch();
	await attempt.reportResponse({ status: response.status, headers: headersToRecord(response.headers) });
	if (!response.ok) {
		throw new ProxyHttpError(response.status, await describeHttpError(response), parseRetryAfter(response.headers));
	}
	if (!response.body) throw new ProxyStreamError("Proxy error: the response has no body");
	const streamId = response.headers.get(STREAM_ID_HEADER) ?? undefined;
	if (streamId !== undefined && options.resumeStreamId === undefined) {
		try {
			options.onStreamId?.(streamId);
		} catch {
			// The caller's bookkeeping must not cost it the answer.
		}
	}
	const resume: ResumeState | undefined =
		streamId === undefined
			? undefined
			: {
					streamId,
					lastEventId: 0,
					attemptsLeft: options.maxResumeAttempts ?? DEFAULT_MAX_RESUME_ATTEMPTS,
					reconnect: (lastEventId) =>
						fetchFunction(resumeUrl(options.proxyUrl, streamId), {
							method: "GET",
							headers: {
								Authorization: `Bearer ${authToken}`,
								Accept: "text/event-stream",
								"Last-Event-ID": String(lastEventId),
							},
							signal: attempt.signal,
						}),
				};

	// From here the proxy has started the upstream call: whatever fails is final, never retried.
	const events = response.body;
	const waitLimitMs = firstContentWaitLimit(options);
	if (waitLimitMs === undefined) return readResumableEvents(attempt, events, resume);
	let waitTimer: ReturnType<typeof setTimeout> | undefined;
	const waitExpired = new Promise<never>((_resolve, reject) => {
		waitTimer = setTimeout(() => {
			if (!builder.hasContent) {
				reject(
					new ProxyStreamError(
						`The proxy accepted the request but sent no content for ${waitLimitMs} ms; the stream was stopped (proxyWaitTimeoutMs)`,
					),
				);
			}
		}, waitLimitMs);
	});
	const reading = readResumableEvents(attempt, events, resume, () => clearTimeout(waitTimer));
	// When the wait ends the attempt, the harness aborts the request, and the reading fails quietly.
	reading.catch(() => {});
	try {
		await Promise.race([reading, waitExpired]);
	} finally {
		clearTimeout(waitTimer);
	}
}

const DEFAULT_MAX_RESUME_ATTEMPTS = 3;

/** What a dropped connection needs to resume: the stream, the last event read, and a reconnect. */
interface ResumeState {
	streamId: string;
	lastEventId: number;
	attemptsLeft: number;
	reconnect: (lastEventId: number) => Promise<Response>;
}

/**
 * Reads the events; when the connection drops before the last event of a resumable answer, asks
 * the proxy (any instance) for the events after the last one read and goes on with those, so
 * nothing arrives twice and nothing is lost. The upstream call is not repeated.
 */
async function readResumableEvents(
	attempt: ProviderAttempt<Api>,
	body: ReadableStream<Uint8Array>,
	resume: ResumeState | undefined,
	onFirstContent: () => void = () => {},
): Promise<void> {
	let events = body;
	for (;;) {
		try {
			return await readProxyEvents(attempt, events, onFirstContent, resume);
		} catch (error) {
			if (!resume || resume.attemptsLeft <= 0 || attempt.signal.aborted || !isDroppedConnection(error)) throw error;
			resume.attemptsLeft--;
			let response: Response;
			try {
				response = await resume.reconnect(resume.lastEventId);
			} catch {
				throw error;
			}
			attempt.touch();
			if (!response.ok || !response.body) {
				throw new ProxyStreamError(
					`The connection to the proxy dropped and resuming failed: ${await describeHttpError(response)}`,
				);
			}
			events = response.body;
		}
	}
}

/** A connection that ended or broke before the last event; a malformed stream is not resumed. */
function isDroppedConnection(error: unknown): boolean {
	if (error instanceof ProxyStreamError) return error.message === STREAM_ENDED_EARLY;
	return !(error instanceof ProxyRequestError || error instanceof ProxyHttpError);
}

const STREAM_ENDED_EARLY = "Proxy stream ended without a done or error event";

/**
 * Reads the proxy's events into the builder on @keel/ai's pump until a terminal one. Until the
 * first content event the server may be waiting for its upstream's first token, or retrying the
 * upstream call (which it does only before content), and sends heartbeat comments meanwhile: those
 * count as activity for the idle watchdog then (the wait itself is bounded by proxyWaitTimeoutMs).
 * Once content streams, the server never retries and its own idle limit ends a stalled upstream
 * with an error event, so only events count: a proxy that sends nothing but `: ping` there ends
 * with the idle error.
 */
async function readProxyEvents(
	attempt: ProviderAttempt<Api>,
	body: ReadableStream<Uint8Array>,
	onFirstContent: () => void = () => {},
	resume?: ResumeState,
): Promise<void> {
	const { builder } = attempt;
	let waitingForContent = !builder.hasContent;
	// The SSE id of the event being decoded: a resumable answer numbers its events, and a dropped
	// connection resumes after the last one decoded.
	let eventId: string | undefined;
	await pump(attempt, body, {
		label: "the Keel proxy",
		framer: sseFramer(),
		decoder: {
			decode: (event: ProxyAssistantMessageEvent) => {
				decodeProxyEvent(builder, event);
				if (resume && eventId !== undefined) resume.lastEventId = Number(eventId);
				if (waitingForContent && builder.hasContent) {
					waitingForContent = false;
					onFirstContent();
				}
			},
			get isFinished() {
				return builder.isSealed;
			},
			// The server closed the connection without a terminal event (crash, restart, a proxy in
			// between): the content so far is kept, and the caller gets an error instead of a hang.
			end() {
				throw new ProxyStreamError(STREAM_ENDED_EARLY);
			},
		},
		parse: ({ data, id }) => {
			eventId = id;
			try {
				return JSON.parse(data) as ProxyAssistantMessageEvent;
			} catch {
				throw new ProxyStreamError(`Proxy stream error: an event is not valid JSON: ${data.slice(0, 200)}`);
			}
		},
		// Before content a heartbeat is activity (the wait is bounded by proxyWaitTimeoutMs); after
		// it, nothing but an event is: the server's own idle limit ends a stalled upstream with an
		// error event, so a proxy that sends only heartbeats then has stopped working.
		onKeepAlive: () => {
			if (!builder.hasContent) attempt.touch();
		},
	});
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

/**
 * How long the client waits for the first content event: `proxyWaitTimeoutMs`, else what a server
 * with the default settings may spend before content (its retries happen only then): three
 * attempts of its idle limit and two retry delays, both as it clamps them, plus PROXY_SLACK_MS.
 * Undefined when disabled.
 */
function firstContentWaitLimit(options: ProxyStreamOptions): number | undefined {
	const given = options.proxyWaitTimeoutMs;
	if (given !== undefined) return given > 0 ? Math.min(given, MAX_TIMER_DELAY_MS) : undefined;
	const askedIdle = options.idleTimeoutMs;
	const idle = clampLimit(
		typeof askedIdle === "number" && askedIdle >= 0 ? askedIdle : DEFAULT_IDLE_TIMEOUT_MS,
		DEFAULT_LIMIT_RANGES.idleTimeoutMs,
	);
	const askedDelay = options.maxRetryDelayMs;
	const retryDelay = clampLimit(
		typeof askedDelay === "number" && askedDelay >= 0 ? askedDelay : DEFAULT_LIMIT_RANGES.maxRetryDelayMs.max,
		DEFAULT_LIMIT_RANGES.maxRetryDelayMs,
	);
	const serverRetries = 2;
	return Math.min((serverRetries + 1) * idle + serverRetries * retryDelay + PROXY_SLACK_MS, MAX_TIMER_DELAY_MS);
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
	if (
		options.resumeStreamId !== undefined &&
		(typeof options.resumeStreamId !== "string" || options.resumeStreamId === "")
	) {
		return "streamProxy: options.resumeStreamId must be the stream id the proxy sent (onStreamId)";
	}
	const attempts = options.maxResumeAttempts;
	if (attempts !== undefined && (typeof attempts !== "number" || !Number.isInteger(attempts) || attempts < 0)) {
		return `streamProxy: options.maxResumeAttempts must be a whole number of at least 0, got ${String(attempts)}`;
	}
	const fetchFunction = options.fetch ?? globalThis.fetch;
	if (typeof fetchFunction !== "function") {
		return "streamProxy: no fetch function is available; pass options.fetch";
	}
	return undefined;
}

function resumeUrl(proxyUrl: string, streamId: string): string {
	return joinUrl(proxyUrl, `${PROXY_STREAM_PATH}/${encodeURIComponent(streamId)}`);
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

/**
 * The context with each tool's parameters as JSON Schema: a Zod, Valibot or ArkType schema is an
 * object of functions that JSON cannot carry, so its library's conversion goes to the server.
 */
function withJsonSchemaTools(context: Context): Context {
	if (!context.tools?.length) return context;
	return {
		...context,
		tools: context.tools.map((tool) => {
			try {
				return { ...tool, parameters: toJsonSchema(tool.parameters, `Tool "${tool.name}"`) };
			} catch (error) {
				throw new ProxyRequestError(`streamProxy: ${formatThrownValue(error)}`);
			}
		}),
	};
}

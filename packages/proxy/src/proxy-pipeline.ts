// The proxy server's pipeline, shared by the Node and fetch adapters in server.ts: method, path,
// token, size limit, body validation, model allow-list, server keys, then the SSE event pump.
// It knows nothing about the runtime: the adapters hand it a ProxyRequestParts.
import {
	type Api,
	type AssistantMessage,
	type AssistantMessageEvent,
	type AssistantMessageEventStream,
	type Context,
	type ContextLimits,
	createErrorMessage,
	findModel,
	type Model,
	type SimpleStreamOptions,
	streamSimple,
	validateContext,
} from "@keel/ai";
import { InFlightBudget } from "./in-flight-budget.js";
import { type ProxyLimitRanges, resolveLimitRanges } from "./limit-ranges.js";
import { decodeChatCompletionRequest, nameChatMessage } from "./openai/chat-completion-request.js";
import {
	createChatChunkEncoder,
	openAIErrorBody,
	toChatCompletion,
	toModelList,
} from "./openai/chat-completion-response.js";
import { PROXY_STREAM_PATH, type ProxyForwardedOptions, toProxyEvent } from "./protocol.js";
import { ProxyRequestError, validateProxyRequest } from "./request-validation.js";
import {
	isValidStreamId,
	ResumableStreamError,
	type ResumableStreamStore,
	type ResumableStreamWriter,
	STREAM_ID_HEADER,
} from "./resumable-streams.js";

/**
 * Decides which model serves a request. Return the server's Model, `true` to allow the catalogue's
 * model of that provider and id (@keel/ai `findModel`), or `false`/undefined to refuse with 403.
 */
export type ProxyModelResolver<TRequest> = (
	model: { provider: string; id: string },
	request: TRequest,
) => Model<Api> | boolean | undefined | Promise<Model<Api> | boolean | undefined>;

export interface ProxyServerOptions<TRequest> {
	/** Checks the bearer token. Return false to refuse with 401. Required: a proxy without it is an open relay. */
	authenticate: (token: string, request: TRequest) => boolean | Promise<boolean>;
	/**
	 * The models this proxy serves: a list (matched on provider and id), or a resolver that returns a
	 * Model or allows a catalogue model with `true` (a predicate). The server
	 * uses its own Model (baseUrl, headers, compat), never anything the client describes.
	 */
	models: readonly Model<Api>[] | ProxyModelResolver<TRequest>;
	/** The server's key for a provider. Default: the environment (the stream function's own lookup). */
	getApiKey?: (provider: string) => string | undefined | Promise<string | undefined>;
	/** Adjusts or caps the client's options (for example a maxTokens ceiling) before the call. */
	prepareOptions?: (
		options: ProxyForwardedOptions,
		call: { model: Model<Api>; context: Context; request: TRequest },
	) => SimpleStreamOptions | Promise<SimpleStreamOptions>;
	/** The stream function; default `streamSimple` from @keel/ai. Tests inject scripted ones. */
	streamFunction?: (model: Model<Api>, context: Context, options: SimpleStreamOptions) => AssistantMessageEventStream;
	/** Larger bodies get 413. Default 4 MiB (images in the context make bodies large). */
	maxRequestBytes?: number;
	/**
	 * The request bytes all requests in flight may hold together (a body is held until its upstream
	 * call ends). Beyond it a request gets 503 with `Retry-After`. Default 64 MiB; at least
	 * `maxRequestBytes`.
	 */
	maxInFlightRequestBytes?: number;
	/** The whole body must arrive within this many ms of the handler starting to read it, else 408. Default 60000. */
	bodyTimeoutMs?: number;
	/**
	 * The range each limit a browser may send (`timeoutMs`, `idleTimeoutMs`, `maxRetryDelayMs`) is
	 * clamped into; 0 ("no limit") becomes the maximum. Default `DEFAULT_LIMIT_RANGES`.
	 */
	limitRanges?: Partial<ProxyLimitRanges>;
	/**
	 * Beta headers (`anthropic-beta`, `OpenAI-Beta`, any name ending in `-beta`) turn on features
	 * billed to the server's key. Keyed by header name in lower case, the feature names a browser may
	 * turn on; any other feature is removed from the header. Default: none.
	 */
	allowedBetaFeatures?: Readonly<Record<string, readonly string[]>>;
	/**
	 * Limits on the context a client sends: nesting depth of arrays and objects (default 64), the
	 * number of messages (10,000) and tools (1,000). Beyond them, 400 naming the field.
	 */
	contextLimits?: ContextLimits;
	/**
	 * Node handler: a client more than this many bytes behind (unsent response bytes) is dropped and
	 * its upstream call aborted. Fetch handler: the same bound on the response stream's queue. Default 4 MiB.
	 */
	maxBufferedBytes?: number;
	/** Node handler: a client that has not caught up (drained) for this many ms is dropped. Default 60000. */
	stalledReaderTimeoutMs?: number;
	/** The path served; other paths get 404 (or `next()` on Node). Default "/api/stream"; null serves any path. */
	path?: string | null;
	/** An SSE comment every this many ms keeps idle connections open through intermediaries. Default 15000; 0 disables. */
	heartbeatMs?: number;
	/** Which request headers a client may forward upstream. Default: `isForwardableHeader`. */
	isHeaderAllowed?: (name: string) => boolean;
	/** Origins allowed to call cross-origin (CORS), or "*". Default none: same-origin only. */
	allowedOrigins?: readonly string[] | "*";
	/** Unexpected failures (a throwing callback); the client only sees a generic message. */
	onError?: (error: unknown) => void;
	/**
	 * Also answer OpenAI's `POST /v1/chat/completions` (streaming and not) and `GET /v1/models`, so
	 * any OpenAI client can call the allowed models, named `<provider>/<id>`, with the same token,
	 * allow-list, validation and limits. Default false.
	 */
	openAICompatible?: boolean;
	/**
	 * Makes answers resumable: each answer gets a stream id (the `X-Keel-Stream-Id` response header)
	 * and each event an SSE `id:`, and the events go to this store (`createRedisStreamStore` from
	 * `@keel/proxy/redis`), so `GET <path>/<streamId>` with `Last-Event-ID` on any instance sharing
	 * the store sends the rest. A dropped connection then no longer aborts the upstream call: the
	 * answer runs to its end (within its time limits) so it can be resumed. Default: none.
	 */
	resumableStreams?: ResumableStreamStore;
}

const DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_IN_FLIGHT_REQUEST_BYTES = 64 * 1024 * 1024;
export const DEFAULT_BODY_TIMEOUT_MS = 60_000;
export const DEFAULT_HEARTBEAT_MS = 15_000;
export const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
export const DEFAULT_STALLED_READER_TIMEOUT_MS = 60_000;
/** What a 503 for a full budget asks the client to wait, in seconds: upstream calls take seconds. */
const BUSY_RETRY_AFTER_SECONDS = 2;

/** The per-handler state and settings, resolved once when the handler is created. */
export interface ProxyHandlerState {
	budget: InFlightBudget;
	limitRanges: ProxyLimitRanges;
	maxRequestBytes: number;
	bodyTimeoutMs: number;
}

/** How a body may be read: its size limit (413), its time limit (408), and the server-wide budget (503). */
export interface BodyReadLimits {
	maxBytes: number;
	timeoutMs: number;
	/** Called with the bytes received so far; throws the 503 when the server-wide budget is exceeded. */
	accept(totalBytes: number): void;
}

/** The request as the pipeline sees it, whatever the runtime. */
export interface ProxyRequestParts<TRequest> {
	request: TRequest;
	method: string;
	pathname: string;
	header: (name: string) => string | null;
	/** Reads the body as text, throwing ProxyRequestError 413/408 past the limits, and calling `accept` as bytes arrive. */
	readBody: (limits: BodyReadLimits) => Promise<string>;
}

export type ProxyResponse =
	| { kind: "json"; status: number; headers: Record<string, string>; body: string }
	| { kind: "empty"; status: number; headers: Record<string, string> }
	| { kind: "not-found" }
	| {
			kind: "events";
			headers: Record<string, string>;
			/** Writes the SSE events (an upstream call's, or a resumed stream's) to the sink until the last one. */
			pump: (sink: EventSink) => Promise<void>;
			/** Gives the request's bytes back to the server-wide budget; call when the response ends. */
			release: () => void;
	  };

const sseHeaders = {
	"Content-Type": "text/event-stream; charset=utf-8",
	"Cache-Control": "no-cache, no-transform",
	// nginx buffers responses by default, which would hold back every delta until the end.
	"X-Accel-Buffering": "no",
};

/** The routes the pipeline serves: the proxy's own stream, and the OpenAI-compatible pair. */
type Route = "stream" | "resume" | "chat-completions" | "models";

export const OPENAI_CHAT_COMPLETIONS_PATH = "/v1/chat/completions";
export const OPENAI_MODELS_PATH = "/v1/models";

function routeOf(pathname: string, options: ProxyServerOptions<never>): Route | undefined {
	if (options.openAICompatible) {
		if (pathname === OPENAI_CHAT_COMPLETIONS_PATH) return "chat-completions";
		if (pathname === OPENAI_MODELS_PATH) return "models";
	}
	const servedPath = options.path === undefined ? PROXY_STREAM_PATH : options.path;
	if (options.resumableStreams && servedPath !== null && pathname.startsWith(`${servedPath}/`)) return "resume";
	return servedPath === null || pathname === servedPath ? "stream" : undefined;
}

/** An error response: `{ "error": "…" }` on the proxy's route, OpenAI's error object on its routes. */
function jsonError(
	status: number,
	message: string,
	headers: Record<string, string> = {},
	route: Route = "stream",
): ProxyResponse {
	return {
		kind: "json",
		status,
		headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
		body:
			route === "stream" || route === "resume" ? JSON.stringify({ error: message }) : openAIErrorBody(status, message),
	};
}

function jsonResponse(body: unknown, headers: Record<string, string>): ProxyResponse {
	return {
		kind: "json",
		status: 200,
		headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
		body: JSON.stringify(body),
	};
}

function corsHeaders(
	origin: string | null,
	allowed: ProxyServerOptions<unknown>["allowedOrigins"],
): Record<string, string> {
	if (!origin || !allowed) return {};
	if (allowed !== "*" && !allowed.includes(origin)) return {};
	return { "Access-Control-Allow-Origin": origin, Vary: "Origin" };
}

function bearerToken(authorization: string | null): string | undefined {
	const match = authorization?.match(/^Bearer\s+(.+)$/i);
	return match ? match[1].trim() : undefined;
}

async function resolveModel<TRequest>(
	options: ProxyServerOptions<TRequest>,
	reference: { provider: string; id: string },
	request: TRequest,
): Promise<Model<Api> | undefined> {
	if (typeof options.models === "function") {
		const decision = await options.models(reference, request);
		if (decision === true) return findModel(reference.provider, reference.id);
		return decision || undefined;
	}
	return options.models.find((model) => model.provider === reference.provider && model.id === reference.id);
}

/** The pipeline shared by both adapters. It never throws: every refusal is a response. */
export async function runProxyRequest<TRequest>(
	parts: ProxyRequestParts<TRequest>,
	options: ProxyServerOptions<TRequest>,
	state: ProxyHandlerState,
	signal: AbortSignal,
): Promise<ProxyResponse> {
	const route = routeOf(parts.pathname, options as ProxyServerOptions<never>);
	if (route === undefined) return { kind: "not-found" };
	const method = route === "models" || route === "resume" ? "GET" : "POST";
	const cors = corsHeaders(parts.header("origin"), options.allowedOrigins);
	if (parts.method === "OPTIONS" && Object.keys(cors).length > 0) {
		return {
			kind: "empty",
			status: 204,
			headers: {
				...cors,
				"Access-Control-Allow-Methods": method,
				"Access-Control-Allow-Headers":
					route === "resume" ? "Authorization, Last-Event-ID" : "Authorization, Content-Type",
				"Access-Control-Max-Age": "600",
			},
		};
	}
	if (parts.method !== method) {
		return jsonError(
			405,
			`The proxy accepts ${method} only here, got ${parts.method}`,
			{ Allow: method, ...cors },
			route,
		);
	}
	const reservation = state.budget.open();
	try {
		const token = bearerToken(parts.header("authorization"));
		if (!token) throw new ProxyRequestError(401, "Missing bearer token: send Authorization: Bearer <token>");
		if (!(await callUserCode(options, () => options.authenticate(token, parts.request)))) {
			throw new ProxyRequestError(401, "Invalid token");
		}
		if (route === "resume") {
			reservation.release();
			return await resumeStream(parts, options, cors, signal);
		}
		if (route === "models") {
			reservation.release();
			// A resolver cannot be listed; only a list of models is.
			return jsonResponse(toModelList(Array.isArray(options.models) ? options.models : []), cors);
		}

		const limit = state.maxRequestBytes;
		const declaredLength = Number(parts.header("content-length") ?? "0");
		if (declaredLength > limit) throw tooLarge(limit);
		const accept = (totalBytes: number) => {
			if (!reservation.grow(totalBytes)) throw busy(state.budget.limitBytes);
		};
		// A declared length is reserved before reading, so a full server refuses without reading.
		if (declaredLength > 0) accept(declaredLength);
		const text = await parts.readBody({ maxBytes: limit, timeoutMs: state.bodyTimeoutMs, accept });
		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch {
			throw new ProxyRequestError(400, "Invalid proxy request: the body is not valid JSON");
		}
		const chat = route === "chat-completions" ? decodeChatCompletionRequest(json) : undefined;
		const policy = {
			isHeaderAllowed: options.isHeaderAllowed,
			limitRanges: state.limitRanges,
			allowedBetaFeatures: options.allowedBetaFeatures,
			contextLimits: options.contextLimits,
		};
		let body: ReturnType<typeof validateProxyRequest>;
		try {
			body = validateProxyRequest(chat ? chat.proxyRequest : json, policy);
		} catch (error) {
			throw chat && error instanceof ProxyRequestError ? nameChatMessage(error, chat.sourceIndexes) : error;
		}

		const model = await callUserCode(options, () => resolveModel(options, body.model, parts.request));
		if (!model) {
			throw new ProxyRequestError(403, `Model "${body.model.provider}/${body.model.id}" is not allowed by this proxy`);
		}
		dropHeadersOfServerModel(body.options, model);
		const streamOptions: SimpleStreamOptions = options.prepareOptions
			? await callUserCode(options, () =>
					options.prepareOptions!(body.options, { model, context: body.context, request: parts.request }),
				)
			: { ...body.options };
		// The server's keys only: validation dropped any key the client sent, so an apiKey here was
		// set by prepareOptions (server code); getApiKey wins over it, else the environment lookup.
		const apiKey = options.getApiKey
			? await callUserCode(options, () => options.getApiKey!(model.provider))
			: undefined;
		if (apiKey !== undefined) streamOptions.apiKey = apiKey;
		// A resumable answer outlives its first connection: a reader may come back for the rest.
		const store = route === "stream" ? options.resumableStreams : undefined;
		streamOptions.signal = store ? undefined : signal;

		const streamFunction = options.streamFunction ?? streamSimple;
		if (chat && !chat.stream) {
			try {
				return completeChat(
					() => streamFunction(model, body.context, streamOptions),
					chat.modelName,
					cors,
					options.onError,
				);
			} finally {
				reservation.release();
			}
		}
		const upstream = () => streamFunction(model, body.context, streamOptions);
		const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
		if (store) {
			const streamId = globalThis.crypto.randomUUID();
			const writer = openWriter(store, streamId, options.onError);
			return {
				kind: "events",
				headers: {
					...sseHeaders,
					...cors,
					[STREAM_ID_HEADER]: streamId,
					...(cors["Access-Control-Allow-Origin"] ? { "Access-Control-Expose-Headers": STREAM_ID_HEADER } : {}),
				},
				pump: (sink) => pumpEvents(upstream, createPublishingEncoder(writer), sink, heartbeatMs, options.onError),
				release: reservation.release,
			};
		}
		const encode = chat ? createChatChunkEncoder(chat.modelName, chat.includeUsage) : encodeProxyEvent;
		return {
			kind: "events",
			headers: { ...sseHeaders, ...cors },
			pump: (sink) => pumpEvents(upstream, encode, sink, heartbeatMs, options.onError),
			release: reservation.release,
		};
	} catch (error) {
		reservation.release();
		if (error instanceof ProxyRequestError) {
			const extra: Record<string, string> =
				error.status === 401
					? { "WWW-Authenticate": "Bearer" }
					: error.status === 503
						? { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) }
						: {};
			return jsonError(error.status, error.message, { ...extra, ...cors }, route);
		}
		return jsonError(500, "The proxy failed to handle the request", cors, route);
	}
}

/** A store that throws when a stream opens costs the answer its resumability, never the answer. */
function openWriter(
	store: ResumableStreamStore,
	streamId: string,
	onError: ((error: unknown) => void) | undefined,
): ResumableStreamWriter {
	try {
		return store.open(streamId);
	} catch (error) {
		onError?.(error);
		return { append() {} };
	}
}

/** The proxy's SSE with an `id:` per event (1, 2, 3…), each event also appended to the store. */
function createPublishingEncoder(writer: ResumableStreamWriter): (event: AssistantMessageEvent) => string {
	let eventId = 0;
	return (event) => {
		eventId++;
		const data = JSON.stringify(toProxyEvent(event));
		writer.append(eventId, data, event.type === "done" || event.type === "error");
		return `id: ${eventId}\ndata: ${data}\n\n`;
	};
}

/**
 * `GET <path>/<streamId>`: the events after `Last-Event-ID` (all of them without it), from the
 * store, then the ones still coming, until the last. Unknown or expired ids get 404, a store that
 * cannot be reached 503.
 */
async function resumeStream<TRequest>(
	parts: ProxyRequestParts<TRequest>,
	options: ProxyServerOptions<TRequest>,
	cors: Record<string, string>,
	signal: AbortSignal,
): Promise<ProxyResponse> {
	const store = options.resumableStreams!;
	const servedPath = options.path ?? PROXY_STREAM_PATH;
	let streamId: string;
	try {
		streamId = decodeURIComponent(parts.pathname.slice(servedPath.length + 1));
	} catch {
		streamId = "";
	}
	if (!isValidStreamId(streamId)) {
		throw new ProxyRequestError(400, "Invalid stream id: expected the X-Keel-Stream-Id the proxy sent");
	}
	const lastEventIdHeader = parts.header("last-event-id")?.trim() ?? "";
	const afterEventId = lastEventIdHeader === "" ? 0 : Number(lastEventIdHeader);
	if (!Number.isSafeInteger(afterEventId) || afterEventId < 0) {
		throw new ProxyRequestError(
			400,
			`Invalid Last-Event-ID: expected an event id the proxy sent, got "${lastEventIdHeader.slice(0, 40)}"`,
		);
	}
	let events: AsyncIterable<{ id: number; data: string }>;
	try {
		events = await store.read(streamId, afterEventId, signal);
	} catch (error) {
		if (error instanceof ResumableStreamError) throw new ProxyRequestError(error.status, error.message);
		options.onError?.(error);
		throw new ProxyRequestError(503, "Resuming is unavailable: the stream store failed");
	}
	const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
	return {
		kind: "events",
		headers: { ...sseHeaders, ...cors, [STREAM_ID_HEADER]: streamId },
		pump: (sink) => pumpStoredEvents(events, sink, heartbeatMs, options.onError),
		release: () => {},
	};
}

/**
 * Writes an SSE comment every `heartbeatMs` (none unless it is above 0), so that proxies and load
 * balancers keep a quiet connection open; a backed-up connection is not quiet and gets none.
 * Returns what stops it.
 */
function startHeartbeat(sink: EventSink, heartbeatMs: number): () => void {
	if (!(heartbeatMs > 0)) return () => {};
	const timer = setInterval(() => {
		if (!sink.isBackedUp()) sink.write(": ping\n\n");
	}, heartbeatMs);
	return () => clearInterval(timer);
}

/** Writes stored events as SSE; a read that fails before the last event ends with one error event. */
async function pumpStoredEvents(
	events: AsyncIterable<{ id: number; data: string }>,
	sink: EventSink,
	heartbeatMs: number,
	onError: ((error: unknown) => void) | undefined,
): Promise<void> {
	const stopHeartbeat = startHeartbeat(sink, heartbeatMs);
	try {
		for await (const event of events) sink.write(`id: ${event.id}\ndata: ${event.data}\n\n`);
	} catch (error) {
		onError?.(error);
		const message =
			error instanceof ResumableStreamError || error instanceof Error ? error.message : "The stream store failed";
		sink.write(
			`data: ${JSON.stringify({ type: "error", reason: "error", errorMessage: `Resuming failed: ${message}` })}\n\n`,
		);
	} finally {
		stopHeartbeat();
	}
}

/**
 * The server's Model decides its own headers: a client header of the same name (any case) would win
 * in the provider's merge, so it is dropped.
 */
function dropHeadersOfServerModel(options: ProxyForwardedOptions, model: Model<Api>): void {
	if (!options.headers || !model.headers) return;
	const serverNames = new Set(Object.keys(model.headers).map((name) => name.toLowerCase()));
	const kept: Record<string, string> = {};
	let count = 0;
	for (const [name, value] of Object.entries(options.headers)) {
		if (serverNames.has(name.trim().toLowerCase())) continue;
		kept[name] = value;
		count++;
	}
	if (count > 0) options.headers = kept;
	else delete options.headers;
}

function busy(limitBytes: number): ProxyRequestError {
	return new ProxyRequestError(
		503,
		`The proxy is busy: requests in flight hold its limit of ${limitBytes} bytes (maxInFlightRequestBytes); retry after ${BUSY_RETRY_AFTER_SECONDS} s`,
	);
}

export function bodyTimedOut(timeoutMs: number): ProxyRequestError {
	return new ProxyRequestError(408, `The request body did not arrive within ${timeoutMs} ms (bodyTimeoutMs)`);
}

export function tooLarge(limit: number): ProxyRequestError {
	return new ProxyRequestError(413, `The request body is larger than the proxy's limit of ${limit} bytes`);
}

/** Runs a user callback; a throw is reported through onError and becomes a 500. */
async function callUserCode<TRequest, TResult>(
	options: ProxyServerOptions<TRequest>,
	call: () => TResult | Promise<TResult>,
): Promise<TResult> {
	try {
		return await call();
	} catch (error) {
		options.onError?.(error);
		throw error instanceof ProxyRequestError ? error : new Error("callback failed");
	}
}

/** The proxy's own SSE: one slim event per `data:` line. */
export function encodeProxyEvent(event: AssistantMessageEvent): string {
	return `data: ${JSON.stringify(toProxyEvent(event))}\n\n`;
}

/**
 * A non-streaming chat completion: the whole answer as one `chat.completion`, or an OpenAI error
 * object with 502 when the upstream call failed (500 when the stream function itself broke).
 */
async function completeChat(
	start: () => AssistantMessageEventStream,
	model: string,
	cors: Record<string, string>,
	onError: ((error: unknown) => void) | undefined,
): Promise<ProxyResponse> {
	let message: AssistantMessage;
	try {
		message = await start().result();
	} catch (error) {
		onError?.(error);
		return jsonError(500, "The proxy's stream function failed", cors, "chat-completions");
	}
	if (message.stopReason === "error" || message.stopReason === "aborted") {
		return jsonError(502, message.errorMessage ?? "The upstream call failed", cors, "chat-completions");
	}
	return jsonResponse(toChatCompletion(message, model), cors);
}

/** Where the event pump writes: a Node response or a fetch response stream. */
export interface EventSink {
	/** Writes (or buffers) one chunk; never waits. A sink drops a client that falls too far behind. */
	write(chunk: string): void;
	/** True while earlier chunks are still waiting for the client: a heartbeat would only add to them. */
	isBackedUp(): boolean;
}

/**
 * Writes the upstream's events as SSE. Always ends with exactly one done or error event, even when
 * the stream function throws or its stream ends without one, so the client never waits forever.
 * Writes never wait for the client: the upstream's events would queue up in memory instead, so the
 * sink bounds what is buffered and drops a client that stops reading.
 */
export async function pumpEvents(
	start: () => AssistantMessageEventStream,
	encode: (event: AssistantMessageEvent) => string,
	sink: EventSink,
	heartbeatMs: number,
	onError: ((error: unknown) => void) | undefined,
): Promise<void> {
	const stopHeartbeat = startHeartbeat(sink, heartbeatMs);
	try {
		let errorMessage = "The proxy's stream function failed to start";
		try {
			const upstream = start();
			errorMessage = "The proxy failed while streaming the response";
			for await (const event of upstream) {
				const text = encode(event);
				if (text !== "") sink.write(text);
				if (event.type === "done" || event.type === "error") return;
			}
			errorMessage = "The upstream stream ended without a done or error event";
		} catch (error) {
			// A stream function that throws, or breaks its contract (a malformed event, a throwing iterator).
			onError?.(error);
		}
		const failed = createErrorMessage({ api: "unknown", provider: "unknown", id: "unknown" }, "error", errorMessage);
		sink.write(encode({ type: "error", reason: "error", error: failed }));
	} finally {
		stopHeartbeat();
	}
}

/** Checks the options and resolves the handler's settings. Mistakes throw when the handler is created. */
export function createHandlerState(options: ProxyServerOptions<never>): ProxyHandlerState {
	assertServerOptions(options);
	const maxRequestBytes = positiveOption(options, "maxRequestBytes", DEFAULT_MAX_REQUEST_BYTES);
	const maxInFlight = positiveOption(options, "maxInFlightRequestBytes", DEFAULT_MAX_IN_FLIGHT_REQUEST_BYTES);
	if (maxInFlight < maxRequestBytes) {
		throw new Error(
			`Proxy handler: options.maxInFlightRequestBytes (${maxInFlight}) must be at least maxRequestBytes (${maxRequestBytes}), or no request of the largest size could ever be served`,
		);
	}
	positiveOption(options, "maxBufferedBytes", DEFAULT_MAX_BUFFERED_BYTES);
	// Validating an empty context checks the configured limits now, not on the first request.
	validateContext({ messages: [] }, options.contextLimits);
	positiveOption(options, "stalledReaderTimeoutMs", DEFAULT_STALLED_READER_TIMEOUT_MS);
	return {
		budget: new InFlightBudget(maxInFlight),
		limitRanges: resolveLimitRanges(options.limitRanges),
		maxRequestBytes,
		bodyTimeoutMs: positiveOption(options, "bodyTimeoutMs", DEFAULT_BODY_TIMEOUT_MS),
	};
}

function positiveOption(
	options: ProxyServerOptions<never>,
	name: "maxRequestBytes" | "maxInFlightRequestBytes" | "bodyTimeoutMs" | "maxBufferedBytes" | "stalledReaderTimeoutMs",
	fallback: number,
): number {
	const value = options[name];
	if (value === undefined) return fallback;
	if (typeof value !== "number" || !(value > 0) || !Number.isFinite(value)) {
		throw new Error(`Proxy handler: options.${name} must be a positive number, got ${String(value)}`);
	}
	return value;
}

function assertServerOptions(options: ProxyServerOptions<never>): void {
	// Configuration mistakes are programming errors: they throw when the handler is created.
	if (!options || typeof options.authenticate !== "function") {
		throw new Error("Proxy handler: options.authenticate(token, request) is required (return true to accept a token)");
	}
	if (typeof options.models !== "function" && !Array.isArray(options.models)) {
		throw new Error("Proxy handler: options.models must be a list of Models or a resolver function");
	}
}

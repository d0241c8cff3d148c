// The proxy server: the browser names a model and sends a context; the server checks the token,
// looks the model up in its own allow-list, calls the provider with its own keys and streams the
// events back as SSE without `partial`. One pipeline (`runProxyRequest`), two adapters: Node's
// `http` (createProxyHandler) and fetch-style runtimes (createFetchProxyHandler).
import type { IncomingMessage, ServerResponse } from "node:http";
import {
	type Api,
	type AssistantMessageEventStream,
	type Context,
	createEmptyAssistantMessage,
	type Model,
	type SimpleStreamOptions,
	streamSimple,
} from "@keel/ai";
import { PROXY_STREAM_PATH, type ProxyForwardedOptions, toProxyEvent } from "./protocol.js";
import { ProxyRequestError, validateProxyRequest } from "./request-validation.js";

export type ProxyModelResolver<TRequest> = (
	model: { provider: string; id: string },
	request: TRequest,
) => Model<Api> | undefined | Promise<Model<Api> | undefined>;

export interface ProxyServerOptions<TRequest> {
	/** Checks the bearer token. Return false to refuse with 401. Required: a proxy without it is an open relay. */
	authenticate: (token: string, request: TRequest) => boolean | Promise<boolean>;
	/**
	 * The models this proxy serves, as a list (matched on provider and id) or a resolver. The server
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
}

const DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;
const DEFAULT_HEARTBEAT_MS = 15_000;

/** The request as the pipeline sees it, whatever the runtime. */
interface ProxyRequestParts<TRequest> {
	request: TRequest;
	method: string;
	pathname: string;
	header: (name: string) => string | null;
	/** Reads the body as text, throwing ProxyRequestError(413) past `limit` bytes. */
	readBody: (limit: number) => Promise<string>;
}

type ProxyResponse =
	| { kind: "json"; status: number; headers: Record<string, string>; body: string }
	| { kind: "empty"; status: number; headers: Record<string, string> }
	| { kind: "not-found" }
	| { kind: "events"; headers: Record<string, string>; upstream: () => AssistantMessageEventStream };

const sseHeaders = {
	"Content-Type": "text/event-stream; charset=utf-8",
	"Cache-Control": "no-cache, no-transform",
	// nginx buffers responses by default, which would hold back every delta until the end.
	"X-Accel-Buffering": "no",
};

function jsonError(status: number, message: string, headers: Record<string, string> = {}): ProxyResponse {
	return {
		kind: "json",
		status,
		headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
		body: JSON.stringify({ error: message }),
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
	if (typeof options.models === "function") return options.models(reference, request);
	return options.models.find((model) => model.provider === reference.provider && model.id === reference.id);
}

/** The pipeline shared by both adapters. It never throws: every refusal is a response. */
async function runProxyRequest<TRequest>(
	parts: ProxyRequestParts<TRequest>,
	options: ProxyServerOptions<TRequest>,
	signal: AbortSignal,
): Promise<ProxyResponse> {
	const servedPath = options.path === undefined ? PROXY_STREAM_PATH : options.path;
	if (servedPath !== null && parts.pathname !== servedPath) return { kind: "not-found" };
	const cors = corsHeaders(parts.header("origin"), options.allowedOrigins);
	if (parts.method === "OPTIONS" && Object.keys(cors).length > 0) {
		return {
			kind: "empty",
			status: 204,
			headers: {
				...cors,
				"Access-Control-Allow-Methods": "POST",
				"Access-Control-Allow-Headers": "Authorization, Content-Type",
				"Access-Control-Max-Age": "600",
			},
		};
	}
	if (parts.method !== "POST") {
		return jsonError(405, `The proxy accepts POST only, got ${parts.method}`, { Allow: "POST", ...cors });
	}
	try {
		const token = bearerToken(parts.header("authorization"));
		if (!token) throw new ProxyRequestError(401, "Missing bearer token: send Authorization: Bearer <token>");
		if (!(await callUserCode(options, () => options.authenticate(token, parts.request)))) {
			throw new ProxyRequestError(401, "Invalid token");
		}

		const limit = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
		const declaredLength = Number(parts.header("content-length") ?? "0");
		if (declaredLength > limit) throw tooLarge(limit);
		const text = await parts.readBody(limit);
		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch {
			throw new ProxyRequestError(400, "Invalid proxy request: the body is not valid JSON");
		}
		const body = validateProxyRequest(json, options.isHeaderAllowed);

		const model = await callUserCode(options, () => resolveModel(options, body.model, parts.request));
		if (!model) {
			throw new ProxyRequestError(403, `Model "${body.model.provider}/${body.model.id}" is not allowed by this proxy`);
		}
		const streamOptions: SimpleStreamOptions = options.prepareOptions
			? await callUserCode(options, () =>
					options.prepareOptions!(body.options, { model, context: body.context, request: parts.request }),
				)
			: { ...body.options };
		// The server's keys only: whatever the client sent is gone by now, and this sets the key
		// (or leaves it to the environment lookup of the stream function).
		delete streamOptions.apiKey;
		const apiKey = options.getApiKey
			? await callUserCode(options, () => options.getApiKey!(model.provider))
			: undefined;
		if (apiKey !== undefined) streamOptions.apiKey = apiKey;
		streamOptions.signal = signal;

		const streamFunction = options.streamFunction ?? streamSimple;
		return {
			kind: "events",
			headers: { ...sseHeaders, ...cors },
			upstream: () => streamFunction(model, body.context, streamOptions),
		};
	} catch (error) {
		if (error instanceof ProxyRequestError) {
			const extra: Record<string, string> = error.status === 401 ? { "WWW-Authenticate": "Bearer" } : {};
			return jsonError(error.status, error.message, { ...extra, ...cors });
		}
		return jsonError(500, "The proxy failed to handle the request", cors);
	}
}

function tooLarge(limit: number): ProxyRequestError {
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

function formatEvent(data: unknown): string {
	return `data: ${JSON.stringify(data)}\n\n`;
}

/**
 * Writes the upstream's events as SSE. Always ends with exactly one done or error event, even when
 * the stream function throws or its stream ends without one, so the client never waits forever.
 */
async function pumpEvents(
	start: () => AssistantMessageEventStream,
	write: (chunk: string) => void | Promise<void>,
	heartbeatMs: number,
	onError: ((error: unknown) => void) | undefined,
): Promise<void> {
	const heartbeat = heartbeatMs > 0 ? setInterval(() => void write(": ping\n\n"), heartbeatMs) : undefined;
	try {
		let upstream: AssistantMessageEventStream;
		try {
			upstream = start();
		} catch (error) {
			onError?.(error);
			const message = createEmptyAssistantMessage("unknown", "unknown", "unknown");
			message.stopReason = "error";
			message.errorMessage = "The proxy's stream function failed to start";
			await write(formatEvent(toProxyEvent({ type: "error", reason: "error", error: message })));
			return;
		}
		for await (const event of upstream) {
			await write(formatEvent(toProxyEvent(event)));
			if (event.type === "done" || event.type === "error") return;
		}
		const final = await upstream.result().catch(() => undefined);
		const message = final ?? createEmptyAssistantMessage("unknown", "unknown", "unknown");
		const ended = {
			...message,
			stopReason: "error" as const,
			errorMessage: "The upstream stream ended without a done or error event",
		};
		await write(formatEvent(toProxyEvent({ type: "error", reason: "error", error: ended })));
	} finally {
		if (heartbeat !== undefined) clearInterval(heartbeat);
	}
}

// ---------------------------------------------------------------------------
// Node http adapter
// ---------------------------------------------------------------------------

export type NodeProxyHandler = (request: IncomingMessage, response: ServerResponse, next?: () => void) => Promise<void>;

/**
 * A handler for `http.createServer` (and Connect/Express-style `(req, res, next)` stacks). It
 * serves `options.path`; other paths call `next()` or get 404. When the client disconnects, the
 * upstream call is aborted.
 */
export function createProxyHandler(options: ProxyServerOptions<IncomingMessage>): NodeProxyHandler {
	assertServerOptions(options);
	return async (request, response, next) => {
		const controller = new AbortController();
		// "close" before the response finished means the client went away: stop paying upstream.
		response.on("close", () => {
			if (!response.writableFinished) controller.abort();
		});
		const url = new URL(request.url ?? "/", "http://localhost");
		const header = (name: string) => {
			const value = request.headers[name.toLowerCase()];
			return Array.isArray(value) ? value.join(", ") : (value ?? null);
		};
		const result = await runProxyRequest(
			{
				request,
				method: request.method ?? "GET",
				pathname: url.pathname,
				header,
				readBody: (limit) => readNodeBody(request, limit),
			},
			options,
			controller.signal,
		);
		if (result.kind === "not-found") {
			if (next) return next();
			writeNodeJson(
				response,
				404,
				{ "Content-Type": "application/json; charset=utf-8" },
				JSON.stringify({ error: `Not found: ${url.pathname}` }),
			);
			return;
		}
		if (result.kind === "json") {
			// A refused body may still be arriving; closing the connection is cheaper than draining it.
			const headers = result.status === 413 ? { ...result.headers, Connection: "close" } : result.headers;
			writeNodeJson(response, result.status, headers, result.body);
			return;
		}
		if (result.kind === "empty") {
			response.writeHead(result.status, result.headers).end();
			return;
		}
		response.writeHead(200, { ...result.headers, Connection: "keep-alive" });
		response.flushHeaders();
		await pumpEvents(
			result.upstream,
			(chunk) => writeNodeChunk(response, chunk),
			options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
			options.onError,
		);
		if (!response.destroyed) response.end();
	};
}

function writeNodeJson(response: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
	if (response.headersSent || response.destroyed) return;
	response.writeHead(status, headers).end(body);
}

/** Writes and waits for the socket to drain when its buffer is full; never waits on a closed socket. */
function writeNodeChunk(response: ServerResponse, chunk: string): Promise<void> | void {
	if (response.destroyed || response.writableEnded) return;
	if (response.write(chunk)) return;
	return new Promise((resolve) => {
		const done = () => {
			response.off("drain", done);
			response.off("close", done);
			resolve();
		};
		response.on("drain", done);
		response.on("close", done);
	});
}

function readNodeBody(request: IncomingMessage, limit: number): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const onData = (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) {
				request.off("data", onData);
				request.pause();
				reject(tooLarge(limit));
				return;
			}
			chunks.push(chunk);
		};
		request.on("data", onData);
		request.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
		request.once("error", (error) =>
			reject(new ProxyRequestError(400, `Could not read the request body: ${error.message}`)),
		);
	});
}

// ---------------------------------------------------------------------------
// Fetch-style adapter (Request → Response)
// ---------------------------------------------------------------------------

export type FetchProxyHandler = (request: Request) => Promise<Response>;

/**
 * A handler for runtimes built on the Fetch API (Deno, Bun, Cloudflare Workers, Hono, Next.js
 * route handlers). The upstream call is aborted when the request's signal fires or the client
 * cancels the response body.
 */
export function createFetchProxyHandler(options: ProxyServerOptions<Request>): FetchProxyHandler {
	assertServerOptions(options);
	return async (request) => {
		const controller = new AbortController();
		const onRequestAbort = () => controller.abort();
		if (request.signal.aborted) controller.abort();
		else request.signal.addEventListener("abort", onRequestAbort, { once: true });
		const url = new URL(request.url);
		const result = await runProxyRequest(
			{
				request,
				method: request.method,
				pathname: url.pathname,
				header: (name) => request.headers.get(name),
				readBody: (limit) => readFetchBody(request, limit),
			},
			options,
			controller.signal,
		);
		if (result.kind !== "events") request.signal.removeEventListener("abort", onRequestAbort);
		if (result.kind === "not-found") {
			return Response.json({ error: `Not found: ${url.pathname}` }, { status: 404 });
		}
		if (result.kind === "json") return new Response(result.body, { status: result.status, headers: result.headers });
		if (result.kind === "empty") return new Response(null, { status: result.status, headers: result.headers });

		const encoder = new TextEncoder();
		const body = new ReadableStream<Uint8Array>({
			start(streamController) {
				let open = true;
				const write = (chunk: string) => {
					if (open) streamController.enqueue(encoder.encode(chunk));
				};
				void pumpEvents(result.upstream, write, options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS, options.onError).finally(
					() => {
						request.signal.removeEventListener("abort", onRequestAbort);
						if (open) {
							open = false;
							streamController.close();
						}
					},
				);
				controller.signal.addEventListener("abort", () => {
					open = false;
				});
			},
			cancel() {
				// The client stopped reading: abort the upstream call.
				controller.abort();
			},
		});
		return new Response(body, { status: 200, headers: result.headers });
	};
}

async function readFetchBody(request: Request, limit: number): Promise<string> {
	if (!request.body) return "";
	const reader = request.body.getReader();
	const chunks: Uint8Array[] = [];
	let size = 0;
	while (true) {
		const { value, done } = await reader.read();
		if (done) break;
		size += value.byteLength;
		if (size > limit) {
			await reader.cancel().catch(() => {});
			throw tooLarge(limit);
		}
		chunks.push(value);
	}
	const bytes = new Uint8Array(size);
	let offset = 0;
	for (const chunk of chunks) {
		bytes.set(chunk, offset);
		offset += chunk.byteLength;
	}
	return new TextDecoder().decode(bytes);
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

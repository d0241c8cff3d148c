// The proxy server for Node's `http` (and Connect/Express stacks): the browser names a model and
// sends a context; the server checks the token, looks the model up in its own allow-list, calls the
// provider with its own keys and streams the events back as SSE without `partial`. An adapter over
// the pipeline it shares with the fetch-style handler (proxy-pipeline.ts). Node only: it reads the
// body with Buffer and writes to a ServerResponse.
import type { IncomingMessage, ServerOptions, ServerResponse } from "node:http";
import {
	type BodyReadLimits,
	bodyTimedOut,
	createHandlerState,
	DEFAULT_BODY_TIMEOUT_MS,
	DEFAULT_MAX_BUFFERED_BYTES,
	DEFAULT_STALLED_READER_TIMEOUT_MS,
	type EventSink,
	type ProxyHandlerState,
	type ProxyServerOptions,
	runProxyRequest,
	tooLarge,
} from "./proxy-pipeline.js";
import { ProxyRequestError } from "./request-validation.js";

export type { ProxyModelResolver, ProxyServerOptions } from "./proxy-pipeline.js";

export type NodeProxyHandler = (request: IncomingMessage, response: ServerResponse, next?: () => void) => Promise<void>;

/**
 * A handler for `http.createServer` (and Connect/Express-style `(req, res, next)` stacks). It
 * serves `options.path`; other paths call `next()` or get 404. When the client disconnects, the
 * upstream call is aborted.
 */
export function createProxyHandler(options: ProxyServerOptions<IncomingMessage>): NodeProxyHandler {
	const state = createHandlerState(options);
	return (request, response, next) =>
		serveNodeRequest(options, state, request, response, next).catch((error: unknown) => {
			// Only a bug or a broken socket gets here; the server must not crash on one request.
			options.onError?.(error);
			if (!response.headersSent) writeNodeJson(response, 500, {}, JSON.stringify({ error: "The proxy failed" }));
			else response.destroy();
		});
}

async function serveNodeRequest(
	options: ProxyServerOptions<IncomingMessage>,
	state: ProxyHandlerState,
	request: IncomingMessage,
	response: ServerResponse,
	next: (() => void) | undefined,
): Promise<void> {
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
			readBody: (limits) => readNodeBody(request, limits),
		},
		options,
		state,
		controller.signal,
	);
	if (result.kind === "not-found") {
		if (next) return next();
		writeNodeJson(
			response,
			404,
			request.complete
				? { "Content-Type": "application/json; charset=utf-8" }
				: { "Content-Type": "application/json; charset=utf-8", Connection: "close" },
			JSON.stringify({ error: `Not found: ${url.pathname}` }),
		);
		return;
	}
	if (result.kind === "json") {
		// A refused body may still be arriving (too large, or never read because the token was refused):
		// closing the connection is cheaper than draining it, and an unauthenticated client cannot make
		// the server read an unbounded body.
		const unread = result.status === 413 || !request.complete;
		const headers = unread ? { ...result.headers, Connection: "close" } : result.headers;
		writeNodeJson(response, result.status, headers, result.body);
		return;
	}
	if (result.kind === "empty") {
		response.writeHead(result.status, result.headers).end();
		return;
	}
	response.writeHead(200, { ...result.headers, Connection: "keep-alive" });
	response.flushHeaders();
	try {
		await result.pump(createNodeEventSink(response, options));
	} finally {
		result.release();
	}
	if (!response.destroyed) response.end();
}

function writeNodeJson(response: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
	if (response.headersSent || response.destroyed) return;
	response.writeHead(status, headers).end(body);
}

/**
 * Writes without waiting for the client, and drops a client that stays behind: more than
 * `maxBufferedBytes` unsent, or not caught up for `stalledReaderTimeoutMs`. Dropping destroys the
 * response, whose "close" aborts the upstream call. One "drain" listener per response, whatever the
 * number of writes.
 */
function createNodeEventSink(response: ServerResponse, options: ProxyServerOptions<IncomingMessage>): EventSink {
	const maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
	const stalledReaderTimeoutMs = options.stalledReaderTimeoutMs ?? DEFAULT_STALLED_READER_TIMEOUT_MS;
	let stallTimer: ReturnType<typeof setTimeout> | undefined;
	const stopTimer = () => {
		if (stallTimer !== undefined) clearTimeout(stallTimer);
		stallTimer = undefined;
	};
	const drop = () => {
		stopTimer();
		response.destroy();
	};
	response.on("drain", stopTimer);
	response.once("close", stopTimer);
	return {
		write(chunk) {
			if (response.destroyed || response.writableEnded) return;
			// Checked before writing, so one large event (a long tool call) still goes out whole.
			if (response.writableLength > maxBufferedBytes) return drop();
			if (!response.write(chunk) && stallTimer === undefined) {
				stallTimer = setTimeout(drop, stalledReaderTimeoutMs);
			}
		},
		isBackedUp: () => response.writableNeedDrain,
	};
}

function readNodeBody(request: IncomingMessage, limits: BodyReadLimits): Promise<string> {
	// A body parser mounted earlier (Express's express.json(), for example) has consumed the stream
	// and left `request.body`; waiting for "end" would wait forever.
	const parsed = (request as IncomingMessage & { body?: unknown }).body;
	if (parsed !== undefined) {
		const text =
			typeof parsed === "string" ? parsed : Buffer.isBuffer(parsed) ? parsed.toString("utf8") : JSON.stringify(parsed);
		const size = Buffer.byteLength(text);
		if (size > limits.maxBytes) return Promise.reject(tooLarge(limits.maxBytes));
		try {
			limits.accept(size);
		} catch (error) {
			return Promise.reject(error);
		}
		return Promise.resolve(text);
	}
	if (request.readableEnded) {
		return Promise.reject(new ProxyRequestError(400, "The request body was already read by another handler"));
	}
	return new Promise((resolve, reject) => {
		// With a declared length the body is copied once into a buffer of that size, instead of being
		// kept as chunks and copied again when joined: the body is in memory once while it arrives.
		const declared = Number(request.headers["content-length"] ?? Number.NaN);
		const preallocated =
			Number.isInteger(declared) && declared > 0 && declared <= limits.maxBytes
				? Buffer.allocUnsafe(declared)
				: undefined;
		const chunks: Buffer[] = [];
		let size = 0;
		const stop = (error: unknown) => {
			clearTimeout(timer);
			request.off("data", onData);
			request.pause();
			reject(error);
		};
		// Node only limits how long the whole request may take (requestTimeout, 300 s by default).
		const timer = setTimeout(() => stop(bodyTimedOut(limits.timeoutMs)), limits.timeoutMs);
		const onData = (chunk: Buffer) => {
			size += chunk.length;
			if (size > limits.maxBytes) return stop(tooLarge(limits.maxBytes));
			try {
				limits.accept(size);
			} catch (error) {
				return stop(error);
			}
			if (preallocated && size <= preallocated.length) chunk.copy(preallocated, size - chunk.length);
			else chunks.push(chunk);
		};
		request.on("data", onData);
		request.once("end", () => {
			clearTimeout(timer);
			const body = preallocated && chunks.length === 0 ? preallocated.subarray(0, size) : Buffer.concat(chunks);
			resolve(body.toString("utf8"));
		});
		request.once("error", (error) => {
			clearTimeout(timer);
			reject(new ProxyRequestError(400, `Could not read the request body: ${error.message}`));
		});
	});
}

/**
 * Options for `http.createServer(options, listener)` that give a server serving the proxy time limits
 * for slow clients, which Node leaves at 60 s (headers) and 300 s (whole request) by default:
 * `headersTimeoutMs` (default 10000) for the request line and headers, and the handler's
 * `bodyTimeoutMs` (default 60000) for the body, which the handler enforces itself wherever it is
 * mounted. Node answers a late request with 408 and closes the connection. Plain data, so this
 * module imports nothing from Node at run time and the package root still bundles for browsers.
 */
export function proxyServerTimeouts(
	limits: { headersTimeoutMs?: number; bodyTimeoutMs?: number } = {},
): Pick<ServerOptions, "headersTimeout" | "requestTimeout" | "connectionsCheckingInterval"> {
	const headersTimeoutMs = limits.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
	const bodyTimeoutMs = limits.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
	for (const [name, value] of [
		["headersTimeoutMs", headersTimeoutMs],
		["bodyTimeoutMs", bodyTimeoutMs],
	] as const) {
		if (typeof value !== "number" || !(value > 0) || !Number.isFinite(value)) {
			throw new Error(`proxyServerTimeouts: ${name} must be a positive number of ms, got ${String(value)}`);
		}
	}
	return {
		headersTimeout: headersTimeoutMs,
		// The handler's body limit fires first; this catches a body nothing reads.
		requestTimeout: headersTimeoutMs + bodyTimeoutMs,
		// Node checks both limits on this interval (30 s by default), so a short limit needs a short one.
		connectionsCheckingInterval: Math.min(1_000, headersTimeoutMs),
	};
}

const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;

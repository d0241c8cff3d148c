// The proxy server: the browser names a model and sends a context; the server checks the token,
// looks the model up in its own allow-list, calls the provider with its own keys and streams the
// events back as SSE without `partial`. Two adapters over one pipeline (proxy-pipeline.ts):
// Node's `http` (createProxyHandler) and fetch-style runtimes (createFetchProxyHandler).
import type { IncomingMessage, ServerResponse } from "node:http";
import {
	assertServerOptions,
	DEFAULT_HEARTBEAT_MS,
	type ProxyServerOptions,
	pumpEvents,
	runProxyRequest,
	tooLarge,
} from "./proxy-pipeline.js";
import { ProxyRequestError } from "./request-validation.js";

export type { ProxyModelResolver, ProxyServerOptions } from "./proxy-pipeline.js";

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
	return (request, response, next) =>
		serveNodeRequest(options, request, response, next).catch((error: unknown) => {
			// Only a bug or a broken socket gets here; the server must not crash on one request.
			options.onError?.(error);
			if (!response.headersSent) writeNodeJson(response, 500, {}, JSON.stringify({ error: "The proxy failed" }));
			else response.destroy();
		});
}

async function serveNodeRequest(
	options: ProxyServerOptions<IncomingMessage>,
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
	await pumpEvents(
		result.upstream,
		(chunk) => writeNodeChunk(response, chunk),
		options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
		options.onError,
	);
	if (!response.destroyed) response.end();
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
	// A body parser mounted earlier (Express's express.json(), for example) has consumed the stream
	// and left `request.body`; waiting for "end" would wait forever.
	const parsed = (request as IncomingMessage & { body?: unknown }).body;
	if (parsed !== undefined) {
		const text =
			typeof parsed === "string" ? parsed : Buffer.isBuffer(parsed) ? parsed.toString("utf8") : JSON.stringify(parsed);
		return Buffer.byteLength(text) > limit ? Promise.reject(tooLarge(limit)) : Promise.resolve(text);
	}
	if (request.readableEnded) {
		return Promise.reject(new ProxyRequestError(400, "The request body was already read by another handler"));
	}
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

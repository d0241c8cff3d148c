import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type CallRecording, formatRecordedEvents, parseCallRecording } from "./call-recording.js";

/** One scripted HTTP response, played to the next request that arrives. */
export interface ScriptedResponse {
	/** HTTP status; default 200. */
	status?: number;
	/** Response headers; `content-type` defaults to `text/event-stream` for 200, JSON otherwise. */
	headers?: Record<string, string>;
	/**
	 * The body. An array is written piece by piece, each piece its own write, so the test chooses
	 * the chunk boundaries (inside a line, inside a multi-byte character). Objects are sent as JSON.
	 */
	body?: string | Uint8Array | (string | Uint8Array)[] | Record<string, unknown>;
	/** Pause between pieces, in ms (default 0: each piece still goes out as a separate write). */
	chunkDelayMs?: number;
	/** Never send the response headers: the request hangs until the client gives up. */
	stallBeforeHeaders?: boolean;
	/** After the body, keep the connection open without ending it. */
	stall?: boolean;
	/** After the body, destroy the socket (a connection cut mid-stream). */
	cut?: boolean;
	/**
	 * After the body, write `piece` every `everyMs` until the client goes away: a server that only
	 * trickles (keep-alive comments, one byte of a line that never ends).
	 */
	trickle?: { piece: string | Uint8Array; everyMs: number };
}

/** How `enqueueRecording` cuts a recorded stream into writes. */
export interface RecordingReplayOptions {
	/**
	 * Writes the body in pieces of this many bytes (cutting inside lines and multi-byte characters),
	 * to reproduce a split-read bug. Default: one write per event, as the provider streamed them.
	 */
	chunkBytes?: number;
	/** Pause between writes, in ms (default 0). */
	chunkDelayMs?: number;
}

/** How the server is started. */
export interface WireTestServerOptions {
	/**
	 * Answer as a cross-origin API does, so a page served from another origin can call the server
	 * with `fetch`: CORS preflights (OPTIONS) get a 204 allowing the requested method and headers,
	 * and every response allows the caller's origin and exposes its headers. Default false.
	 * @see https://fetch.spec.whatwg.org/#http-cors-protocol
	 */
	cors?: boolean;
}

/** A request the server received. */
export interface RecordedRequest {
	method: string;
	/** Path with query string. */
	url: string;
	headers: Record<string, string | string[] | undefined>;
	body: string;
	/** The body parsed as JSON (undefined when it is not JSON). */
	json: unknown;
}

/**
 * A local HTTP server (127.0.0.1, a free port) that replays scripted responses in an API's real
 * wire format, so tests can point the real SDKs at it through `baseUrl`. Responses are consumed
 * in order; a request with none left gets a 500 naming what was missing.
 */
export class WireTestServer {
	readonly requests: RecordedRequest[] = [];
	/** CORS preflights (with `cors: true`): answered by the server itself, never from the queue. */
	readonly preflightRequests: RecordedRequest[] = [];
	private readonly queue: ScriptedResponse[] = [];
	private readonly open = new Set<ServerResponse>();

	private constructor(
		private readonly server: Server,
		readonly url: string,
		private readonly cors: boolean,
	) {}

	static async start(options: WireTestServerOptions = {}): Promise<WireTestServer> {
		let instance: WireTestServer | undefined;
		const server = createServer((request, response) => {
			void instance?.handle(request, response);
		});
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		const { port } = server.address() as AddressInfo;
		instance = new WireTestServer(server, `http://127.0.0.1:${port}`, options.cors ?? false);
		return instance;
	}

	/** Queues responses for the next requests, in order. */
	enqueue(...responses: ScriptedResponse[]): this {
		this.queue.push(...responses);
		return this;
	}

	/**
	 * Queues the answers of a recorded call (`recordCall`, `readCallRecording`), one per recorded
	 * attempt, with the recorded status, headers and exactly the recorded events in order, so
	 * `stream()` against this server reproduces the call offline. The whole recording is checked
	 * first: a malformed one throws an error naming the problem and queues nothing.
	 */
	enqueueRecording(recording: CallRecording, replay: RecordingReplayOptions = {}): this {
		const checked = parseCallRecording(recording);
		if (checked.responses.length === 0) {
			throw new Error("The recording has no responses to replay: the recorded call never got an answer");
		}
		const { chunkBytes, chunkDelayMs } = replay;
		if (chunkBytes !== undefined && !(Number.isInteger(chunkBytes) && chunkBytes > 0)) {
			throw new Error(`enqueueRecording: chunkBytes must be a positive whole number, got ${chunkBytes}`);
		}
		const responses = checked.responses.map((response): ScriptedResponse => {
			const pieces = formatRecordedEvents(response.events);
			const body = chunkBytes === undefined ? pieces : splitBytes(pieces.join(""), chunkBytes);
			return { status: response.status, headers: { ...response.headers }, body, chunkDelayMs };
		});
		return this.enqueue(...responses);
	}

	/** Responses queued but not yet played. */
	get pending(): number {
		return this.queue.length;
	}

	/** The last request received. */
	get lastRequest(): RecordedRequest | undefined {
		return this.requests[this.requests.length - 1];
	}

	/** Forgets recorded requests and queued responses. */
	reset(): void {
		this.requests.length = 0;
		this.preflightRequests.length = 0;
		this.queue.length = 0;
	}

	async close(): Promise<void> {
		for (const response of this.open) response.destroy();
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		const body = Buffer.concat(chunks).toString("utf8");
		let json: unknown;
		try {
			json = body ? JSON.parse(body) : undefined;
		} catch {
			json = undefined;
		}
		const recorded: RecordedRequest = {
			method: request.method ?? "GET",
			url: request.url ?? "/",
			headers: request.headers,
			body,
			json,
		};
		if (this.cors && isPreflight(request)) {
			this.preflightRequests.push(recorded);
			response.writeHead(204, preflightHeaders(request));
			response.end();
			return;
		}
		this.requests.push(recorded);

		const scripted = this.queue.shift();
		this.open.add(response);
		response.on("close", () => this.open.delete(response));
		const cors = this.cors ? (headers: Record<string, string>) => withCorsHeaders(request, headers) : undefined;
		if (!scripted) {
			const headers = { "content-type": "application/json" };
			response.writeHead(500, cors ? cors(headers) : headers);
			response.end(
				JSON.stringify({
					error: { message: `wire-test server: no scripted response left for ${request.method} ${request.url}` },
				}),
			);
			return;
		}
		await this.play(scripted, response, cors);
	}

	private async play(
		scripted: ScriptedResponse,
		response: ServerResponse,
		cors: ((headers: Record<string, string>) => Record<string, string>) | undefined,
	): Promise<void> {
		if (scripted.stallBeforeHeaders) return;
		const status = scripted.status ?? 200;
		const isObjectBody =
			scripted.body !== undefined &&
			typeof scripted.body === "object" &&
			!Array.isArray(scripted.body) &&
			!(scripted.body instanceof Uint8Array);
		const defaultType = isObjectBody || status !== 200 ? "application/json" : "text/event-stream";
		const headers = { "content-type": defaultType, "cache-control": "no-cache", ...scripted.headers };
		response.writeHead(status, cors ? cors(headers) : headers);
		response.flushHeaders();

		const pieces = isObjectBody
			? [JSON.stringify(scripted.body)]
			: Array.isArray(scripted.body)
				? scripted.body
				: scripted.body === undefined
					? []
					: [scripted.body as string | Uint8Array];
		for (const piece of pieces) {
			if (response.destroyed) return;
			response.write(piece);
			// Yield to the event loop so each piece leaves as its own TCP write.
			await delay(scripted.chunkDelayMs ?? 0);
		}
		if (scripted.cut) {
			response.socket?.destroy();
			return;
		}
		if (scripted.trickle) {
			const { piece, everyMs } = scripted.trickle;
			let closed = false;
			response.on("close", () => {
				closed = true;
			});
			while (!closed && !response.destroyed) {
				await delay(everyMs);
				if (closed || response.destroyed) return;
				response.write(piece);
			}
			return;
		}
		if (scripted.stall) return;
		response.end();
	}
}

/** A CORS preflight: OPTIONS naming the method the real request will use. */
function isPreflight(request: IncomingMessage): boolean {
	return request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined;
}

/** Allows the origin, method and headers the preflight asks for (the browser lists them). */
function preflightHeaders(request: IncomingMessage): Record<string, string> {
	const headers: Record<string, string> = {
		"access-control-allow-origin": request.headers.origin ?? "*",
		"access-control-allow-methods": String(request.headers["access-control-request-method"]),
		"access-control-max-age": "600",
		vary: "Origin",
	};
	// Echoed rather than "*": a wildcard does not cover the Authorization header.
	const requestedHeaders = request.headers["access-control-request-headers"];
	if (requestedHeaders) headers["access-control-allow-headers"] = requestedHeaders;
	return headers;
}

/** Response headers plus the CORS headers that let the page read the body and every header. */
function withCorsHeaders(request: IncomingMessage, headers: Record<string, string>): Record<string, string> {
	return {
		...headers,
		"access-control-allow-origin": request.headers.origin ?? "*",
		// Listed by name: the "*" wildcard is ignored for requests sent with credentials.
		"access-control-expose-headers": Object.keys(headers).join(", "),
		vary: "Origin",
	};
}

function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One server-sent event: `event:` line when named, then the JSON (or raw string) data. */
export interface SseEvent {
	event?: string;
	data: unknown;
}

/** Formats events as an SSE body (`event: name` + `data: json` + blank line each). */
export function formatSse(events: SseEvent[]): string {
	let text = "";
	for (const item of events) {
		if (item.event) text += `event: ${item.event}\n`;
		text += `data: ${typeof item.data === "string" ? item.data : JSON.stringify(item.data)}\n\n`;
	}
	return text;
}

/** Splits text into pieces of `size` characters. */
export function splitText(text: string, size: number): string[] {
	if (size <= 0) throw new Error(`splitText: size must be positive, got ${size}`);
	const pieces: string[] = [];
	for (let offset = 0; offset < text.length; offset += size) pieces.push(text.slice(offset, offset + size));
	return pieces;
}

/** Splits the UTF-8 bytes of text into pieces of `size` bytes, cutting inside multi-byte characters. */
export function splitBytes(text: string, size: number): Uint8Array[] {
	if (size <= 0) throw new Error(`splitBytes: size must be positive, got ${size}`);
	const bytes = new TextEncoder().encode(text);
	const pieces: Uint8Array[] = [];
	for (let offset = 0; offset < bytes.length; offset += size) pieces.push(bytes.subarray(offset, offset + size));
	return pieces;
}

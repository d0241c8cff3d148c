// One WebSocket to the Codex endpoint, behind the small part of the WebSocket API Keel uses, so the
// transport reads it like a stream: `nextBatch()` hands over every message received since the last
// call. The constructor is the platform's `globalThis.WebSocket` where there is one (browsers, Bun,
// Deno, Node 22 and later) and otherwise the `ws` package, loaded on first use (Node 20 has no
// global WebSocket). Both accept `new WebSocket(url, { headers })`, which the endpoint needs for its
// Authorization header; a browser's WebSocket cannot send headers, so there the open fails clearly.

import { WebSocketOpenError } from "./websocket-errors.js";

/** The subset of the WebSocket API used here; `ws` and the platform WebSocket both implement it. */
interface PlatformWebSocket {
	readonly readyState: number;
	binaryType: string;
	send(data: string): void;
	close(code?: number, reason?: string): void;
	addEventListener(type: string, listener: (event: never) => void): void;
}

type WebSocketConstructor = new (url: string, init: { headers: Record<string, string> }) => PlatformWebSocket;

const OPEN = 1;

// In a variable so that bundlers do not follow the import: `ws` needs node:http, node:net and
// node:tls, which must never enter a browser or Worker build of @keel/ai.
const WS_PACKAGE = "ws";

let loadedConstructor: WebSocketConstructor | undefined;

async function webSocketConstructor(): Promise<WebSocketConstructor> {
	const platform = (globalThis as { WebSocket?: unknown }).WebSocket;
	if (typeof platform === "function") return platform as WebSocketConstructor;
	if (loadedConstructor) return loadedConstructor;
	let module: { WebSocket?: unknown; default?: unknown };
	try {
		module = await import(/* @vite-ignore */ /* webpackIgnore: true */ WS_PACKAGE);
	} catch (error) {
		throw new WebSocketOpenError(
			`This runtime has no WebSocket and the "ws" package could not be loaded (${error instanceof Error ? error.message : String(error)}): install ws or use transport "sse"`,
		);
	}
	const candidate = module.WebSocket ?? module.default;
	if (typeof candidate !== "function")
		throw new WebSocketOpenError('The "ws" package does not export a WebSocket class');
	loadedConstructor = candidate as WebSocketConstructor;
	return loadedConstructor;
}

/** What the socket delivered: a text message, or its close (always the last event). */
export type SocketEvent = { type: "message"; data: string } | { type: "closed"; code: number; reason: string };

export interface OpenWebSocketSettings {
	/** Names the provider in error messages. */
	label: string;
	connectTimeoutMs: number;
	signal: AbortSignal;
}

/** Opens a socket and resolves once it is open; fails with a WebSocketOpenError, or on abort. */
export async function openCodexWebSocket(
	url: string,
	headers: Record<string, string>,
	settings: OpenWebSocketSettings,
): Promise<CodexWebSocket> {
	const Constructor = await webSocketConstructor();
	settings.signal.throwIfAborted();
	let socket: PlatformWebSocket;
	try {
		socket = new Constructor(url, { headers });
	} catch (error) {
		throw new WebSocketOpenError(
			`Could not open a WebSocket to ${settings.label} (${error instanceof Error ? error.message : String(error)}): this runtime's WebSocket may not send request headers, which the endpoint needs; use transport "sse"`,
		);
	}
	const connection = new CodexWebSocket(socket);
	await connection.waitUntilOpen(settings);
	return connection;
}

/** An open socket: sends text, queues what arrives until the reader takes it. */
export class CodexWebSocket {
	private queue: SocketEvent[] = [];
	private waiting: ((events: SocketEvent[]) => void) | undefined;
	private closeEvent: SocketEvent | undefined;
	private lastError = "";
	private readonly closeListeners: (() => void)[] = [];

	constructor(private readonly socket: PlatformWebSocket) {
		socket.binaryType = "arraybuffer";
		socket.addEventListener("message", (event: { data: unknown }) => this.push(messageEvent(event.data)));
		socket.addEventListener("error", (event: { message?: unknown; error?: unknown }) => {
			this.lastError = describeSocketError(event);
		});
		socket.addEventListener("close", (event: { code?: number; reason?: string }) => {
			const reason = event.reason || this.lastError;
			this.closeEvent = { type: "closed", code: event.code ?? 1006, reason };
			this.push(this.closeEvent);
			for (const listener of this.closeListeners) listener();
		});
	}

	/** True while the socket can carry a request. */
	get isOpen(): boolean {
		return this.closeEvent === undefined && this.socket.readyState === OPEN;
	}

	/** Called once when the socket closes, whoever closed it. */
	onClose(listener: () => void): void {
		this.closeListeners.push(listener);
	}

	send(text: string): void {
		this.socket.send(text);
	}

	/**
	 * Every event received since the last call, waiting for one when there is none. Resolves with
	 * an empty list when `interrupt()` is called (an abort), so the reader can stop.
	 */
	nextBatch(): Promise<SocketEvent[]> {
		if (this.queue.length > 0) {
			const events = this.queue;
			this.queue = [];
			return Promise.resolve(events);
		}
		return new Promise((resolve) => {
			this.waiting = resolve;
		});
	}

	/** Wakes a waiting reader with no events. */
	interrupt(): void {
		const waiting = this.waiting;
		this.waiting = undefined;
		waiting?.([]);
	}

	/** Drops messages left from an earlier response (a kept socket between two requests). */
	discardPending(): void {
		this.queue = this.queue.filter((event) => event.type === "closed");
	}

	close(): void {
		if (this.socket.readyState <= OPEN) this.socket.close(1000, "done");
	}

	/** Resolves when the handshake succeeds; rejects on failure, timeout or abort (closing the socket). */
	waitUntilOpen(settings: OpenWebSocketSettings): Promise<void> {
		return new Promise((resolve, reject) => {
			const limit = settings.connectTimeoutMs;
			const timer =
				limit > 0 && limit <= 2_147_483_647
					? setTimeout(
							() => fail(new WebSocketOpenError(`The WebSocket to ${settings.label} did not open within ${limit} ms`)),
							limit,
						)
					: undefined;
			let settled = false;
			const onAbort = () => fail(settings.signal.reason ?? new Error("aborted"));
			const finish = (): boolean => {
				if (settled) return false;
				settled = true;
				if (timer !== undefined) clearTimeout(timer);
				settings.signal.removeEventListener("abort", onAbort);
				return true;
			};
			const fail = (error: unknown) => {
				if (!finish()) return;
				this.close();
				reject(error);
			};
			settings.signal.addEventListener("abort", onAbort, { once: true });
			this.socket.addEventListener("open", () => {
				if (finish()) resolve();
			});
			this.onClose(() => {
				if (settled) return;
				const detail = this.closeEvent?.type === "closed" ? this.closeEvent : undefined;
				const text = detail?.reason || `closed with code ${detail?.code ?? 1006}`;
				fail(new WebSocketOpenError(`Could not open a WebSocket to ${settings.label}: ${text}`, handshakeStatus(text)));
			});
		});
	}

	private push(event: SocketEvent): void {
		const waiting = this.waiting;
		if (waiting) {
			this.waiting = undefined;
			waiting([event]);
			return;
		}
		this.queue.push(event);
	}
}

const textDecoder = new TextDecoder();

function messageEvent(data: unknown): SocketEvent {
	if (typeof data === "string") return { type: "message", data };
	// The endpoint sends text frames; a binary frame is decoded as UTF-8 JSON all the same.
	if (data instanceof ArrayBuffer) return { type: "message", data: textDecoder.decode(data) };
	if (ArrayBuffer.isView(data)) return { type: "message", data: textDecoder.decode(data) };
	return { type: "message", data: String(data) };
}

function describeSocketError(event: { message?: unknown; error?: unknown }): string {
	if (typeof event.message === "string" && event.message !== "") return event.message;
	if (event.error instanceof Error) return event.error.message;
	return "";
}

/** `ws` reports a refused handshake as "Unexpected server response: 401". */
function handshakeStatus(text: string): number | undefined {
	const match = /Unexpected server response: (\d{3})/.exec(text);
	return match ? Number(match[1]) : undefined;
}

// The WebSocket transport in @keel/ai's build for browsers and Workers (the package's "browser"
// condition, see package.json "imports"): a browser's WebSocket takes no request headers and a
// Worker opens sockets through fetch, so neither can send the Authorization header the Codex
// endpoint needs. Opening a socket fails with a WebSocketOpenError, which transport "auto" answers
// by sending the request over server-sent events; transport "websocket" fails with this message.
// Node, Deno and Bun load websocket-session.ts.
// @see https://developer.mozilla.org/en-US/docs/Web/API/WebSocket/WebSocket

import type { ProviderAttempt } from "../../call/provider-attempt.js";
import type { Api } from "../../types.js";
import type { OpenAICodexRequestBody } from "./encode.js";
import type { CodexWebSocket, OpenWebSocketSettings } from "./websocket-connection.js";
import { WebSocketOpenError } from "./websocket-errors.js";
import type { LeaseRequest, SocketLease } from "./websocket-pool.js";

/** Fails: no WebSocket here can carry the endpoint's Authorization header. */
export async function openCodexWebSocket(
	_url: string,
	_headers: Record<string, string>,
	settings: OpenWebSocketSettings,
): Promise<CodexWebSocket> {
	throw new WebSocketOpenError(
		`Could not open a WebSocket to ${settings.label}: a browser's or a Worker's WebSocket cannot send the Authorization header the endpoint needs; use transport "sse"`,
	);
}

/** Opens the socket the request asks for, which fails here. */
export async function leaseCodexWebSocket(request: LeaseRequest): Promise<SocketLease> {
	const socket = await request.open();
	return { socket, reused: false, release: () => socket.close() };
}

/** Nothing to close: no socket is ever kept here. */
export function closeOpenAICodexWebSockets(): void {}

/** Always 0: no socket is ever kept here. */
export function keptOpenAICodexWebSocketCount(): number {
	return 0;
}

/** Never reached: no lease is ever given here. */
export async function streamResponseOverWebSocket<TApi extends Api>(
	_attempt: ProviderAttempt<TApi>,
	_lease: SocketLease,
	_body: OpenAICodexRequestBody,
	_label: string,
): Promise<void> {
	throw new WebSocketOpenError("A WebSocket response cannot be read in a browser or a Worker");
}

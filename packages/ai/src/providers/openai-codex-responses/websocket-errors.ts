// The two ways a Codex WebSocket fails, apart from the socket itself so that the error
// classification (errors.ts) knows them in every build, including the one for browsers and Workers
// that has no WebSocket transport (websocket-session.browser.ts).

/**
 * The socket could not be opened: refused, a failed handshake (`status` when the runtime reports
 * it), the connect timeout. With transport "auto" this is the failure that falls back to SSE.
 */
export class WebSocketOpenError extends Error {
	override name = "WebSocketOpenError";

	constructor(
		message: string,
		/** The handshake's HTTP status, where the runtime reports it (`ws` does). */
		readonly status?: number,
	) {
		super(message);
	}
}

/** The socket closed while a response was being read. */
export class WebSocketClosedError extends Error {
	override name = "WebSocketClosedError";
}

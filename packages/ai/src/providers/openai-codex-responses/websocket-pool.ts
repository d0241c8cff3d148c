// WebSockets kept per conversation. A call with a `sessionId` leaves its socket open for the next
// call of the same session, so a conversation's turns skip the TLS and WebSocket handshakes. A
// socket carries one response at a time: a second call of the same session while the first is
// still streaming gets a socket of its own, closed when that call ends (rather than waiting, which
// would tie one call's latency to another's). A kept socket closes after `idleTimeoutMs` without a
// request, when the server closes it, after a failure or an abort (the rest of an unfinished
// response must not reach the next request), and when `closeOpenAICodexWebSockets()` is called.
import { credentialFingerprint } from "./credential-fingerprint.js";
import type { CodexWebSocket } from "./websocket-connection.js";

interface KeptSocket {
	socket: CodexWebSocket;
	/**
	 * A fingerprint of the credential the socket was opened with: a new token gets a new socket. The
	 * token itself is not kept: a module-level map outlives the calls that own it.
	 */
	tokenFingerprint: string;
	busy: boolean;
	idleTimer?: ReturnType<typeof setTimeout>;
}

const keptSockets = new Map<string, KeptSocket>();

/** A socket lent to one call; `release` must be called once when the call ends. */
export interface SocketLease {
	socket: CodexWebSocket;
	/** True when the socket was opened for an earlier call. */
	reused: boolean;
	/** Ends the loan: a kept socket waits for the next call when `reusable`, otherwise it is closed. */
	release(reusable: boolean): void;
}

export interface LeaseRequest {
	/** The endpoint and session the socket serves; undefined (no sessionId): a socket for this call only. */
	key: string | undefined;
	token: string;
	idleTimeoutMs: number;
	open(): Promise<CodexWebSocket>;
}

/** A kept socket of the session when one is free, else a newly opened one. */
export async function leaseCodexWebSocket(request: LeaseRequest): Promise<SocketLease> {
	const { key } = request;
	if (key === undefined || !canKeep(request.idleTimeoutMs)) return oneOffLease(await request.open());
	const kept = keptSockets.get(key);
	if (kept?.busy) return oneOffLease(await request.open());
	const tokenFingerprint = credentialFingerprint(request.token);
	if (kept?.socket.isOpen && kept.tokenFingerprint === tokenFingerprint) {
		if (kept.idleTimer !== undefined) clearTimeout(kept.idleTimer);
		kept.idleTimer = undefined;
		kept.busy = true;
		kept.socket.discardPending();
		return keptLease(key, kept, true, request.idleTimeoutMs);
	}
	if (kept) forget(key, kept);
	const socket = await request.open();
	// Another call of the session may have opened one meanwhile: this one is then used once.
	if (keptSockets.has(key)) return oneOffLease(socket);
	const entry: KeptSocket = { socket, tokenFingerprint, busy: true };
	keptSockets.set(key, entry);
	socket.onClose(() => {
		if (keptSockets.get(key) !== entry) return;
		if (entry.idleTimer !== undefined) clearTimeout(entry.idleTimer);
		keptSockets.delete(key);
	});
	return keptLease(key, entry, false, request.idleTimeoutMs);
}

/**
 * Closes every WebSocket kept for a session. A kept socket keeps a Node process running until it
 * closes; call this before exiting when you used `transport: "websocket"` or `"auto"` with a sessionId.
 */
export function closeOpenAICodexWebSockets(): void {
	for (const [key, kept] of [...keptSockets]) forget(key, kept);
}

/** How many sockets are kept right now (for tests and diagnostics). */
export function keptOpenAICodexWebSocketCount(): number {
	return keptSockets.size;
}

/** What the pool holds for each kept socket, everything but the socket and its timer (for tests). */
export function keptSocketRecords(): ({ key: string } & Omit<KeptSocket, "socket" | "idleTimer">)[] {
	return [...keptSockets].map(([key, { socket: _socket, idleTimer: _idleTimer, ...record }]) => ({ key, ...record }));
}

function canKeep(idleTimeoutMs: number): boolean {
	return idleTimeoutMs > 0;
}

function oneOffLease(socket: CodexWebSocket): SocketLease {
	return { socket, reused: false, release: () => socket.close() };
}

function keptLease(key: string, entry: KeptSocket, reused: boolean, idleTimeoutMs: number): SocketLease {
	let released = false;
	return {
		socket: entry.socket,
		reused,
		release(reusable) {
			if (released) return;
			released = true;
			if (!reusable || !entry.socket.isOpen || keptSockets.get(key) !== entry) {
				forget(key, entry);
				return;
			}
			entry.busy = false;
			// Beyond setTimeout's range (2^31−1 ms) the socket stays until it or the server closes it.
			if (idleTimeoutMs <= 2_147_483_647) entry.idleTimer = setTimeout(() => forget(key, entry), idleTimeoutMs);
		},
	};
}

function forget(key: string, entry: KeptSocket): void {
	if (entry.idleTimer !== undefined) clearTimeout(entry.idleTimer);
	entry.idleTimer = undefined;
	if (keptSockets.get(key) === entry) keptSockets.delete(key);
	entry.socket.close();
}

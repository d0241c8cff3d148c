// The redirect target of a native application's browser login (RFC 8252 section 7.3): an HTTP
// server on the loopback interface, on a port the system picks, that waits for one request to its
// callback path and hands over the query (code, state, or error).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { OAuthError } from "../oauth/oauth-error.js";

export interface LoopbackServerOptions {
	/** The address to listen on. Default 127.0.0.1 (RFC 8252 prefers the literal to "localhost"). */
	host?: string;
	/** Default 0: a free port chosen by the system. */
	port?: number;
	/** Default "/callback". */
	path?: string;
	/** The host name written into redirectUri; default `host`. OpenRouter documents "localhost". */
	redirectHost?: string;
	/** Requests whose `state` differs are answered 400 and ignored (a stale tab, another login). */
	expectedState?: string;
	/** Give up after this long without a callback. Default 5 minutes. */
	timeoutMs?: number;
	signal?: AbortSignal;
}

export interface LoopbackServer {
	/** The URL to give the authorization server as redirect_uri / callback_url. */
	readonly redirectUri: string;
	/** The callback's query; rejects with OAuthError on timeout or abort. Closes the server once settled. */
	waitForCallback(): Promise<URLSearchParams>;
	close(): Promise<void>;
}

const PAGE_STYLE = "font-family: system-ui, sans-serif; margin: 3rem;";

/** Starts the server; it listens until a callback arrives, the wait times out, or close() is called. */
export async function startLoopbackServer(options: LoopbackServerOptions = {}): Promise<LoopbackServer> {
	const host = options.host ?? "127.0.0.1";
	const path = options.path ?? "/callback";
	const timeoutMs = options.timeoutMs ?? 300_000;
	let settle: { resolve: (query: URLSearchParams) => void; reject: (error: Error) => void } | undefined;
	const callback = new Promise<URLSearchParams>((resolve, reject) => {
		settle = { resolve, reject };
	});
	callback.catch(() => undefined);

	const server = createServer((request: IncomingMessage, response: ServerResponse) => {
		const url = new URL(request.url ?? "/", "http://loopback");
		if (request.method !== "GET" || url.pathname !== path) {
			return respond(response, 404, "Not found", "This address only receives a login's redirect.");
		}
		const query = url.searchParams;
		if (options.expectedState !== undefined && query.get("state") !== options.expectedState) {
			return respond(response, 400, "Login not recognised", "This redirect does not belong to the login in progress.");
		}
		if (query.has("error")) {
			respond(response, 200, "Login cancelled", "The login did not complete. You can close this window.");
		} else {
			respond(response, 200, "Logged in", "You can close this window and return to the terminal.");
		}
		settle?.resolve(query);
	});
	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(options.port ?? 0, host, () => {
			server.off("error", reject);
			resolve();
		});
	});
	const { port } = server.address() as AddressInfo;
	const redirectHost = options.redirectHost ?? (host.includes(":") ? `[${host}]` : host);
	const redirectUri = `http://${redirectHost}:${port}${path}`;

	const close = () =>
		new Promise<void>((resolve) => {
			server.closeAllConnections();
			server.close(() => resolve());
		});
	const timer = setTimeout(
		() => settle?.reject(new OAuthError(`No login redirect arrived within ${describeDuration(timeoutMs)}`, "timeout")),
		timeoutMs,
	);
	const onAbort = () => settle?.reject(new OAuthError("The login was cancelled", "aborted"));
	if (options.signal?.aborted) onAbort();
	else options.signal?.addEventListener("abort", onAbort, { once: true });
	const finished = callback.finally(async () => {
		clearTimeout(timer);
		options.signal?.removeEventListener("abort", onAbort);
		await close();
	});
	finished.catch(() => undefined);

	return {
		redirectUri,
		waitForCallback: () => finished,
		close: async () => {
			settle?.reject(new OAuthError("The login server was closed before a redirect arrived", "aborted"));
			await finished.catch(() => undefined);
		},
	};
}

function describeDuration(milliseconds: number): string {
	return milliseconds < 1000 ? `${milliseconds} ms` : `${Math.round(milliseconds / 1000)} s`;
}

function respond(response: ServerResponse, status: number, title: string, text: string): void {
	response.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
	response.end(
		`<!doctype html><title>${title}</title><body style="${PAGE_STYLE}"><h1>${title}</h1><p>${text}</p></body>`,
	);
}

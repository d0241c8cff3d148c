// A local OAuth server for the credential tests: one handler per path, every request recorded
// with its parsed body (form or JSON). Listens on 127.0.0.1 only.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
	method: string;
	path: string;
	query: URLSearchParams;
	body: Record<string, string>;
	headers: IncomingMessage["headers"];
}

export type OAuthRouteHandler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface OAuthTestServer {
	url: string;
	requests: RecordedRequest[];
	route(path: string, handler: OAuthRouteHandler): void;
	close(): Promise<void>;
}

export async function startOAuthTestServer(): Promise<OAuthTestServer> {
	const routes = new Map<string, OAuthRouteHandler>();
	const requests: RecordedRequest[] = [];
	const server: Server = createServer(async (incoming, response) => {
		const chunks: Buffer[] = [];
		for await (const chunk of incoming) chunks.push(chunk as Buffer);
		const text = Buffer.concat(chunks).toString("utf8");
		const url = new URL(incoming.url ?? "/", "http://127.0.0.1");
		const body: Record<string, string> = text.trim().startsWith("{")
			? (JSON.parse(text) as Record<string, string>)
			: Object.fromEntries(new URLSearchParams(text));
		const request: RecordedRequest = {
			method: incoming.method ?? "GET",
			path: url.pathname,
			query: url.searchParams,
			body,
			headers: incoming.headers,
		};
		requests.push(request);
		const handler = routes.get(url.pathname);
		if (!handler) {
			response.writeHead(404).end();
			return;
		}
		await handler(request, response);
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		route: (path, handler) => routes.set(path, handler),
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
	response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/** Follows an authorization page's redirect the way a browser would, without reading the page. */
export async function visitInBrowser(url: string): Promise<void> {
	const response = await fetch(url);
	await response.text();
}

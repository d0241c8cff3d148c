// Serves the page and its bundled script on 127.0.0.1 (a free port): an origin of its own, so
// the page's calls to the wire-test servers are cross-origin, as a deployed app's calls are.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Keel runtime test</title></head>
<body><script type="module" src="/page.js"></script></body></html>`;

export interface PageServer {
	url: string;
	close(): Promise<void>;
}

export async function startPageServer(script: string): Promise<PageServer> {
	const server: Server = createServer((request, response) => {
		if (request.url === "/" || request.url === "/index.html") {
			response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
			response.end(PAGE);
		} else if (request.url === "/page.js") {
			response.writeHead(200, { "content-type": "text/javascript; charset=utf-8" });
			response.end(script);
		} else {
			response.writeHead(404, { "content-type": "text/plain" });
			response.end(`not found: ${request.url}`);
		}
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

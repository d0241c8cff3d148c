// A tiny node:http server for the example: it serves the bundled page from `directory` and mounts
// the proxy handler at /api/stream. The browser test and `main.ts` both use it.
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { createProxyHandler, type ProxyServerOptions, proxyServerTimeouts } from "../../src/node.js";

const contentTypes: Record<string, string> = {
	".html": "text/html; charset=utf-8",
	".js": "text/javascript; charset=utf-8",
	".map": "application/json; charset=utf-8",
};

export interface ExampleServer {
	url: string;
	close(): Promise<void>;
}

export async function startExampleServer(options: {
	directory: string;
	proxy: ProxyServerOptions<IncomingMessage>;
	port?: number;
}): Promise<ExampleServer> {
	const proxyHandler = createProxyHandler(options.proxy);
	const server = createServer(proxyServerTimeouts(), (request, response) => {
		void proxyHandler(request, response, async () => {
			const pathname = new URL(request.url ?? "/", "http://localhost").pathname;
			const relative = normalize(pathname === "/" ? "/index.html" : pathname);
			// normalize() resolves "..", so a path can only name a file inside the directory.
			if (relative.includes("..") || !contentTypes[extname(relative)]) {
				response.writeHead(404).end("Not found");
				return;
			}
			try {
				const body = await readFile(join(options.directory, relative));
				response.writeHead(200, { "Content-Type": contentTypes[extname(relative)] }).end(body);
			} catch {
				response.writeHead(404).end("Not found");
			}
		});
	});
	await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

// The browser proxy: what streamProxy + the proxy server add per event over calling the provider
// directly, through a real socket (Node handler on 127.0.0.1) and in-process (fetch handler), and
// how many bytes the slim events save against sending `partial` with every event.

import { createServer } from "node:http";
import { register } from "node:module";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { medianMs, printTable } from "./measure.js";

const CHARACTERS = Number(process.env.BENCH_PROXY_CHARACTERS ?? 20_000);

// The proxy sources import "@keel/ai"; map it (and /testing) to the sources so no build is needed.
const source = (path: string) => pathToFileURL(new URL(`../../packages/ai/src/${path}`, import.meta.url).pathname).href;
register(
	`data:text/javascript,${encodeURIComponent(`
const targets = { "@keel/ai": ${JSON.stringify(source("index.ts"))}, "@keel/ai/testing": ${JSON.stringify(source("testing/index.ts"))} };
export async function resolve(specifier, context, next) {
	if (specifier in targets) return { url: targets[specifier], shortCircuit: true };
	return next(specifier, context);
}`)}`,
);

export default async function (): Promise<void> {
	// Imported by relative path first: tsx then has them loaded when the hook maps "@keel/ai" to them.
	const ai = await import("../../packages/ai/src/index.js");
	const testing = await import("../../packages/ai/src/testing/index.js");
	const { streamProxy } = await import("../../packages/proxy/src/client.js");
	const { createProxyHandler } = await import("../../packages/proxy/src/node-handler.js");
	const { createFetchProxyHandler } = await import("../../packages/proxy/src/fetch-handler.js");
	const { toProxyEvent } = await import("../../packages/proxy/src/protocol.js");

	const faux = testing.registerFauxProvider({ chunkCharacters: 4 });
	const model = faux.getModel();
	const answer = "lorem ipsum ".repeat(Math.ceil(CHARACTERS / 12)).slice(0, CHARACTERS);
	faux.setResponses(Array.from({ length: 1000 }, () => answer));
	const context = { messages: [{ role: "user" as const, content: "go", timestamp: 0 }] };

	const drain = async (stream: AsyncIterable<unknown>) => {
		let events = 0;
		for await (const _event of stream) events++;
		return events;
	};
	let eventsPerCall = 0;
	const directMs = await medianMs(async () => {
		eventsPerCall = await drain(ai.streamSimple(model, context));
	});

	const proxyOptions = { authenticate: () => true, models: [model], heartbeatMs: 0 };
	const nodeHandler = createProxyHandler(proxyOptions);
	const server = createServer((request, response) => void nodeHandler(request, response));
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const nodeMs = await medianMs(() => drain(streamProxy(model, context, { proxyUrl, authToken: "t" })));
	server.closeAllConnections();
	server.close();

	// The floor for the socket path: a bare node:http server writing the same number of small SSE
	// events, one per macrotask like the faux provider, read with fetch and nothing else.
	const line = `data: ${JSON.stringify({ type: "text_delta", contentIndex: 0, delta: "abcd" })}\n\n`;
	const floorServer = createServer(async (_request, response) => {
		response.writeHead(200, { "Content-Type": "text/event-stream" });
		for (let index = 0; index < eventsPerCall; index++) {
			response.write(line);
			await new Promise((resolve) => setImmediate(resolve));
		}
		response.end();
	});
	await new Promise<void>((resolve) => floorServer.listen(0, "127.0.0.1", resolve));
	const floorUrl = `http://127.0.0.1:${(floorServer.address() as AddressInfo).port}`;
	const floorMs = await medianMs(async () => {
		const response = await fetch(floorUrl);
		for await (const _chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
			// Only the transport is measured.
		}
	});
	floorServer.close();

	const fetchHandler = createFetchProxyHandler(proxyOptions);
	const inProcessFetch = (input: RequestInfo | URL, init?: RequestInit) => fetchHandler(new Request(input, init));
	const fetchMs = await medianMs(() =>
		drain(streamProxy(model, context, { proxyUrl: "http://proxy.local", authToken: "t", fetch: inProcessFetch })),
	);

	// Wire size: the slim events as sent, against the same events serialised with `partial`.
	let slimBytes = 0;
	let fullBytes = 0;
	for await (const event of ai.streamSimple(model, context)) {
		slimBytes += JSON.stringify(toProxyEvent(event)).length + 8;
		fullBytes += JSON.stringify(event).length + 8;
	}
	faux.unregister();

	const perEvent = (ms: number) => (ms * 1000) / eventsPerCall;
	printTable([
		{
			path: "streamSimple (faux, direct)",
			events: eventsPerCall,
			"median ms": directMs,
			"µs/event": perEvent(directMs),
			"added µs/event": 0,
		},
		{
			path: "streamProxy → Node handler (127.0.0.1)",
			events: eventsPerCall,
			"median ms": nodeMs,
			"µs/event": perEvent(nodeMs),
			"added µs/event": perEvent(nodeMs - directMs),
		},
		{
			path: "floor: bare node:http writes + fetch, no proxy",
			events: eventsPerCall,
			"median ms": floorMs,
			"µs/event": perEvent(floorMs),
			"added µs/event": "",
		},
		{
			path: "streamProxy → fetch handler (in process)",
			events: eventsPerCall,
			"median ms": fetchMs,
			"µs/event": perEvent(fetchMs),
			"added µs/event": perEvent(fetchMs - directMs),
		},
	]);
	printTable([
		{ wire: "slim events (sent)", "KiB per answer": slimBytes / 1024, "bytes/event": slimBytes / eventsPerCall },
		{ wire: "events with partial", "KiB per answer": fullBytes / 1024, "bytes/event": fullBytes / eventsPerCall },
	]);
}

// The proxy server against slow and stalled clients: a reader that stops reading is dropped (and
// its upstream call aborted) instead of buffering without bound, and requests whose headers or
// body trickle in get 408 within the handler's own limits rather than Node's 60 s / 300 s defaults.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { connect, type Socket } from "node:net";
import {
	type Api,
	AssistantMessageBuilder,
	type AssistantMessageEventStream,
	type Context,
	createAssistantMessageEventStream,
	type Model,
	type SimpleStreamOptions,
} from "@keel/ai";
import { afterEach, describe, expect, it } from "vitest";
import { createFetchProxyHandler } from "../src/fetch-handler.js";
import { createProxyHandler, proxyServerTimeouts } from "../src/node-handler.js";
import { deferred, type RunningServer, startServer } from "./proxy-test-server.js";

const model = { id: "faux-model", provider: "faux", api: "faux" } as Model<Api>;
const body = JSON.stringify({ model: { provider: "faux", id: "faux-model" }, context: { messages: [] }, options: {} });

let server: RunningServer | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
	for (const socket of sockets.splice(0)) socket.destroy();
	await server?.close();
	server = undefined;
});

/**
 * A stream function that writes `totalBytes` of text in 64 KiB deltas as fast as it can, then holds
 * the stream open; `upstreamAborted` resolves when its signal fires.
 */
function createFloodingStreamFunction(totalBytes: number) {
	const upstreamAborted = deferred();
	const streamFunction = (streamModel: Model<Api>, _context: Context, options: SimpleStreamOptions) => {
		const stream: AssistantMessageEventStream = createAssistantMessageEventStream();
		const builder = new AssistantMessageBuilder(streamModel, (event) => stream.push(event));
		builder.start();
		const index = builder.startText();
		const delta = "x".repeat(64 * 1024);
		let sent = 0;
		const flood = () => {
			if (options.signal?.aborted || sent >= totalBytes) return;
			builder.appendText(index, delta);
			sent += delta.length;
			setImmediate(flood);
		};
		setImmediate(flood);
		options.signal?.addEventListener(
			"abort",
			() => {
				upstreamAborted.resolve();
				builder.fail("aborted", "Request was aborted");
				stream.end();
			},
			{ once: true },
		);
		return stream;
	};
	return { streamFunction, upstreamAborted: upstreamAborted.promise };
}

/** Opens a raw connection to `url` and writes `text`; the socket never reads (it stays paused). */
function openSocket(url: string, text = ""): Socket {
	const { port } = new URL(url);
	const socket = connect(Number(port), "127.0.0.1", () => socket.write(text));
	socket.pause();
	sockets.push(socket);
	return socket;
}

/** Everything the server sends until it closes the connection. */
function readUntilClosed(socket: Socket): Promise<string> {
	return new Promise((resolve) => {
		let received = "";
		socket.on("data", (chunk) => {
			received += chunk.toString("utf8");
		});
		socket.on("close", () => resolve(received));
		socket.resume();
	});
}

const streamRequest = `POST /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer any\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe("a client that stops reading (Node handler)", () => {
	it("is dropped once more than maxBufferedBytes are unsent, and its upstream call is aborted", async () => {
		const flooding = createFloodingStreamFunction(64 * 1024 * 1024);
		let response: ServerResponse | undefined;
		const handler = createProxyHandler({
			authenticate: () => true,
			models: [model],
			streamFunction: flooding.streamFunction,
			maxBufferedBytes: 256 * 1024,
			heartbeatMs: 0,
		});
		server = await startServer((request: IncomingMessage, serverResponse: ServerResponse) => {
			response = serverResponse;
			return handler(request, serverResponse);
		});
		openSocket(server.url, streamRequest);
		await flooding.upstreamAborted;
		expect(response?.destroyed).toBe(true);
		expect(response?.writableFinished).toBe(false);
	});

	it("is dropped when it has not caught up for stalledReaderTimeoutMs, with one drain listener whatever the heartbeats", async () => {
		// 16 MiB fills the loopback socket buffers, then the upstream goes quiet: only heartbeats remain.
		const flooding = createFloodingStreamFunction(16 * 1024 * 1024);
		let response: ServerResponse | undefined;
		const handler = createProxyHandler({
			authenticate: () => true,
			models: [model],
			streamFunction: flooding.streamFunction,
			maxBufferedBytes: 512 * 1024 * 1024,
			stalledReaderTimeoutMs: 300,
			heartbeatMs: 5,
		});
		server = await startServer((request: IncomingMessage, serverResponse: ServerResponse) => {
			response = serverResponse;
			return handler(request, serverResponse);
		});
		openSocket(server.url, streamRequest);
		await flooding.upstreamAborted;
		expect(response?.listenerCount("drain")).toBeLessThanOrEqual(1);
	});
});

describe("a client that stops reading (fetch handler)", () => {
	it("is dropped once the response stream holds more than maxBufferedBytes, and its upstream call is aborted", async () => {
		const flooding = createFloodingStreamFunction(64 * 1024 * 1024);
		const handler = createFetchProxyHandler({
			authenticate: () => true,
			models: [model],
			streamFunction: flooding.streamFunction,
			maxBufferedBytes: 256 * 1024,
			heartbeatMs: 0,
		});
		const response = await handler(
			new Request("http://proxy.test/api/stream", { method: "POST", headers: { Authorization: "Bearer any" }, body }),
		);
		expect(response.status).toBe(200);
		// The body is never read.
		await flooding.upstreamAborted;
		await expect(response.text()).rejects.toThrow("The client fell too far behind (maxBufferedBytes)");
	});
});

describe("a client whose request trickles in", () => {
	it("gets 408 and a closed connection when the body does not arrive within bodyTimeoutMs (Node handler)", async () => {
		server = await startServer(createProxyHandler({ authenticate: () => true, models: [model], bodyTimeoutMs: 200 }));
		const socket = openSocket(
			server.url,
			"POST /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer any\r\nContent-Length: 1000\r\n\r\n{",
		);
		const received = await readUntilClosed(socket);
		expect(received.startsWith("HTTP/1.1 408")).toBe(true);
		expect(received).toContain('{"error":"The request body did not arrive within 200 ms (bodyTimeoutMs)"}');
	});

	it("gets 408 when the body does not arrive within bodyTimeoutMs (fetch handler)", async () => {
		const handler = createFetchProxyHandler({ authenticate: () => true, models: [model], bodyTimeoutMs: 100 });
		const response = await handler(
			new Request("http://proxy.test/api/stream", {
				method: "POST",
				headers: { Authorization: "Bearer any" },
				body: new ReadableStream({
					start(controller) {
						controller.enqueue(new TextEncoder().encode("{"));
						// Never closed: the rest of the body never comes.
					},
				}),
				duplex: "half",
			} as RequestInit),
		);
		expect(response.status).toBe(408);
		expect(await response.json()).toEqual({
			error: "The request body did not arrive within 100 ms (bodyTimeoutMs)",
		});
	});

	it("gets 408 from a server created with proxyServerTimeouts when its headers take longer than headersTimeoutMs", async () => {
		const handler = createProxyHandler({ authenticate: () => true, models: [model] });
		const proxyServer = createServer(proxyServerTimeouts({ headersTimeoutMs: 200 }), (request, response) => {
			void handler(request, response);
		});
		await new Promise<void>((resolve) => proxyServer.listen(0, "127.0.0.1", resolve));
		const url = `http://127.0.0.1:${(proxyServer.address() as AddressInfo).port}`;
		server = {
			url,
			close: () =>
				new Promise<void>((resolve) => {
					proxyServer.closeAllConnections();
					proxyServer.close(() => resolve());
				}),
		};
		const socket = openSocket(url, "POST /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n");
		// One more header line every 20 ms: the headers never complete.
		const trickle = setInterval(() => socket.write("X-Slow: 1\r\n"), 20);
		const received = await readUntilClosed(socket);
		clearInterval(trickle);
		expect(received.startsWith("HTTP/1.1 408")).toBe(true);
	});
});

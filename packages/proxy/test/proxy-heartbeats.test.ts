// Heartbeat comments and the client's idle watchdog. Before the first content event the server may
// be retrying its upstream call (it retries only before content) and sends heartbeats meanwhile:
// they keep the client waiting, up to proxyWaitTimeoutMs. Once content streams only events count
// (proxy-client-errors.test.ts pins that a proxy sending only ': ping' there ends with the idle error).
import type { IncomingMessage } from "node:http";
import {
	type Api,
	type AssistantMessageEvent,
	type Context,
	createProviderStream,
	type Model,
	type SimpleStreamOptions,
} from "@keel/ai";
import { type FauxProviderRegistration, registerFauxProvider } from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { streamProxy } from "../src/client.js";
import { createProxyHandler } from "../src/node-handler.js";
import type { ProxyServerOptions } from "../src/proxy-pipeline.js";
import { type RunningServer, startServer } from "./proxy-test-server.js";

let faux: FauxProviderRegistration;
let server: RunningServer | undefined;
let serverModel: Model<Api>;

beforeEach(() => {
	faux = registerFauxProvider({ models: [{ id: "faux-model" }] });
	serverModel = faux.getModel("faux-model");
});
afterEach(async () => {
	faux.unregister();
	await server?.close();
	server = undefined;
});

async function startProxy(overrides: Partial<ProxyServerOptions<IncomingMessage>>): Promise<string> {
	server = await startServer(
		createProxyHandler({ authenticate: (token) => token === "good-token", models: [serverModel], ...overrides }),
	);
	return server.url;
}

/**
 * An upstream whose first attempt fails with a 503 asking to retry in `retryAfterMs`; the second
 * attempt answers "ok". The server's harness waits out the delay, sending nothing but heartbeats.
 */
function upstreamThatRetries(retryAfterMs: number) {
	let attempts = 0;
	return (model: Model<Api>, _context: Context, options: SimpleStreamOptions) =>
		createProviderStream(
			model,
			options,
			async ({ builder }) => {
				attempts++;
				if (attempts === 1) {
					throw Object.assign(new Error("503 overloaded"), {
						status: 503,
						headers: { "retry-after-ms": String(retryAfterMs) },
					});
				}
				builder.appendText(builder.startText(), "ok");
				builder.finish("stop");
			},
			{ requiresApiKey: false },
		);
}

async function collect(stream: AsyncIterable<AssistantMessageEvent>): Promise<AssistantMessageEvent[]> {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) events.push(event);
	return events;
}

describe("streamProxy and the proxy's heartbeats", () => {
	it("keeps waiting while the server retries its upstream call, as long as heartbeats arrive", async () => {
		// Margins that survive a loaded machine: heartbeats every 20 ms, an idle limit of 1 s, and a
		// retry delay of 2.5 s that the idle limit alone would not survive (the next case).
		const proxyUrl = await startProxy({ streamFunction: upstreamThatRetries(2500), heartbeatMs: 20 });
		const stream = streamProxy(
			serverModel,
			{ messages: [] },
			{ proxyUrl, authToken: "good-token", proxyIdleTimeoutMs: 1000 },
		);
		await collect(stream);
		const result = await stream.result();
		expect(result.errorMessage).toBeUndefined();
		expect(result.content).toEqual([{ type: "text", text: "ok" }]);
		// The server's message says it retried once.
		expect(result.diagnostics?.map((diagnostic) => diagnostic.type)).toEqual(["retry"]);
	});

	it("without heartbeats the same wait ends with the idle error", async () => {
		const proxyUrl = await startProxy({ streamFunction: upstreamThatRetries(2500), heartbeatMs: 0 });
		const stream = streamProxy(
			serverModel,
			{ messages: [] },
			{ proxyUrl, authToken: "good-token", proxyIdleTimeoutMs: 1000 },
		);
		const result = await stream.result();
		expect(result.errorMessage).toBe(
			"No data received from the provider for 1000 ms; the stream was stopped (idleTimeoutMs)",
		);
	});

	it("bounds a server that sends only heartbeats forever by proxyWaitTimeoutMs", async () => {
		let pinger: ReturnType<typeof setInterval> | undefined;
		server = await startServer((_request, response) => {
			response.writeHead(200, { "Content-Type": "text/event-stream" });
			response.write(`data: ${JSON.stringify({ type: "start" })}\n\n`);
			pinger = setInterval(() => response.write(": ping\n\n"), 10);
			response.on("close", () => clearInterval(pinger));
		});
		const startedAt = Date.now();
		const result = await streamProxy(
			serverModel,
			{ messages: [] },
			{ proxyUrl: server.url, authToken: "t", proxyIdleTimeoutMs: 1000, proxyWaitTimeoutMs: 1500 },
		).result();
		clearInterval(pinger);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe(
			"The proxy accepted the request but sent no content for 1500 ms; the stream was stopped (proxyWaitTimeoutMs)",
		);
		expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1500);
	});

	it("bounds it by default too: three idle limits and two retry delays of a default server, plus 30 s", async () => {
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
		let pinger: ReturnType<typeof setInterval> | undefined;
		try {
			// A proxy that answers, sends start, and then a heartbeat every 15 s, forever.
			const fetch = async () =>
				new Response(
					new ReadableStream({
						start(controller) {
							const encoder = new TextEncoder();
							controller.enqueue(encoder.encode('data: {"type":"start"}\n\n'));
							pinger = setInterval(() => controller.enqueue(encoder.encode(": ping\n\n")), 15_000);
						},
					}),
					{ headers: { "Content-Type": "text/event-stream" } },
				);
			const stream = streamProxy(
				serverModel,
				{ messages: [] },
				{ proxyUrl: "http://proxy.test", authToken: "t", fetch },
			);
			// 3 × 120 s (the default idle limit) + 2 × 60 s (the default retry delay cap) + 30 s.
			await vi.advanceTimersByTimeAsync(510_000);
			const result = await stream.result();
			expect(result.errorMessage).toBe(
				"The proxy accepted the request but sent no content for 510000 ms; the stream was stopped (proxyWaitTimeoutMs)",
			);
		} finally {
			clearInterval(pinger);
			vi.useRealTimers();
		}
	});

	it("with timeoutMs set, a heartbeat-only server ends at the client's total limit when that comes first", async () => {
		let pinger: ReturnType<typeof setInterval> | undefined;
		server = await startServer((_request, response) => {
			response.writeHead(200, { "Content-Type": "text/event-stream" });
			response.write(`data: ${JSON.stringify({ type: "start" })}\n\n`);
			pinger = setInterval(() => response.write(": ping\n\n"), 10);
			response.on("close", () => clearInterval(pinger));
		});
		const result = await streamProxy(
			serverModel,
			{ messages: [] },
			{ proxyUrl: server.url, authToken: "t", proxyIdleTimeoutMs: 1000, timeoutMs: 150 },
		).result();
		clearInterval(pinger);
		expect(result.errorMessage).toBe("Request timed out after 300 ms (timeoutMs)");
	});
});

// streamProxy's never-throw, never-hang contract against misbehaving servers: every failure is one
// error event and result() always settles.
import type { ServerResponse } from "node:http";
import type { Api, AssistantMessageEvent, Model } from "@keel/ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { streamProxy } from "../src/client.js";
import type { ProxyAssistantMessageEvent } from "../src/protocol.js";
import { type RunningServer, startServer } from "./proxy-test-server.js";

const model: Model<Api> = {
	id: "test-model",
	name: "Test",
	api: "faux",
	provider: "faux",
	baseUrl: "faux://local",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1000,
	maxTokens: 100,
};

let server: RunningServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

function sse(response: ServerResponse, events: (ProxyAssistantMessageEvent | string)[]): void {
	response.writeHead(200, { "Content-Type": "text/event-stream" });
	for (const event of events) response.write(`data: ${typeof event === "string" ? event : JSON.stringify(event)}\n\n`);
}

async function run(url: string, extra: Partial<Parameters<typeof streamProxy>[2]> = {}) {
	const stream = streamProxy(model, { messages: [] }, { proxyUrl: url, authToken: "token", ...extra });
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) events.push(event);
	return { events, result: await stream.result() };
}

const usage = {
	input: 1,
	output: 2,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 3,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

describe("streamProxy error mapping", () => {
	it("maps a non-JSON HTTP error to 'Proxy error: <status> <statusText>'", async () => {
		server = await startServer((_request, response) => {
			response.writeHead(502, "Bad Gateway", { "Content-Type": "text/html" }).end("<h1>oops</h1>");
		});
		const { events, result } = await run(server.url, { maxRetries: 0 });
		expect(result.errorMessage).toMatch(/^Proxy error: 502 Bad Gateway \(the proxy at 127\.0\.0\.1:\d+\)$/);
		expect(events.map((event) => event.type)).toEqual(["start", "error"]);
	});

	it("uses the JSON body's error field when there is one", async () => {
		server = await startServer((_request, response) => {
			response.writeHead(429, { "Content-Type": "application/json" }).end(JSON.stringify({ error: "Slow down" }));
		});
		expect((await run(server.url, { maxRetries: 0 })).result.errorMessage).toMatch(
			/^Proxy error: Slow down \(the proxy at 127\.0\.0\.1:\d+\)$/,
		);
	});

	it("maps a connection failure to an error event", async () => {
		server = await startServer(() => {});
		const closedUrl = server.url;
		await server.close();
		server = undefined;
		const { result } = await run(closedUrl, { maxRetries: 0 });
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/^Could not connect to the proxy at 127\.0\.0\.1:\d+: connect ECONNREFUSED/);
	});

	it("retries a refused connection but not a proxy host name that does not resolve", async () => {
		// fetch's failure as Node reports it, without asking a resolver: the system error is the cause.
		const notFound = () =>
			new TypeError("fetch failed", {
				cause: Object.assign(new Error("getaddrinfo ENOTFOUND proxy.example.invalid"), {
					code: "ENOTFOUND",
					syscall: "getaddrinfo",
					hostname: "proxy.example.invalid",
				}),
			});
		const realFetch = globalThis.fetch;
		let calls = 0;
		globalThis.fetch = async () => {
			calls++;
			throw notFound();
		};
		try {
			const { result } = await run("http://proxy.example.invalid", { maxRetries: 2, maxRetryDelayMs: 1 });
			expect(calls).toBe(1);
			expect(result.errorMessage).toBe(
				"Could not connect to the proxy at proxy.example.invalid: getaddrinfo ENOTFOUND proxy.example.invalid",
			);
		} finally {
			globalThis.fetch = realFetch;
		}

		server = await startServer(() => {});
		const closedUrl = server.url;
		await server.close();
		server = undefined;
		const refused = await run(closedUrl, { maxRetries: 1, maxRetryDelayMs: 1 });
		expect(refused.result.errorMessage).toMatch(/connect ECONNREFUSED .* \(2 attempts over [\d.]+ s\)$/);
	});

	it("names the proxy, keeps the content and never retries when the connection is cut mid-stream", async () => {
		let requests = 0;
		server = await startServer((_request, response) => {
			requests++;
			sse(response, [
				{ type: "start" },
				{ type: "text_start", contentIndex: 0 },
				{ type: "text_delta", contentIndex: 0, delta: "cut off" },
			]);
			// Once the events are on the wire, the socket closes without chunked encoding's last
			// chunk: the client's read fails mid-body.
			response.write(": flushed\n\n", () => response.socket?.destroy());
		});
		const { events, result } = await run(server.url);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(
			/^Proxy request failed: The connection to the Keel proxy closed before the response was finished: /,
		);
		expect(result.content).toEqual([{ type: "text", text: "cut off" }]);
		expect(events.filter((event) => event.type === "error")).toHaveLength(1);
		expect(requests).toBe(1);
	});

	it("ends with an error, keeping the content and never retrying, when the server closes without done or error", async () => {
		let requests = 0;
		server = await startServer((_request, response) => {
			requests++;
			sse(response, [
				{ type: "start" },
				{ type: "text_start", contentIndex: 0 },
				{ type: "text_delta", contentIndex: 0, delta: "half an answ" },
			]);
			response.end();
		});
		const { events, result } = await run(server.url);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("Proxy stream ended without a done or error event");
		expect(result.content).toEqual([{ type: "text", text: "half an answ" }]);
		expect(events.filter((event) => event.type === "error")).toHaveLength(1);
		// The proxy had accepted the request and started the upstream call: a retry would repeat it.
		expect(requests).toBe(1);
	});

	it("retries a 503 before the proxy accepted the request, honouring retry-after", async () => {
		let requests = 0;
		server = await startServer((_request, response) => {
			requests++;
			if (requests === 1) {
				response.writeHead(503, { "Content-Type": "application/json", "Retry-After": "0" });
				response.end(JSON.stringify({ error: "Restarting" }));
				return;
			}
			sse(response, [
				{ type: "text_start", contentIndex: 0 },
				{ type: "text_delta", contentIndex: 0, delta: "second time lucky" },
				{ type: "text_end", contentIndex: 0 },
				{ type: "done", reason: "stop", message: { usage } },
			]);
			response.end();
		});
		const { events, result } = await run(server.url);
		expect(requests).toBe(2);
		expect([result.stopReason, result.content]).toEqual(["stop", [{ type: "text", text: "second time lucky" }]]);
		expect(events.filter((event) => event.type === "start")).toHaveLength(1);
	});

	it("does not retry the proxy's own 500", async () => {
		let requests = 0;
		server = await startServer((_request, response) => {
			requests++;
			response.writeHead(500, { "Content-Type": "application/json" }).end(JSON.stringify({ error: "Proxy failure" }));
		});
		expect((await run(server.url)).result.errorMessage).toMatch(
			/^Proxy error: Proxy failure \(the proxy at 127\.0\.0\.1:\d+\)$/,
		);
		expect(requests).toBe(1);
	});

	it("ends with an error when a delta targets a block of another type", async () => {
		server = await startServer((_request, response) => {
			sse(response, [
				{ type: "start" },
				{ type: "toolcall_start", contentIndex: 0, id: "call_1", toolName: "search" },
				{ type: "text_delta", contentIndex: 0, delta: "x" },
				{ type: "done", reason: "stop", message: { usage } },
			]);
			response.end();
		});
		const { result } = await run(server.url);
		expect(result.errorMessage).toBe(
			"Proxy stream error: received text_delta for content 0, which is a toolCall block",
		);
	});

	// Found by fuzzing: an error event without its reason ended the call with stopReason undefined.
	it("a terminal event whose reason is outside the protocol ends with an error naming it, text kept", async () => {
		server = await startServer((_request, response) => {
			sse(response, [
				{ type: "start" },
				{ type: "text_start", contentIndex: 0 },
				{ type: "text_delta", contentIndex: 0, delta: "half" },
				'{"type":"error","errorMessage":"upstream failed"}',
			]);
			response.end();
		});
		const { events, result } = await run(server.url);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe(
			'Proxy stream error: an error event with reason undefined, expected "error" or "aborted"',
		);
		expect(result.content).toEqual([{ type: "text", text: "half" }]);
		expect(events.at(-1)?.type).toBe("error");
	});

	it("ends with an error on an event that is not JSON", async () => {
		server = await startServer((_request, response) => {
			sse(response, [{ type: "start" }, "{not json"]);
			response.end();
		});
		expect((await run(server.url)).result.errorMessage).toBe(
			"Proxy stream error: an event is not valid JSON: {not json",
		);
	});

	it("applies the final summary: usage, stop reason, response id", async () => {
		server = await startServer((_request, response) => {
			sse(response, [
				{ type: "start" },
				{ type: "text_start", contentIndex: 0 },
				{ type: "text_delta", contentIndex: 0, delta: "hi" },
				{ type: "text_end", contentIndex: 0, textSignature: "sig" },
				{ type: "done", reason: "length", message: { usage, responseId: "resp_1", rawStopReason: "max_tokens" } },
			]);
			response.end();
		});
		const { result } = await run(server.url);
		expect(result).toMatchObject({
			stopReason: "length",
			usage,
			responseId: "resp_1",
			rawStopReason: "max_tokens",
			content: [{ type: "text", text: "hi", textSignature: "sig" }],
		});
	});

	it("ends with an idle error when the server goes silent for proxyIdleTimeoutMs", async () => {
		server = await startServer((_request, response) => {
			sse(response, [{ type: "start" }]);
			// Never writes again and never ends.
		});
		const { result } = await run(server.url, { proxyIdleTimeoutMs: 50 });
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe(
			"No data received from the provider for 50 ms; the stream was stopped (idleTimeoutMs)",
		);
	});

	it("does not count heartbeat comments as activity: a proxy sending only ': ping' ends with the idle error", async () => {
		let pinger: ReturnType<typeof setInterval> | undefined;
		server = await startServer((_request, response) => {
			sse(response, [{ type: "start" }, { type: "text_start", contentIndex: 0 }]);
			response.write(`data: ${JSON.stringify({ type: "text_delta", contentIndex: 0, delta: "so far" })}\n\n`);
			pinger = setInterval(() => response.write(": ping\n\n"), 10);
			response.on("close", () => clearInterval(pinger));
		});
		// A limit of a second, not less: before content a ping is activity, so a limit shorter than
		// a busy machine takes to connect and deliver "so far" would end the call with nothing
		// received, which is not the case this test is about.
		const { result } = await run(server.url, { proxyIdleTimeoutMs: 1_000 });
		clearInterval(pinger);
		expect(result.errorMessage).toBe(
			"No data received from the provider for 1000 ms; the stream was stopped (idleTimeoutMs)",
		);
		expect(result.content).toEqual([{ type: "text", text: "so far" }]);
	});

	it("enforces timeoutMs itself, trailing it by as much again, when the proxy streams past it", async () => {
		let streamer: ReturnType<typeof setInterval> | undefined;
		server = await startServer((_request, response) => {
			sse(response, [{ type: "start" }, { type: "text_start", contentIndex: 0 }]);
			const delta = `data: ${JSON.stringify({ type: "text_delta", contentIndex: 0, delta: "." })}\n\n`;
			streamer = setInterval(() => response.write(delta), 10);
			response.on("close", () => clearInterval(streamer));
		});
		const { result } = await run(server.url, { timeoutMs: 100 });
		clearInterval(streamer);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("Request timed out after 200 ms (timeoutMs)");
	});

	it.each([
		["a huge", 1e12],
		["a zero", 0],
	])(
		"keeps its own idle limit when the page asks for %s idleTimeoutMs, with no timer overflow",
		async (_name, idleTimeoutMs) => {
			const warnings: Error[] = [];
			const onWarning = (warning: Error) => warnings.push(warning);
			process.on("warning", onWarning);
			vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
			try {
				// A proxy that answers, sends start, and then nothing at all.
				const fetch = async () =>
					new Response(
						new ReadableStream({
							start(controller) {
								controller.enqueue(new TextEncoder().encode('data: {"type":"start"}\n\n'));
							},
						}),
						{ headers: { "Content-Type": "text/event-stream" } },
					);
				const stream = streamProxy(
					model,
					{ messages: [] },
					{ proxyUrl: "http://proxy.test", authToken: "t", fetch, idleTimeoutMs },
				);
				// The server's default range caps the idle limit at 5 minutes; the client trails it by 30 s.
				await vi.advanceTimersByTimeAsync(330_000);
				const result = await stream.result();
				expect(result.errorMessage).toBe(
					"No data received from the provider for 330000 ms; the stream was stopped (idleTimeoutMs)",
				);
				expect(warnings.filter((warning) => warning.name === "TimeoutOverflowWarning")).toEqual([]);
			} finally {
				vi.useRealTimers();
				process.off("warning", onWarning);
			}
		},
	);

	it("reports an abort before the response as aborted", async () => {
		server = await startServer(() => {
			// Never answers: only the abort can end the call.
		});
		const controller = new AbortController();
		const stream = streamProxy(
			model,
			{ messages: [] },
			{ proxyUrl: server.url, authToken: "token", signal: controller.signal },
		);
		controller.abort();
		const result = await stream.result();
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
	});

	it("reports bad options as an error event instead of throwing", async () => {
		const missingUrl = await streamProxy(model, { messages: [] }, { proxyUrl: "", authToken: "token" }).result();
		expect(missingUrl.errorMessage).toBe(
			"streamProxy: options.proxyUrl must be the proxy's URL, for example https://example.com",
		);
		const missingToken = await streamProxy(model, { messages: [] }, {
			proxyUrl: "http://127.0.0.1:1",
		} as never).result();
		expect(missingToken.errorMessage).toBe(
			"streamProxy: options.authToken must be a non-empty string or a function returning one (sent as a bearer token)",
		);
	});

	it("calls an authToken function before each request, and reports a throw from it", async () => {
		const authorizations: (string | undefined)[] = [];
		server = await startServer((request, response) => {
			authorizations.push(request.headers.authorization);
			sse(response, [{ type: "done", reason: "stop", message: { usage } }]);
			response.end();
		});
		let counter = 0;
		await run(server.url, { authToken: () => `token-${++counter}` });
		await run(server.url, { authToken: async () => `token-${++counter}` });
		expect(authorizations).toEqual(["Bearer token-1", "Bearer token-2"]);
		const failing = await run(server.url, {
			authToken: () => {
				throw new Error("session expired");
			},
		});
		expect(failing.result.errorMessage).toBe("streamProxy: options.authToken() failed: session expired");
	});

	it("posts to <proxyUrl>/api/stream with the bearer token and only the forwardable options", async () => {
		let seen: { url?: string; authorization?: string; body?: unknown } = {};
		server = await startServer((request, response) => {
			let text = "";
			request.on("data", (chunk) => {
				text += chunk;
			});
			request.on("end", () => {
				seen = { url: request.url, authorization: request.headers.authorization, body: JSON.parse(text) };
				sse(response, [{ type: "done", reason: "stop", message: { usage } }]);
				response.end();
			});
		});
		await run(`${server.url}/`, { apiKey: "never-sent", temperature: 0.5, onPayload: () => undefined });
		expect(seen).toEqual({
			url: "/api/stream",
			authorization: "Bearer token",
			body: { model: { provider: "faux", id: "test-model" }, context: { messages: [] }, options: { temperature: 0.5 } },
		});
	});

	it("settles result() as aborted, without a request, when the caller aborts while an authToken function is pending", async () => {
		const controller = new AbortController();
		let fetched = false;
		const stream = streamProxy(
			model,
			{ messages: [] },
			{
				proxyUrl: "http://proxy.test",
				authToken: () => new Promise<string>(() => {}),
				signal: controller.signal,
				proxyIdleTimeoutMs: 0,
				fetch: (async () => {
					fetched = true;
					throw new Error("must not be called");
				}) as typeof fetch,
			},
		);
		controller.abort();
		const result = await stream.result();
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
		expect(fetched).toBe(false);
	});
});

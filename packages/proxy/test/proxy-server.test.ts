// The proxy server's refusals, its fetch-style adapter, disconnect handling and the header policy.
import type { IncomingMessage } from "node:http";
import { connect } from "node:net";
import {
	type Api,
	type AssistantMessageEventStream,
	type Context,
	createAssistantMessageEventStream,
	createEmptyAssistantMessage,
	getModels,
	type Model,
	type SimpleStreamOptions,
} from "@keel/ai";
import { type FauxProviderRegistration, fauxAssistantMessage, fauxText, registerFauxProvider } from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { streamProxy } from "../src/client.js";
import { createFetchProxyHandler } from "../src/fetch-handler.js";
import { createProxyHandler } from "../src/node-handler.js";
import { isForwardableHeader, pickForwardedOptions } from "../src/protocol.js";
import type { ProxyServerOptions } from "../src/proxy-pipeline.js";
import { createHangingStreamFunction, deferred, type RunningServer, startServer } from "./proxy-test-server.js";

let faux: FauxProviderRegistration;
let model: Model<Api>;
let server: RunningServer | undefined;

beforeEach(() => {
	faux = registerFauxProvider();
	model = faux.getModel();
});
afterEach(async () => {
	faux.unregister();
	await server?.close();
	server = undefined;
});

const validBody = () => ({ model: { provider: "faux", id: "faux-model" }, context: { messages: [] }, options: {} });

function fetchHandler(overrides: Partial<ProxyServerOptions<Request>> = {}) {
	return createFetchProxyHandler({ authenticate: (token) => token === "good", models: [model], ...overrides });
}

function post(body: unknown, headers: Record<string, string> = {}, path = "/api/stream"): Request {
	return new Request(`http://proxy.test${path}`, {
		method: "POST",
		headers: { Authorization: "Bearer good", "Content-Type": "application/json", ...headers },
		body: typeof body === "string" ? body : JSON.stringify(body),
	});
}

describe("proxy server refusals (fetch adapter)", () => {
	it("answers 401 with WWW-Authenticate when the bearer token is missing", async () => {
		const response = await fetchHandler()(post(validBody(), { Authorization: "" }));
		expect(response.status).toBe(401);
		expect(response.headers.get("www-authenticate")).toBe("Bearer");
		expect(await response.json()).toEqual({ error: "Missing bearer token: send Authorization: Bearer <token>" });
	});

	it("answers 405 for other methods and 404 for other paths", async () => {
		const handler = fetchHandler();
		const get = await handler(new Request("http://proxy.test/api/stream"));
		expect(get.status).toBe(405);
		expect(get.headers.get("allow")).toBe("POST");
		const elsewhere = await handler(post(validBody(), {}, "/other"));
		expect(elsewhere.status).toBe(404);
	});

	it("answers 413 from Content-Length before reading, and while reading a body without one", async () => {
		const handler = fetchHandler({ maxRequestBytes: 100 });
		const declared = await handler(post({ ...validBody(), padding: "x".repeat(200) }));
		expect(declared.status).toBe(413);
		const bytes = new TextEncoder().encode(JSON.stringify({ ...validBody(), padding: "y".repeat(200) }));
		const streamed = new Request("http://proxy.test/api/stream", {
			method: "POST",
			headers: { Authorization: "Bearer good" },
			body: new ReadableStream({
				start(controller) {
					controller.enqueue(bytes.slice(0, 60));
					controller.enqueue(bytes.slice(60));
					controller.close();
				},
			}),
			duplex: "half",
		} as RequestInit);
		const response = await handler(streamed);
		expect(response.status).toBe(413);
		expect(await response.json()).toEqual({ error: "The request body is larger than the proxy's limit of 100 bytes" });
	});

	it("reads a streamed body whole whether its Content-Length is right or short", async () => {
		faux.setResponses(["one", "two"]);
		const bytes = new TextEncoder().encode(JSON.stringify(validBody()));
		const streamed = (declaredLength: number) =>
			new Request("http://proxy.test/api/stream", {
				method: "POST",
				headers: { Authorization: "Bearer good", "Content-Length": String(declaredLength) },
				body: new ReadableStream({
					start(controller) {
						controller.enqueue(bytes.slice(0, 10));
						controller.enqueue(bytes.slice(10));
						controller.close();
					},
				}),
				duplex: "half",
			} as RequestInit);
		for (const declaredLength of [bytes.length, 20]) {
			const response = await fetchHandler()(streamed(declaredLength));
			expect(response.status, `Content-Length ${declaredLength}`).toBe(200);
			expect(await response.text()).toContain('"type":"done"');
		}
	});

	it.each([
		["not JSON", "{oops", "Invalid proxy request: the body is not valid JSON"],
		[
			"no model",
			{ context: { messages: [] } },
			'Invalid proxy request: "model" must be {"provider": string, "id": string}',
		],
		[
			"a bad role",
			{ ...validBody(), context: { messages: [{ role: "robot", content: "x" }] } },
			'Invalid proxy request: "context.messages[0].role" must be one of system, user, assistant, toolResult, got "robot"',
		],
		[
			"a temperature out of range",
			{ ...validBody(), options: { temperature: 9 } },
			'Invalid proxy request: "options.temperature" must be between 0 and 2, got 9',
		],
		[
			"an unknown reasoning level",
			{ ...validBody(), options: { reasoning: "maximum" } },
			'Invalid proxy request: "options.reasoning" must be one of minimal, low, medium, high, xhigh, max, got "maximum"',
		],
		[
			"a sampling key that would replace a field of the body",
			{ ...validBody(), options: { samplingParams: { top_p: 0.9, model: 1 } } },
			'Invalid proxy request: "options.samplingParams" may not set "model"',
		],
		[
			"a sampling value that is not a number",
			{ ...validBody(), options: { samplingParams: { top_p: "high" } } },
			'Invalid proxy request: "options.samplingParams.top_p" must be a number',
		],
	])("answers 400 naming the field for %s", async (_name, body, message) => {
		const response = await fetchHandler()(post(body));
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ error: message });
		expect(faux.state.callCount).toBe(0);
	});

	it("passes the max reasoning level and numeric sampling parameters upstream", async () => {
		faux.setResponses(["ok"]);
		const response = await fetchHandler()(
			post({ ...validBody(), options: { reasoning: "max", samplingParams: { top_p: 0.9, top_k: 40 } } }),
		);
		await response.text();
		expect(faux.state.requests[0].options).toMatchObject({
			reasoning: "max",
			samplingParams: { top_p: 0.9, top_k: 40 },
		});
		// streamProxy sends them too.
		expect(pickForwardedOptions({ reasoning: "max", samplingParams: { top_p: 0.5 } })).toEqual({
			reasoning: "max",
			samplingParams: { top_p: 0.5 },
		});
	});

	it("drops unknown options instead of passing them upstream", async () => {
		faux.setResponses(["ok"]);
		const response = await fetchHandler()(
			post({ ...validBody(), options: { apiKey: "client", onPayload: "x", baseUrl: "evil", maxTokens: 5 } }),
		);
		await response.text();
		const { signal: _signal, ...options } = faux.state.requests[0].options ?? {};
		expect(options).toEqual({ maxTokens: 5 });
	});

	it("clamps every limit a browser sends into the server's ranges: 0 and huge values become the maximum", async () => {
		faux.setResponses(["one", "two"]);
		const handler = fetchHandler({ limitRanges: { idleTimeoutMs: { min: 5_000, max: 60_000 } } });
		const limitsSent = (index: number) => {
			const { timeoutMs, idleTimeoutMs, maxRetryDelayMs } = faux.state.requests[index].options ?? {};
			return { timeoutMs, idleTimeoutMs, maxRetryDelayMs };
		};
		// 2**31 and 1e12 overflow setTimeout and would leave a stalled upstream open with no timer;
		// maxRetryDelayMs 0 would let the server sleep out any retry-after.
		await (
			await handler(post({ ...validBody(), options: { idleTimeoutMs: 2 ** 31, timeoutMs: 1e12, maxRetryDelayMs: 0 } }))
		).text();
		expect(limitsSent(0)).toEqual({ idleTimeoutMs: 60_000, timeoutMs: 30 * 60_000, maxRetryDelayMs: 60_000 });
		await (
			await handler(post({ ...validBody(), options: { idleTimeoutMs: 1, timeoutMs: 0, maxRetryDelayMs: 1 } }))
		).text();
		expect(limitsSent(1)).toEqual({ idleTimeoutMs: 5_000, timeoutMs: 30 * 60_000, maxRetryDelayMs: 1_000 });
	});

	it("refuses a negative limit with a 400 naming the option, and a bad range at creation", async () => {
		const response = await fetchHandler()(post({ ...validBody(), options: { idleTimeoutMs: -1 } }));
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({
			error: 'Invalid proxy request: "options.idleTimeoutMs" must be a number of milliseconds >= 0, got -1',
		});
		expect(() => fetchHandler({ limitRanges: { timeoutMs: { min: 0, max: 10 } } })).toThrow(
			'Proxy handler: options.limitRanges.timeoutMs must be { min, max } with 0 < min <= max <= 2147483647 ms, got {"min":0,"max":10}',
		);
	});

	it("forwards a beta header only with the features the server's config allows", async () => {
		faux.setResponses(["one", "two"]);
		const headers = {
			"anthropic-beta": "context-1m-2025-08-07, fine-grained-tool-streaming-2025-05-14",
			"OpenAI-Beta": "responses=v1",
			"x-trace-id": "t1",
		};
		await (await fetchHandler()(post({ ...validBody(), options: { headers } }))).text();
		expect(faux.state.requests[0].options?.headers).toEqual({ "x-trace-id": "t1" });
		const allowing = fetchHandler({
			allowedBetaFeatures: { "anthropic-beta": ["fine-grained-tool-streaming-2025-05-14"] },
		});
		await (await allowing(post({ ...validBody(), options: { headers } }))).text();
		expect(faux.state.requests[1].options?.headers).toEqual({
			"anthropic-beta": "fine-grained-tool-streaming-2025-05-14",
			"x-trace-id": "t1",
		});
	});

	it("checks a forwarded header name exactly as it is sent: a name with a trailing space is dropped", async () => {
		faux.setResponses(["ok"]);
		expect(isForwardableHeader("x-trace-id ")).toBe(false);
		const headers = { "x-trace-id ": "padded", "anthropic-version ": "2020-01-01", "x-request-id": "r1" };
		await (await fetchHandler()(post({ ...validBody(), options: { headers } }))).text();
		expect(faux.state.requests[0].options?.headers).toEqual({ "x-request-id": "r1" });
	});

	it("lets prepareOptions cap what the client asked for", async () => {
		faux.setResponses(["ok"]);
		const handler = fetchHandler({
			prepareOptions: (options) => ({ ...options, maxTokens: Math.min(options.maxTokens ?? 1000, 1000) }),
		});
		await (await handler(post({ ...validBody(), options: { maxTokens: 1_000_000 } }))).text();
		expect(faux.state.requests[0].options?.maxTokens).toBe(1000);
	});

	it("never takes a key from the client, but lets server code set one in prepareOptions", async () => {
		faux.setResponses(["one", "two"]);
		const body = { ...validBody(), options: { apiKey: "from-browser" } };
		await (await fetchHandler()(post(body))).text();
		expect(faux.state.requests[0].options?.apiKey).toBeUndefined();
		const withKey = fetchHandler({ prepareOptions: (options) => ({ ...options, apiKey: "per-user-server-key" }) });
		await (await withKey(post(body))).text();
		expect(faux.state.requests[1].options?.apiKey).toBe("per-user-server-key");
	});

	it("accepts a predicate: true serves the catalogue's model, false answers 403", async () => {
		const catalogueModel = getModels("anthropic")[0];
		const hanging = createHangingStreamFunction();
		const handler = fetchHandler({
			models: (reference) => reference.provider === "anthropic",
			streamFunction: hanging.streamFunction,
		});
		const allowed = await handler(post({ ...validBody(), model: { provider: "anthropic", id: catalogueModel.id } }));
		expect(allowed.status).toBe(200);
		await allowed.body?.cancel();
		expect(hanging.received.model).toEqual(catalogueModel);
		const refused = await handler(post(validBody()));
		expect(refused.status).toBe(403);
		expect(await refused.json()).toEqual({ error: 'Model "faux/faux-model" is not allowed by this proxy' });
	});

	it("answers CORS preflights only for allowed origins", async () => {
		const handler = fetchHandler({ allowedOrigins: ["https://app.example"] });
		const preflight = (origin: string) =>
			handler(new Request("http://proxy.test/api/stream", { method: "OPTIONS", headers: { Origin: origin } }));
		const allowed = await preflight("https://app.example");
		expect(allowed.status).toBe(204);
		expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example");
		expect(allowed.headers.get("access-control-allow-headers")).toBe("Authorization, Content-Type");
		expect((await preflight("https://evil.example")).status).toBe(405);
	});
});

describe("proxy server streaming", () => {
	it("serves streamProxy through the fetch adapter", async () => {
		faux.setResponses([fauxAssistantMessage([fauxText("via fetch handler")])]);
		const handler = fetchHandler();
		const result = await streamProxy(
			model,
			{ messages: [] },
			{ proxyUrl: "http://proxy.test", authToken: "good", fetch: (input, init) => handler(new Request(input, init)) },
		).result();
		expect(result.content).toEqual([{ type: "text", text: "via fetch handler" }]);
	});

	it("streams SSE without partial, ending with exactly one terminal event", async () => {
		faux.setResponses(["abc"]);
		const response = await fetchHandler()(post(validBody()));
		expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
		const lines = (await response.text()).split("\n").filter((line) => line.startsWith("data: "));
		const events = lines.map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
		expect(events.some((event) => "partial" in event)).toBe(false);
		expect(events.map((event) => event.type)).toEqual(["start", "text_start", "text_delta", "text_end", "done"]);
	});

	it("aborts the upstream call when the client cancels the fetch response body", async () => {
		const hanging = createHangingStreamFunction();
		const response = await fetchHandler({ streamFunction: hanging.streamFunction })(post(validBody()));
		const reader = response.body!.getReader();
		const first = await reader.read();
		expect(new TextDecoder().decode(first.value)).toContain('"type":"start"');
		await reader.cancel();
		await hanging.upstreamAborted;
		expect(hanging.received.options?.signal?.aborted).toBe(true);
	});

	it("aborts the upstream call when a Node client disconnects", async () => {
		const hanging = createHangingStreamFunction();
		server = await startServer(
			createProxyHandler({ authenticate: () => true, models: [model], streamFunction: hanging.streamFunction }),
		);
		const controller = new AbortController();
		const response = await fetch(`${server.url}/api/stream`, {
			method: "POST",
			headers: { Authorization: "Bearer any" },
			body: JSON.stringify(validBody()),
			signal: controller.signal,
		});
		const reader = response.body!.getReader();
		await reader.read();
		controller.abort();
		await hanging.upstreamAborted;
		expect(hanging.received.options?.signal?.aborted).toBe(true);
	});

	it("uses request.body when a body parser already consumed the Node stream", async () => {
		faux.setResponses(["parsed upstream"]);
		const handler = createProxyHandler({ authenticate: () => true, models: [model] });
		server = await startServer((request, response) => {
			// What express.json() does: read the stream, then leave the parsed object on request.body.
			let text = "";
			request.on("data", (chunk) => {
				text += chunk;
			});
			request.on("end", () => {
				Object.assign(request, { body: JSON.parse(text) });
				void handler(request, response);
			});
		});
		const result = await streamProxy(model, { messages: [] }, { proxyUrl: server.url, authToken: "any" }).result();
		expect(result.content).toEqual([{ type: "text", text: "parsed upstream" }]);
	});

	it("ends with one error event when the stream function breaks its contract", async () => {
		const errors: unknown[] = [];
		const handler = fetchHandler({
			onError: (error) => errors.push(error),
			streamFunction: () => {
				const stream = createAssistantMessageEventStream();
				// A text_start without its partial message: toProxyEvent cannot read it.
				stream.push({ type: "start" } as never);
				stream.push({ type: "text_start", contentIndex: 0 } as never);
				return stream;
			},
		});
		const text = await (await handler(post(validBody()))).text();
		const events = text
			.split("\n")
			.filter((line) => line.startsWith("data: "))
			.map((line) => JSON.parse(line.slice(6)) as { type: string; errorMessage?: string });
		expect(events.map((event) => event.type)).toEqual(["start", "error"]);
		expect(events[1].errorMessage).toBe("The proxy failed while streaming the response");
		expect(errors).toHaveLength(1);
	});

	it("ends with an error event when the upstream stream ends without a terminal event", async () => {
		const handler = fetchHandler({
			streamFunction: () => {
				const stream = createAssistantMessageEventStream();
				stream.end(createEmptyAssistantMessage("faux", "faux", "faux-model"));
				return stream;
			},
		});
		const result = await streamProxy(
			model,
			{ messages: [] },
			{ proxyUrl: "http://proxy.test", authToken: "good", fetch: (input, init) => handler(new Request(input, init)) },
		).result();
		expect(result.errorMessage).toBe("The upstream stream ended without a done or error event");
	});

	it("sends heartbeat comments while the upstream is quiet", async () => {
		const hanging = createHangingStreamFunction();
		const response = await fetchHandler({ streamFunction: hanging.streamFunction, heartbeatMs: 10 })(post(validBody()));
		const reader = response.body!.getReader();
		let text = "";
		while (!text.includes(": ping")) text += new TextDecoder().decode((await reader.read()).value);
		await reader.cancel();
		expect(text).toContain(": ping\n\n");
	});

	it("calls next() for other paths on Node, and 404 without next", async () => {
		const handler = createProxyHandler({ authenticate: () => true, models: [model] });
		const nextCalled = deferred();
		server = await startServer((request, response) =>
			request.url === "/with-next"
				? handler(request, response, () => {
						nextCalled.resolve();
						response.end("from next");
					})
				: handler(request, response),
		);
		expect(await (await fetch(`${server.url}/with-next`)).text()).toBe("from next");
		await nextCalled.promise;
		expect((await fetch(`${server.url}/missing`)).status).toBe(404);
	});

	it("throws at creation when authenticate or models is missing", () => {
		expect(() => createProxyHandler({ models: [model] } as unknown as ProxyServerOptions<IncomingMessage>)).toThrow(
			"Proxy handler: options.authenticate(token, request) is required (return true to accept a token)",
		);
		expect(() =>
			createFetchProxyHandler({ authenticate: () => true } as unknown as ProxyServerOptions<Request>),
		).toThrow("Proxy handler: options.models must be a list of Models or a resolver function");
	});
});

describe("isForwardableHeader", () => {
	it.each([
		"Authorization",
		"x-api-key",
		"api-key",
		"x-goog-api-key",
		"Ocp-Apim-Subscription-Key",
		"cf-aig-authorization",
		"chatgpt-account-id",
		"x-amz-security-token",
		"Cookie",
		"Host",
		"Content-Length",
		"Transfer-Encoding",
		"proxy-foo",
		"bad header",
	])("refuses %s", (name) => {
		expect(isForwardableHeader(name)).toBe(false);
	});

	it.each(["x-trace-id", "anthropic-beta", "X-Title", "HTTP-Referer", "user-agent"])("allows %s", (name) => {
		expect(isForwardableHeader(name)).toBe(true);
	});
});

const modelWithOwnHeaders: Model<Api> = {
	id: "server-model",
	name: "Server model",
	api: "openai-completions",
	provider: "openai",
	baseUrl: "http://127.0.0.1:1/v1",
	headers: { "X-Tenant": "server-tenant" },
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1000,
	maxTokens: 100,
};

describe("header policy: billing scope and the server model's own headers", () => {
	// OpenAI lists these under authentication: they pick which organization or project the server's
	// key bills. Google's x-goog-user-project picks the billed quota project the same way.
	it.each(["OpenAI-Organization", "openai-project", "x-goog-user-project"])(
		"refuses the billing-scope header %s, so a client cannot pick whom the server's key bills",
		(name) => {
			expect(isForwardableHeader(name)).toBe(false);
			expect(pickForwardedOptions({ headers: { [name]: "org-of-someone-else" } }).headers).toBeUndefined();
		},
	);

	it("never lets a client header replace a header of the server's own model", async () => {
		let received: SimpleStreamOptions | undefined;
		const streamFunction = (model: Model<Api>, _context: Context, options: SimpleStreamOptions) => {
			received = options;
			const stream: AssistantMessageEventStream = createAssistantMessageEventStream();
			const message = createEmptyAssistantMessage(model.api, model.provider, model.id);
			stream.push({ type: "done", reason: "stop", message });
			stream.end(message);
			return stream;
		};
		const handler = createFetchProxyHandler({
			authenticate: (token) => token === "good",
			models: [modelWithOwnHeaders],
			streamFunction,
		});
		const response = await handler(
			new Request("http://proxy.test/api/stream", {
				method: "POST",
				headers: { Authorization: "Bearer good", "Content-Type": "application/json" },
				body: JSON.stringify({
					model: { provider: "openai", id: "server-model" },
					context: { messages: [] },
					options: { headers: { "x-tenant": "client-tenant", "x-trace-id": "t1" } },
				}),
			}),
		);
		expect(response.status).toBe(200);
		await response.text();
		expect(received?.headers).toEqual({ "x-trace-id": "t1" });
	});
});

const nodeModel = { provider: "faux", id: "faux-model" } as Model<Api>;

/** Sends the headers and a first slice of a body announced as 10 MB; resolves when the server closes. */
function sendPartialBody(url: string, authorization: string, path = "/api/stream"): Promise<string> {
	const { port } = new URL(url);
	return new Promise((resolve, reject) => {
		let received = "";
		const socket = connect(Number(port), "127.0.0.1", () => {
			socket.write(
				`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
					`Authorization: ${authorization}\r\nContent-Length: 10000000\r\n\r\n{"model":`,
			);
		});
		socket.on("data", (chunk) => {
			received += chunk.toString("utf8");
		});
		socket.on("close", () => resolve(received));
		socket.on("error", reject);
	});
}

describe("refused requests (Node adapter)", () => {
	it("closes the connection after a 401 instead of draining a body it never reads", async () => {
		let authenticated = 0;
		const handler = createProxyHandler({
			authenticate: () => {
				authenticated++;
				return false;
			},
			models: [nodeModel],
		});
		server = await startServer(handler);
		const response = await sendPartialBody(server.url, "Bearer wrong");
		expect(response.startsWith("HTTP/1.1 401")).toBe(true);
		expect(authenticated).toBe(1);
	});

	it("closes the connection after a 404 for another path, before any token check", async () => {
		server = await startServer(createProxyHandler({ authenticate: () => true, models: [nodeModel] }));
		const response = await sendPartialBody(server.url, "Bearer any", "/elsewhere");
		expect(response.startsWith("HTTP/1.1 404")).toBe(true);
	});
});

// streamProxy against the real Node handler on 127.0.0.1, backed by the faux provider: the browser
// side sees the same events and message as a direct call, with the server's model and keys.
import type { IncomingMessage } from "node:http";
import { type Api, type AssistantMessageEvent, type Model, streamSimple } from "@keel/ai";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxText,
	fauxThinking,
	fauxToolCall,
	registerFauxProvider,
} from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { streamProxy } from "../src/client.js";
import { createProxyHandler } from "../src/node-handler.js";
import type { ProxyServerOptions } from "../src/proxy-pipeline.js";
import { createHangingStreamFunction, type RunningServer, startServer } from "./proxy-test-server.js";

let faux: FauxProviderRegistration;
let server: RunningServer | undefined;
let serverModel: Model<Api>;

beforeEach(() => {
	faux = registerFauxProvider({ models: [{ id: "faux-model" }, { id: "faux-secret-model" }] });
	serverModel = faux.getModel("faux-model");
});

afterEach(async () => {
	faux.unregister();
	await server?.close();
	server = undefined;
});

async function startProxy(overrides: Partial<ProxyServerOptions<IncomingMessage>> = {}): Promise<string> {
	server = await startServer(
		createProxyHandler({
			authenticate: (token) => token === "good-token",
			models: [serverModel],
			...overrides,
		}),
	);
	return server.url;
}

async function collect(stream: AsyncIterable<AssistantMessageEvent>): Promise<AssistantMessageEvent[]> {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) events.push(event);
	return events;
}

const script = fauxAssistantMessage([
	fauxThinking("Let me think.", "sig-1"),
	fauxText("The weather is fine."),
	fauxToolCall("get_weather", { city: "Paris", days: [1, 2] }, "call_1"),
]);

describe("streamProxy through the Node proxy handler", () => {
	it("produces the same events and final message as calling the provider directly", async () => {
		faux.setResponses([script, script]);
		const context = {
			systemPrompt: "Be brief.",
			messages: [{ role: "user" as const, content: "Weather?", timestamp: 1 }],
		};
		const direct = await collect(streamSimple(serverModel, context));
		const proxyUrl = await startProxy();

		const stream = streamProxy(serverModel, context, { proxyUrl, authToken: "good-token" });
		const proxied = await collect(stream);
		const final = await stream.result();

		expect(proxied.map((event) => event.type)).toEqual(direct.map((event) => event.type));
		const directFinal = direct.at(-1) as Extract<AssistantMessageEvent, { type: "done" }>;
		// The two calls differ only in time and in the faux response counter.
		expect({ ...final, timestamp: 0, responseId: "" }).toEqual({
			...directFinal.message,
			timestamp: 0,
			responseId: "",
		});
		expect(final.content[0]).toEqual({ type: "thinking", thinking: "Let me think.", thinkingSignature: "sig-1" });
		expect(final.stopReason).toBe("toolUse");
		expect(final.responseId).toBe("faux_response_2");
		// One partial object, mutated in place, as @keel/ai's providers do.
		const partials = proxied.flatMap((event) => ("partial" in event ? [event.partial] : []));
		expect(new Set(partials).size).toBe(1);
	});

	it("rebuilds tool-call arguments incrementally from the deltas", async () => {
		faux.setResponses([fauxAssistantMessage([fauxToolCall("search", { query: "a long query text" }, "call_9")])]);
		const proxyUrl = await startProxy();
		const seen: unknown[] = [];
		for await (const event of streamProxy(serverModel, { messages: [] }, { proxyUrl, authToken: "good-token" })) {
			if (event.type === "toolcall_delta") {
				const block = event.partial.content[event.contentIndex];
				if (block.type === "toolCall") seen.push(structuredClone(block.arguments));
			}
		}
		expect(seen.length).toBeGreaterThan(2);
		expect(
			seen.some((value) => JSON.stringify(value) !== "{}" && JSON.stringify(value) !== '{"query":"a long query text"}'),
		).toBe(true);
		expect(seen.at(-1)).toEqual({ query: "a long query text" });
	});

	it("forwards every safe option, drops credential headers and uses the server's key", async () => {
		faux.setResponses(["ok"]);
		const proxyUrl = await startProxy({ getApiKey: (provider) => `server-key-for-${provider}` });
		const stream = streamProxy(
			serverModel,
			{ messages: [] },
			{
				proxyUrl,
				authToken: "good-token",
				apiKey: "browser-key",
				temperature: 0.3,
				maxTokens: 321,
				reasoning: "high",
				thinkingBudgets: { high: 9000 },
				cacheRetention: "long",
				sessionId: "session-7",
				transport: "sse",
				metadata: { user_id: "u-1" },
				maxRetryDelayMs: 1234,
				timeoutMs: 50_000,
				idleTimeoutMs: 40_000,
				headers: {
					"x-trace-id": "trace-1",
					Authorization: "Bearer stolen",
					"x-api-key": "stolen",
					"x-goog-api-key": "stolen",
					"api-key": "stolen",
				},
			},
		);
		expect((await stream.result()).stopReason).toBe("stop");
		const { signal, ...options } = faux.state.requests[0].options ?? {};
		expect(signal).toBeInstanceOf(AbortSignal);
		expect(options).toEqual({
			apiKey: "server-key-for-faux",
			temperature: 0.3,
			maxTokens: 321,
			reasoning: "high",
			thinkingBudgets: { high: 9000 },
			cacheRetention: "long",
			sessionId: "session-7",
			transport: "sse",
			metadata: { user_id: "u-1" },
			maxRetryDelayMs: 1234,
			timeoutMs: 50_000,
			idleTimeoutMs: 40_000,
			headers: { "x-trace-id": "trace-1" },
		});
	});

	it("uses the server's own Model, never the client's baseUrl or headers", async () => {
		faux.setResponses(["ok"]);
		const proxyUrl = await startProxy();
		const forged: Model<Api> = {
			...serverModel,
			baseUrl: "https://attacker.example",
			headers: { "x-api-key": "mine" },
		};
		await streamProxy(forged, { messages: [] }, { proxyUrl, authToken: "good-token" }).result();
		expect(faux.state.requests[0].model).toBe(serverModel);
	});

	it("refuses a model outside the allow-list with a clear error event", async () => {
		const proxyUrl = await startProxy();
		const result = await streamProxy(
			faux.getModel("faux-secret-model"),
			{ messages: [] },
			{ proxyUrl, authToken: "good-token" },
		).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain('Proxy error: Model "faux/faux-secret-model" is not allowed by this proxy');
		expect(faux.state.callCount).toBe(0);
	});

	it("resolves models with a resolver function that sees the request", async () => {
		faux.setResponses(["from resolver"]);
		const asked: string[] = [];
		const proxyUrl = await startProxy({
			models: (reference, request) => {
				asked.push(`${reference.provider}/${reference.id} ${request.method}`);
				return reference.id === "faux-secret-model" ? faux.getModel("faux-secret-model") : undefined;
			},
		});
		const result = await streamProxy(
			faux.getModel("faux-secret-model"),
			{ messages: [] },
			{ proxyUrl, authToken: "good-token" },
		).result();
		expect(result.content).toEqual([{ type: "text", text: "from resolver" }]);
		expect(asked).toEqual(["faux/faux-secret-model POST"]);
	});

	it("maps a refused token to an error event with the server's message", async () => {
		const tokens: string[] = [];
		const proxyUrl = await startProxy({
			authenticate: (token) => {
				tokens.push(token);
				return false;
			},
		});
		const result = await streamProxy(serverModel, { messages: [] }, { proxyUrl, authToken: "bad-token" }).result();
		expect(result.errorMessage).toMatch(/^Proxy error: Invalid token \(the proxy at 127\.0\.0\.1:\d+\)$/);
		expect(tokens).toEqual(["bad-token"]);
	});

	it("passes an upstream error through with the content streamed before it", async () => {
		faux.setResponses([
			fauxAssistantMessage("Partial answer", { stopReason: "error", errorMessage: "Upstream 529 overloaded" }),
		]);
		const proxyUrl = await startProxy();
		const events = await collect(streamProxy(serverModel, { messages: [] }, { proxyUrl, authToken: "good-token" }));
		const last = events.at(-1);
		expect(last?.type).toBe("error");
		if (last?.type !== "error") return;
		expect(last.reason).toBe("error");
		expect(last.error.errorMessage).toBe("Upstream 529 overloaded");
		expect(last.error.content).toEqual([{ type: "text", text: "Partial answer" }]);
	});

	it("enforces the request size limit with 413", async () => {
		const proxyUrl = await startProxy({ maxRequestBytes: 200 });
		const result = await streamProxy(
			serverModel,
			{ messages: [{ role: "user", content: "x".repeat(500), timestamp: 1 }] },
			{ proxyUrl, authToken: "good-token" },
		).result();
		expect(result.errorMessage).toMatch(
			/^Proxy error: The request body is larger than the proxy's limit of 200 bytes \(the proxy at 127\.0\.0\.1:\d+\)$/,
		);
		expect(faux.state.callCount).toBe(0);
	});

	it("aborts the upstream call when the browser aborts, and reports aborted", async () => {
		const hanging = createHangingStreamFunction();
		const proxyUrl = await startProxy({ streamFunction: hanging.streamFunction });
		const controller = new AbortController();
		const stream = streamProxy(
			serverModel,
			{ messages: [] },
			{ proxyUrl, authToken: "good-token", signal: controller.signal },
		);
		for await (const event of stream) {
			if (event.type === "text_delta") controller.abort();
		}
		const result = await stream.result();
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
		expect(result.content).toEqual([{ type: "text", text: "Hello" }]);
		await hanging.upstreamAborted;
		expect(hanging.received.options?.signal?.aborted).toBe(true);
	});

	it("reports a stream function that throws as one error event", async () => {
		const errors: unknown[] = [];
		const proxyUrl = await startProxy({
			streamFunction: () => {
				throw new Error("boom with secret sk-123");
			},
			onError: (error) => errors.push(error),
		});
		const result = await streamProxy(serverModel, { messages: [] }, { proxyUrl, authToken: "good-token" }).result();
		expect(result.errorMessage).toBe("The proxy's stream function failed to start");
		expect((errors[0] as Error).message).toBe("boom with secret sk-123");
	});

	it("turns a throwing authenticate callback into a generic 500, reported to onError", async () => {
		const errors: unknown[] = [];
		const proxyUrl = await startProxy({
			authenticate: () => {
				throw new Error("database down");
			},
			onError: (error) => errors.push(error),
		});
		const result = await streamProxy(serverModel, { messages: [] }, { proxyUrl, authToken: "good-token" }).result();
		expect(result.errorMessage).toMatch(
			/^Proxy error: The proxy failed to handle the request \(the proxy at 127\.0\.0\.1:\d+\)$/,
		);
		expect(errors).toHaveLength(1);
	});
});

// The proxy validates the whole context before anything is called: every message and content block
// (with @keel/ai's validator, the one sessions use), tools, nesting depth and counts. A bad body is a
// 400 naming the field, and the stream function never sees it.
import type { IncomingMessage } from "node:http";
import {
	type Api,
	type AssistantMessageEventStream,
	type Context,
	type Model,
	type SimpleStreamOptions,
	streamSimple,
} from "@keel/ai";
import { type FauxProviderRegistration, registerFauxProvider, WireTestServer } from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { streamProxy } from "../src/client.js";
import { createFetchProxyHandler } from "../src/fetch-handler.js";
import { createProxyHandler } from "../src/node-handler.js";
import type { ProxyServerOptions } from "../src/proxy-pipeline.js";
import { type RunningServer, startServer } from "./proxy-test-server.js";

let faux: FauxProviderRegistration;
let model: Model<Api>;
let calls: Context[];

beforeEach(() => {
	faux = registerFauxProvider();
	faux.setResponses(["fine"]);
	model = faux.getModel();
	calls = [];
});
afterEach(() => {
	faux.unregister();
});

/** The faux provider behind a recorder: what reached the stream function. */
function recordingStreamFunction(
	target: Model<Api>,
	context: Context,
	options: SimpleStreamOptions,
): AssistantMessageEventStream {
	calls.push(context);
	return streamSimple(target, context, options);
}

function handler(overrides: Partial<ProxyServerOptions<Request>> = {}) {
	return createFetchProxyHandler({
		authenticate: (token) => token === "good",
		models: [model],
		streamFunction: recordingStreamFunction,
		...overrides,
	});
}

function post(context: unknown): Request {
	return new Request("http://proxy.test/api/stream", {
		method: "POST",
		headers: { Authorization: "Bearer good", "Content-Type": "application/json" },
		body: JSON.stringify({ model: { provider: "faux", id: "faux-model" }, context, options: {} }),
	});
}

const user = (content: unknown) => ({ role: "user", content, timestamp: 1 });

/** `[[[…]]]` nested `depth` levels, built as JSON text (JSON.parse reads any depth). */
function deeplyNestedJson(depth: number): string {
	return `${"[".repeat(depth)}${"]".repeat(depth)}`;
}

function postText(contextJson: string): Request {
	return new Request("http://proxy.test/api/stream", {
		method: "POST",
		headers: { Authorization: "Bearer good", "Content-Type": "application/json" },
		body: `{"model":{"provider":"faux","id":"faux-model"},"options":{},"context":${contextJson}}`,
	});
}

describe("the proxy refuses a malformed context with 400 naming the field, before any call", () => {
	it.each([
		[
			"an array inside content",
			{ messages: [user([[1]])] },
			'"context.messages[0].content[0]" must be an object, got an array',
		],
		[
			"a number as a block",
			{ messages: [user([42])] },
			'"context.messages[0].content[0]" must be an object, got a number',
		],
		[
			"a text block whose text is a number",
			{ messages: [user([{ type: "text", text: 5 }])] },
			'"context.messages[0].content[0].text" must be a string, got a number',
		],
		[
			"a block type no provider encodes",
			{ messages: [user([{ type: "video", url: "x" }])] },
			'"context.messages[0].content[0].type" must be one of text, image, file, audio, got "video"',
		],
		[
			"a user message without a timestamp",
			{ messages: [{ role: "user", content: "hi" }] },
			'"context.messages[0].timestamp" must be a finite number, got nothing',
		],
		[
			"a tool call whose arguments are a string",
			{
				messages: [
					user("hi"),
					{
						role: "assistant",
						content: [{ type: "toolCall", id: "c1", name: "add", arguments: "{}" }],
						api: "faux",
						provider: "faux",
						model: "faux-model",
						usage: {},
						stopReason: "toolUse",
						timestamp: 2,
					},
				],
			},
			'"context.messages[1].content[0].arguments" must be an object, got a string',
		],
		[
			"a tool result without isError",
			{ messages: [{ role: "toolResult", toolCallId: "c1", toolName: "add", content: [], timestamp: 3 }] },
			'"context.messages[0].isError" must be a boolean, got nothing',
		],
		[
			"a tool whose parameters are not a schema object",
			{ messages: [user("hi")], tools: [{ name: "add", description: "Adds", parameters: "number" }] },
			'"context.tools[0].parameters" must be a JSON Schema object, a TypeBox schema or a Standard Schema (Zod, Valibot, ArkType), got a string',
		],
	])("%s", async (_name, context, field) => {
		const response = await handler()(post(context));
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ error: `Invalid proxy request: ${field}` });
		expect(calls).toEqual([]);
	});

	it("a 100,000-deep array in content, without a stack overflow", async () => {
		const response = await handler()(
			postText(`{"messages":[{"role":"user","timestamp":1,"content":${deeplyNestedJson(100_000)}}]}`),
		);
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({
			error:
				'Invalid proxy request: "context.messages[0].content[0][0][0][0]…" nests arrays or objects deeper than 64 levels (maxDepth)',
		});
		expect(calls).toEqual([]);
	});

	it("a 100,000-deep value in a tool call's arguments, which are free-form", async () => {
		const assistant = `{"role":"assistant","api":"faux","provider":"faux","model":"faux-model","usage":{},"stopReason":"toolUse","timestamp":2,"content":[{"type":"toolCall","id":"c1","name":"add","arguments":{"a":${deeplyNestedJson(100_000)}}}]}`;
		const response = await handler()(postText(`{"messages":[${assistant}]}`));
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({
			error:
				'Invalid proxy request: "context.messages[0].content[0].arguments.a[0]…" nests arrays or objects deeper than 64 levels (maxDepth)',
		});
		expect(calls).toEqual([]);
	});

	it("more messages or tools than the configured limits", async () => {
		const limited = handler({ contextLimits: { maxMessages: 2, maxTools: 1 } });
		const messages = await limited(post({ messages: [user("a"), user("b"), user("c")] }));
		expect(await messages.json()).toEqual({
			error: 'Invalid proxy request: "context.messages" holds 3 messages, more than the limit of 2 (maxMessages)',
		});
		const tool = { name: "t", description: "", parameters: { type: "object" } };
		const tools = await limited(post({ messages: [user("a")], tools: [tool, tool] }));
		expect(await tools.json()).toEqual({
			error: 'Invalid proxy request: "context.tools" holds 2 tools, more than the limit of 1 (maxTools)',
		});
		expect(calls).toEqual([]);
	});

	it("throws when the handler is created with a bad limit, not on the first request", () => {
		expect(() => handler({ contextLimits: { maxDepth: 0 } })).toThrow(
			"validateContext: limits.maxDepth must be a positive integer, got 0",
		);
	});
});

describe("the proxy passes a valid context on whole", () => {
	it("streams the answer, and the stream function gets the validated context without extra fields", async () => {
		const context = {
			systemPrompt: "Be brief.",
			messages: [
				user([
					{ type: "text", text: "What is in this image?" },
					{ type: "image", data: "aGk=", mimeType: "image/png" },
				]),
			],
			tools: [
				{ name: "add", description: "Adds", parameters: { type: "object", properties: { a: { type: "number" } } } },
			],
			injected: "dropped",
		};
		const response = await handler()(post(context));
		expect(response.status).toBe(200);
		const text = await response.text();
		expect(text).toContain('"type":"done"');
		const { injected: _dropped, ...expected } = context;
		expect(calls).toEqual([expected]);
	});
});

describe("the server's limit ranges are the ceiling for a browser's limits", () => {
	let upstream: WireTestServer | undefined;
	let proxy: RunningServer | undefined;
	afterEach(async () => {
		await proxy?.close();
		await upstream?.close();
		proxy = undefined;
		upstream = undefined;
	});

	it("an idleTimeoutMs of 2^31 from the page still ends a stalled upstream at the server's idle maximum", async () => {
		// A real provider call (OpenAI Chat Completions) to a local server that sends its headers and
		// then nothing: only the idle watchdog can end it.
		upstream = await WireTestServer.start();
		upstream.enqueue({ status: 200, headers: { "content-type": "text/event-stream" }, stall: true });
		const upstreamModel: Model<"openai-completions"> = {
			id: "stalling-model",
			name: "stalling-model",
			api: "openai-completions",
			provider: "local",
			baseUrl: upstream.url,
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 8_000,
			maxTokens: 1_000,
		};
		proxy = await startServer(
			createProxyHandler({
				authenticate: () => true,
				models: [upstreamModel],
				getApiKey: () => "local-key",
				limitRanges: { idleTimeoutMs: { min: 100, max: 300 } },
				prepareOptions: (options) => ({ ...options, maxRetries: 0 }),
			} satisfies ProxyServerOptions<IncomingMessage>),
		);
		const stream = streamProxy(
			upstreamModel,
			{ messages: [{ role: "user", content: "hi", timestamp: 1 }] },
			{ proxyUrl: proxy.url, authToken: "t", idleTimeoutMs: 2 ** 31, proxyIdleTimeoutMs: 0, proxyWaitTimeoutMs: 0 },
		);
		const message = await stream.result();
		expect(message.stopReason).toBe("error");
		// The server's error, with the server's limit: not the page's 2^31 ms (and not an overflowed timer).
		expect(message.errorMessage).toBe(
			"No data received from the provider for 300 ms; the stream was stopped (idleTimeoutMs)",
		);
	});
});

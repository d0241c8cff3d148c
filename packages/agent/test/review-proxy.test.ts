// Review findings on the proxy's header policy: billing-scope headers and the server model's own headers.
import {
	type Api,
	type AssistantMessageEventStream,
	type Context,
	createAssistantMessageEventStream,
	createEmptyAssistantMessage,
	type Model,
	type SimpleStreamOptions,
} from "@keel/ai";
import { describe, expect, it } from "vitest";
import { streamProxy } from "../src/proxy/client.js";
import { isForwardableHeader, pickForwardedOptions } from "../src/proxy/protocol.js";
import { createFetchProxyHandler } from "../src/proxy/server.js";

const serverModel: Model<Api> = {
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

describe("review: proxy header policy", () => {
	// OpenAI lists these under authentication: they pick which organization or project the server's
	// key bills. Google's x-goog-user-project picks the billed quota project the same way.
	it.each(["OpenAI-Organization", "openai-project", "x-goog-user-project"])(
		"refuses the billing-scope header %s",
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
			models: [serverModel],
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

describe("review: proxy client abort", () => {
	it("settles result() as aborted when the caller aborts while an authToken function is still pending", async () => {
		const controller = new AbortController();
		let fetched = false;
		const stream = streamProxy(
			serverModel,
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

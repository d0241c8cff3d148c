// Wire compatibility with pi's proxy protocol, in both directions: Keel's client reads a server that
// speaks pi's event shapes (usage on done/error, contentSignature on end events, toolcall_end without
// the tool call), and Keel's server serves pi's request shape (the full model object) while sending
// events a pi client can read.
import type { ServerResponse } from "node:http";
import { type Api, type Model, streamSimple } from "@keel/ai";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxText,
	fauxThinking,
	registerFauxProvider,
} from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { streamProxy } from "../src/client.js";
import { createFetchProxyHandler } from "../src/fetch-handler.js";
import { type RunningServer, startServer } from "./proxy-test-server.js";

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

const usage = {
	input: 10,
	output: 20,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 30,
	cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0, total: 0.3 },
};

/** A server speaking pi's events: no `message` summary, signatures as `contentSignature`. */
function piServer(events: object[]) {
	return (_request: unknown, response: ServerResponse) => {
		response.writeHead(200, { "Content-Type": "text/event-stream" });
		for (const event of events) response.write(`data: ${JSON.stringify(event)}\n\n`);
		response.end();
	};
}

describe("streamProxy against a server speaking pi's event shapes", () => {
	it("reads usage from done.usage, signatures from contentSignature, and the tool call from its deltas", async () => {
		server = await startServer(
			piServer([
				{ type: "start" },
				{ type: "thinking_start", contentIndex: 0 },
				{ type: "thinking_delta", contentIndex: 0, delta: "hmm" },
				{ type: "thinking_end", contentIndex: 0, contentSignature: "thinking-sig" },
				{ type: "text_start", contentIndex: 1 },
				{ type: "text_delta", contentIndex: 1, delta: "hi" },
				{ type: "text_end", contentIndex: 1, contentSignature: "text-sig" },
				{ type: "toolcall_start", contentIndex: 2, id: "call_1", toolName: "lookup" },
				{ type: "toolcall_delta", contentIndex: 2, delta: '{"q":"x"}' },
				{ type: "toolcall_end", contentIndex: 2 },
				{ type: "done", reason: "toolUse", usage },
			]),
		);
		const result = await streamProxy(model, { messages: [] }, { proxyUrl: server.url, authToken: "t" }).result();
		expect(result.stopReason).toBe("toolUse");
		expect(result.usage).toEqual(usage);
		expect(result.content).toEqual([
			{ type: "thinking", thinking: "hmm", thinkingSignature: "thinking-sig" },
			{ type: "text", text: "hi", textSignature: "text-sig" },
			{ type: "toolCall", id: "call_1", name: "lookup", arguments: { q: "x" } },
		]);
	});

	it("reads usage from error.usage", async () => {
		server = await startServer(
			piServer([{ type: "start" }, { type: "error", reason: "error", errorMessage: "upstream failed", usage }]),
		);
		const result = await streamProxy(model, { messages: [] }, { proxyUrl: server.url, authToken: "t" }).result();
		expect(result).toMatchObject({ stopReason: "error", errorMessage: "upstream failed", usage });
	});
});

describe("the proxy server with a pi client", () => {
	it("accepts the full model object pi sends, using only its provider and id", async () => {
		faux.setResponses(["from the server's model"]);
		const handler = createFetchProxyHandler({ authenticate: () => true, models: [model] });
		const piModel = { ...model, baseUrl: "https://attacker.example", headers: { "x-evil": "1" }, maxTokens: 1 };
		const response = await handler(
			new Request("http://proxy.test/api/stream", {
				method: "POST",
				headers: { Authorization: "Bearer t", "Content-Type": "application/json" },
				body: JSON.stringify({ model: piModel, context: { messages: [] }, options: { maxTokens: 50 } }),
			}),
		);
		expect(response.status).toBe(200);
		await response.text();
		expect(faux.state.requests[0].model).toBe(model);
	});

	it("sends usage at the top of done and signatures as contentSignature, as a pi client reads them", async () => {
		faux.setResponses([fauxAssistantMessage([fauxThinking("hmm", "thinking-sig"), fauxText("hi")])]);
		const direct = await streamSimple(model, { messages: [] }).result();
		faux.setResponses([fauxAssistantMessage([fauxThinking("hmm", "thinking-sig"), fauxText("hi")])]);
		const handler = createFetchProxyHandler({ authenticate: () => true, models: [model] });
		const response = await handler(
			new Request("http://proxy.test/api/stream", {
				method: "POST",
				headers: { Authorization: "Bearer t" },
				body: JSON.stringify({ model, context: { messages: [] }, options: {} }),
			}),
		);
		const events = (await response.text())
			.split("\n")
			.filter((line) => line.startsWith("data: "))
			.map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
		expect(events.find((event) => event.type === "thinking_end")?.contentSignature).toBe("thinking-sig");
		expect(events.find((event) => event.type === "done")?.usage).toEqual(direct.usage);
	});
});

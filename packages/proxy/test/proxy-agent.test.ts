// The Agent running through streamProxy and the Node proxy handler (no browser): tool calls run on
// the client, the Agent's run options reach the provider, and agent.abort() stops the upstream call.

import { Agent, type AgentTool } from "@keel/agent-core";
import { type Api, type Model, Type } from "@keel/ai";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxText,
	fauxToolCall,
	registerFauxProvider,
} from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { streamProxy } from "../src/client.js";
import { createProxyHandler } from "../src/node-handler.js";
import { createHangingStreamFunction, type RunningServer, startServer } from "./proxy-test-server.js";

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

const multiply: AgentTool = {
	name: "multiply",
	label: "Multiply",
	description: "Multiplies two numbers.",
	parameters: Type.Object({ a: Type.Number(), b: Type.Number() }),
	async execute(_id, params) {
		const { a, b } = params as { a: number; b: number };
		return { content: [{ type: "text", text: String(a * b) }], details: { product: a * b } };
	},
};

function proxiedAgent(proxyUrl: string): Agent {
	return new Agent({
		initialState: { model, tools: [multiply], systemPrompt: "Use tools." },
		sessionId: "session-42",
		streamFn: (streamModel, context, options) =>
			streamProxy(streamModel, context, { ...options, proxyUrl, authToken: "token" }),
	});
}

describe("Agent through the proxy", () => {
	it("runs a tool call on the client and sends its result back through the proxy", async () => {
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("multiply", { a: 6, b: 7 }, "call_mul")]),
			fauxAssistantMessage([fauxText("6 × 7 = 42")]),
		]);
		server = await startServer(createProxyHandler({ authenticate: (token) => token === "token", models: [model] }));
		const agent = proxiedAgent(server.url);
		await agent.prompt("What is 6 × 7?");

		expect(agent.state.messages.map((message) => ("role" in message ? message.role : "custom"))).toEqual([
			"user",
			"assistant",
			"toolResult",
			"assistant",
		]);
		expect(agent.state.messages[2]).toMatchObject({ toolCallId: "call_mul", content: [{ type: "text", text: "42" }] });
		expect(agent.state.messages[3]).toMatchObject({
			content: [{ type: "text", text: "6 × 7 = 42" }],
			stopReason: "stop",
		});
		// The second call carried the tool result, and the Agent's sessionId reached the provider.
		expect(faux.state.requests[1].context.messages.at(-1)).toMatchObject({
			role: "toolResult",
			toolCallId: "call_mul",
		});
		expect(faux.state.requests[1].options?.sessionId).toBe("session-42");
		expect(agent.state.isStreaming).toBe(false);
	});

	it("agent.abort() ends the run as aborted and aborts the upstream call", async () => {
		const hanging = createHangingStreamFunction();
		server = await startServer(
			createProxyHandler({ authenticate: () => true, models: [model], streamFunction: hanging.streamFunction }),
		);
		const agent = proxiedAgent(server.url);
		agent.subscribe((event) => {
			if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") agent.abort();
		});
		await agent.prompt("Say hello");
		await hanging.upstreamAborted;
		const last = agent.state.messages.at(-1);
		expect(last).toMatchObject({
			role: "assistant",
			stopReason: "aborted",
			content: [{ type: "text", text: "Hello" }],
		});
		expect(agent.state.isStreaming).toBe(false);
	});

	it("shows a proxy refusal as the Agent's error message", async () => {
		server = await startServer(createProxyHandler({ authenticate: () => false, models: [model] }));
		const agent = proxiedAgent(server.url);
		await agent.prompt("Hi");
		expect(agent.state.errorMessage).toMatch(/^Proxy error: Invalid token \(the proxy at 127\.0\.0\.1:\d+\)$/);
		expect(faux.state.callCount).toBe(0);
	});
});

import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { Agent, type AgentTool } from "@keel/agent-core";
import { type AssistantMessageEvent, type Context, Type } from "@keel/ai";
import { WireTestServer } from "@keel/ai/testing";
import { aiSdkModelInfo, fromAiSdkModel } from "@keel/ai-sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { textAnswer, toolCallAnswer } from "./chat-completions-sse.js";

let server: WireTestServer;
beforeAll(async () => {
	server = await WireTestServer.start();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** A real AI SDK provider package, pointed at the local wire-test server. */
function chatModel() {
	const provider = createOpenAICompatible({
		name: "local",
		baseURL: `${server.url}/v1`,
		apiKey: "sk-local-secret",
		includeUsage: true,
	});
	return provider.chatModel("wire-model");
}

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

async function collect(events: AsyncIterable<AssistantMessageEvent>): Promise<AssistantMessageEvent[]> {
	const seen: AssistantMessageEvent[] = [];
	for await (const event of events) seen.push(event);
	return seen;
}

const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "Hi", timestamp: 1 }] };

describe("an AI SDK model as a Keel stream function", () => {
	it("drives a Keel Agent with a tool: the call, its result sent back, the answer, usage and cost", async () => {
		server.enqueue(toolCallAnswer("call_mul", "multiply", { a: 6, b: 7 }), textAnswer(["6 × 7 ", "= 42"]));
		const languageModel = chatModel();
		const agent = new Agent({
			initialState: {
				model: aiSdkModelInfo(languageModel, { cost: { input: 1_000_000, output: 2_000_000 } }),
				tools: [multiply],
				systemPrompt: "Use tools.",
			},
			streamFn: fromAiSdkModel(languageModel),
		});
		await agent.prompt("What is 6 × 7?");
		const roles = agent.state.messages.map((message) => ("role" in message ? message.role : "custom"));
		expect(roles).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(agent.state.messages[1]).toMatchObject({
			stopReason: "toolUse",
			content: [{ type: "toolCall", id: "call_mul", name: "multiply", arguments: { a: 6, b: 7 } }],
		});
		expect(agent.state.messages[2]).toMatchObject({ toolCallId: "call_mul", content: [{ type: "text", text: "42" }] });
		const answer = agent.state.messages[3];
		expect(answer).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "6 × 7 = 42" }] });
		// 10 prompt tokens at $1 each, 5 output tokens at $2 each (the prices given per million).
		expect(answer).toMatchObject({ usage: { input: 10, output: 5, cost: { input: 10, output: 10, total: 20 } } });
		// The wire requests: the tool in JSON Schema, then the call and its result sent back.
		const first = server.requests[0].json as { tools: { function: { name: string; parameters: unknown } }[] };
		expect(first.tools[0].function).toMatchObject({
			name: "multiply",
			parameters: { type: "object", required: ["a", "b"] },
		});
		const second = server.requests[1].json as {
			messages: { role: string; content?: unknown; tool_call_id?: string }[];
		};
		expect(second.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
		expect(second.messages[3]).toMatchObject({ tool_call_id: "call_mul", content: "42" });
	});

	it("streams Keel's events in order, with exactly one done", async () => {
		server.enqueue(textAnswer(["Hel", "lo"]));
		const languageModel = chatModel();
		const events = await collect(fromAiSdkModel(languageModel)(aiSdkModelInfo(languageModel), context));
		expect(events.map((event) => event.type)).toEqual([
			"start",
			"text_start",
			"text_delta",
			"text_delta",
			"text_end",
			"done",
		]);
		const done = events.at(-1) as Extract<AssistantMessageEvent, { type: "done" }>;
		expect(done.message.content).toEqual([{ type: "text", text: "Hello" }]);
		expect(done.message.responseId).toBe("chatcmpl-test");
	});

	it("an HTTP error ends the stream with one error event carrying the server's message, no throw, no key", async () => {
		server.enqueue({ status: 400, body: { error: { message: "bad request: messages is empty" } } });
		const languageModel = chatModel();
		const events = await collect(fromAiSdkModel(languageModel)(aiSdkModelInfo(languageModel), context));
		expect(events.map((event) => event.type)).toEqual(["start", "error"]);
		const error = events[1] as Extract<AssistantMessageEvent, { type: "error" }>;
		expect(error.error.stopReason).toBe("error");
		expect(error.error.errorMessage).toContain("bad request: messages is empty");
		expect(JSON.stringify(events)).not.toContain("sk-local-secret");
		expect(server.requests).toHaveLength(1); // a 400 is not retried
	});

	it("retries a retryable failure before any content, as Keel providers do", async () => {
		server.enqueue(
			{ status: 503, headers: { "retry-after-ms": "1" }, body: { error: { message: "overloaded" } } },
			textAnswer(["after retry"]),
		);
		const languageModel = chatModel();
		const stream = fromAiSdkModel(languageModel)(aiSdkModelInfo(languageModel), context);
		const message = await stream.result();
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "after retry" }]);
		expect(server.requests).toHaveLength(2);
	});

	it("an abort ends the stream with one aborted error", async () => {
		server.enqueue({ stallBeforeHeaders: true });
		const languageModel = chatModel();
		const controller = new AbortController();
		const stream = fromAiSdkModel(languageModel)(aiSdkModelInfo(languageModel), context, {
			signal: controller.signal,
		});
		const seen = collect(stream);
		await new Promise<void>((resolve) => {
			const check = () => (server.requests.length > 0 ? resolve() : setImmediate(check));
			check();
		});
		controller.abort();
		const events = await seen;
		expect(events.filter((event) => event.type === "error" || event.type === "done")).toHaveLength(1);
		expect(events.at(-1)).toMatchObject({ type: "error", reason: "aborted" });
	});
});

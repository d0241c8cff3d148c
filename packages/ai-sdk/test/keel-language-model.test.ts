import {
	type AssistantMessage,
	createFallbackStream,
	defineModel,
	type ToolResultMessage,
	type UserMessage,
} from "@keel/ai";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxText,
	fauxThinking,
	fauxToolCall,
	registerFauxProvider,
	WireTestServer,
} from "@keel/ai/testing";
import { keelLanguageModel } from "@keel/ai-sdk";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { textAnswer, toolCallAnswer } from "./chat-completions-sse.js";

let faux: FauxProviderRegistration;

beforeEach(() => {
	faux = registerFauxProvider({
		models: [
			{ id: "faux-a", cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } },
			{ id: "faux-b", cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } },
		],
	});
});
afterEach(() => faux.unregister());

const weatherTool = (calls: unknown[]) =>
	tool({
		description: "The weather in a city",
		inputSchema: jsonSchema<{ city: string }>({
			type: "object",
			properties: { city: { type: "string" } },
			required: ["city"],
		}),
		execute: async (input) => {
			calls.push(input);
			return `Sunny in ${input.city}`;
		},
	});

describe("a Keel model under the AI SDK's generateText and streamText", () => {
	it("generateText returns the text, usage, finish reason and Keel's cost in providerMetadata", async () => {
		faux.setResponses(["Hello from Keel"]);
		const result = await generateText({ model: keelLanguageModel(faux.getModel("faux-a")), prompt: "Hi" });
		expect(result.text).toBe("Hello from Keel");
		expect(result.finishReason).toBe("stop");
		expect(result.usage.inputTokens).toBeGreaterThan(0);
		expect(result.usage.outputTokens).toBeGreaterThan(0);
		const keel = result.providerMetadata?.keel as { cost: { total: number }; model: string };
		expect(keel.model).toBe("faux-a");
		expect(keel.cost.total).toBeGreaterThan(0);
	});

	it("maps the prompt: system prompt, user text and image, temperature and maxOutputTokens", async () => {
		faux.setResponses(["ok"]);
		await generateText({
			model: keelLanguageModel(faux.getModel()),
			system: "Be brief.",
			messages: [
				{
					role: "user",
					content: [
						{ type: "text", text: "What is this?" },
						{ type: "image", image: new Uint8Array([137, 80, 78, 71]), mediaType: "image/png" },
					],
				},
			],
			temperature: 0.3,
			maxOutputTokens: 99,
		});
		const request = faux.state.requests[0];
		expect(request.context.systemPrompt).toBe("Be brief.");
		const user = request.context.messages[0] as UserMessage;
		expect(user.content).toEqual([
			{ type: "text", text: "What is this?" },
			{ type: "image", data: "iVBORw==", mimeType: "image/png" },
		]);
		expect(request.options?.temperature).toBe(0.3);
		expect(request.options?.maxTokens).toBe(99);
	});

	it("streamText runs a tool loop: the tool runs with the model's arguments and its result goes back to the model", async () => {
		faux.setResponses([
			fauxAssistantMessage([
				fauxThinking("Need the weather", "sig-1"),
				fauxToolCall("weather", { city: "Oslo" }, "call-1"),
			]),
			"It is sunny in Oslo.",
		]);
		const calls: unknown[] = [];
		const result = streamText({
			model: keelLanguageModel(faux.getModel()),
			prompt: "Weather in Oslo?",
			tools: { weather: weatherTool(calls) },
			stopWhen: stepCountIs(3),
		});
		const types = new Set<string>();
		for await (const part of result.fullStream) types.add(part.type);
		expect(await result.text).toBe("It is sunny in Oslo.");
		expect(calls).toEqual([{ city: "Oslo" }]);
		for (const type of [
			"reasoning-start",
			"reasoning-delta",
			"tool-input-start",
			"tool-call",
			"tool-result",
			"text-delta",
			"finish",
		]) {
			expect(types).toContain(type);
		}
		expect(faux.state.requests[0].context.tools?.map((t) => t.name)).toEqual(["weather"]);
		// The second call carries the assistant turn (reasoning with its signature, the call) and the result.
		const second = faux.state.requests[1].context.messages;
		const assistant = second[1] as AssistantMessage;
		expect(assistant.content).toEqual([
			{ type: "thinking", thinking: "Need the weather", thinkingSignature: "sig-1" },
			{ type: "toolCall", id: "call-1", name: "weather", arguments: { city: "Oslo" } },
		]);
		const toolResult = second[2] as ToolResultMessage;
		expect(toolResult).toMatchObject({ role: "toolResult", toolCallId: "call-1", toolName: "weather", isError: false });
		expect(JSON.stringify(toolResult.content)).toContain("Sunny in Oslo");
		expect((await result.steps).length).toBe(2);
	});

	it("toolChoice none sends no tools, and a forced tool sends only that tool", async () => {
		faux.setResponses(["no tools", fauxAssistantMessage(fauxToolCall("time", {}, "call-t"))]);
		const model = keelLanguageModel(faux.getModel());
		const tools = {
			weather: weatherTool([]),
			time: tool({ description: "The time", inputSchema: jsonSchema({ type: "object", properties: {} }) }),
		};
		await generateText({ model, prompt: "x", tools, toolChoice: "none" });
		await generateText({ model, prompt: "x", tools, toolChoice: { type: "tool", toolName: "time" } });
		expect(faux.state.requests[0].context.tools).toBeUndefined();
		expect(faux.state.requests[1].context.tools?.map((t) => t.name)).toEqual(["time"]);
	});

	it("a Keel error reaches streamText as an error part and generateText as a rejection with Keel's message", async () => {
		faux.setResponses([
			fauxAssistantMessage([fauxText("partial")], { stopReason: "error", errorMessage: "upstream broke" }),
			fauxAssistantMessage([], { stopReason: "error", errorMessage: "upstream broke again" }),
		]);
		const errors: unknown[] = [];
		const streamed = streamText({
			model: keelLanguageModel(faux.getModel()),
			prompt: "x",
			onError: ({ error }) => {
				errors.push(error);
			},
		});
		let text = "";
		for await (const part of streamed.fullStream) if (part.type === "text-delta") text += part.text;
		expect(text).toBe("partial");
		expect(String(errors[0])).toContain("upstream broke");
		await expect(
			generateText({ model: keelLanguageModel(faux.getModel()), prompt: "x", maxRetries: 0 }),
		).rejects.toThrow("upstream broke again");
	});

	it("runs on a Keel fallback chain: the second model answers when the first fails", async () => {
		faux.setResponses([fauxAssistantMessage([], { stopReason: "error", errorMessage: "503 overloaded" }), "from b"]);
		const fallback = createFallbackStream([faux.getModel("faux-a"), faux.getModel("faux-b")]);
		const result = await generateText({
			model: keelLanguageModel(faux.getModel("faux-a"), { streamFn: fallback, options: { maxRetries: 0 } }),
			prompt: "x",
		});
		expect(result.text).toBe("from b");
		expect(result.providerMetadata?.keel).toMatchObject({ model: "faux-b" });
		expect(faux.state.requests.map((request) => request.model.id)).toEqual(["faux-a", "faux-b"]);
	});

	it("providerOptions.keel reaches the Keel call (a reasoning level)", async () => {
		faux.setResponses(["ok"]);
		await generateText({
			model: keelLanguageModel(faux.getModel()),
			prompt: "x",
			providerOptions: { keel: { reasoning: "high" } },
		});
		expect((faux.state.requests[0].options as { reasoning?: string }).reasoning).toBe("high");
	});
});

describe("a Keel model on a real wire format (Chat Completions on a local server)", () => {
	let server: WireTestServer;
	beforeAll(async () => {
		server = await WireTestServer.start();
	});
	afterAll(() => server.close());

	it("streamText with a tool loop over Keel's openai-completions provider", async () => {
		server.enqueue(toolCallAnswer("call_1", "weather", { city: "Lima" }), textAnswer(["Sunny ", "in Lima."]));
		const model = defineModel({ id: "wire-model", baseUrl: `${server.url}/v1` });
		const calls: unknown[] = [];
		const result = streamText({
			model: keelLanguageModel(model, { options: { apiKey: "test-key" } }),
			prompt: "Weather in Lima?",
			tools: { weather: weatherTool(calls) },
			stopWhen: stepCountIs(3),
		});
		expect(await result.text).toBe("Sunny in Lima.");
		expect(calls).toEqual([{ city: "Lima" }]);
		const second = server.requests[1].json as { messages: { role: string; tool_call_id?: string }[] };
		expect(second.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
		expect(second.messages[2].tool_call_id).toBe("call_1");
		const usage = await result.totalUsage;
		expect(usage.inputTokens).toBe(30);
		expect(usage.outputTokens).toBe(13);
	});

	it("a required tool choice becomes Chat Completions' tool_choice: required", async () => {
		server.enqueue(toolCallAnswer("call_2", "weather", { city: "Rome" }));
		const model = defineModel({ id: "wire-model", baseUrl: `${server.url}/v1` });
		await generateText({
			model: keelLanguageModel(model, { options: { apiKey: "test-key" } }),
			prompt: "x",
			tools: { weather: weatherTool([]) },
			toolChoice: "required",
			stopWhen: stepCountIs(1),
		});
		expect(server.lastRequest?.json).toMatchObject({ tool_choice: "required" });
	});
});

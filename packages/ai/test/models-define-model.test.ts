import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
	AssistantMessageBuilder,
	complete,
	createAssistantMessageEventStream,
	DEFAULT_CONTEXT_WINDOW,
	DEFAULT_MAX_TOKENS,
	defineModel,
	findEnvKeys,
	LOCAL_SERVER_URLS,
	type Model,
	registerApiProvider,
	stream,
	unregisterApiProviders,
} from "../src/index.js";
import { formatSse, WireTestServer } from "../src/testing/index.js";

describe("defineModel defaults", () => {
	it("needs only an id and a base URL; api, provider, costs and limits get local-server defaults", () => {
		const model = defineModel({ id: "qwen3:8b", baseUrl: LOCAL_SERVER_URLS.ollama });
		expect(model).toEqual({
			id: "qwen3:8b",
			name: "qwen3:8b",
			api: "openai-completions",
			provider: "custom",
			baseUrl: "http://127.0.0.1:11434/v1",
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: DEFAULT_CONTEXT_WINDOW,
			maxTokens: DEFAULT_MAX_TOKENS,
			compat: {
				supportsStore: false,
				supportsDeveloperRole: false,
				supportsReasoningEffort: false,
				supportsStrictMode: false,
				maxTokensField: "max_tokens",
			},
		});
	});

	it("the default provider has no environment key, so no key is demanded", () => {
		expect(findEnvKeys(defineModel({ id: "m", baseUrl: LOCAL_SERVER_URLS.vllm }).provider)).toEqual([]);
	});

	it("lets every default be overridden; compat merges over the local defaults", () => {
		const model = defineModel({
			id: "gpt-oss-20b",
			baseUrl: "https://inference.example.com/v1/",
			provider: "my-gateway",
			name: "GPT-OSS 20B on my gateway",
			reasoning: true,
			input: ["text", "image"],
			cost: { input: 0.1, output: 0.5 },
			contextWindow: 131_072,
			maxTokens: 32_768,
			headers: { "x-team": "keel" },
			compat: { maxTokensField: "max_completion_tokens" },
			thinkingLevelMap: { off: null },
		});
		expect(model.baseUrl).toBe("https://inference.example.com/v1");
		expect(model.cost).toEqual({ input: 0.1, output: 0.5, cacheRead: 0, cacheWrite: 0 });
		expect(model.compat).toMatchObject({ maxTokensField: "max_completion_tokens", supportsReasoningEffort: true });
		expect(model.headers).toEqual({ "x-team": "keel" });
		expect(model.thinkingLevelMap).toEqual({ off: null });
	});

	it("keeps maxTokens within a small context window", () => {
		expect(defineModel({ id: "tiny", baseUrl: LOCAL_SERVER_URLS.llamaCpp, contextWindow: 4096 }).maxTokens).toBe(4096);
	});

	it("a custom api gets no openai-completions compat", () => {
		const model = defineModel({ id: "m", baseUrl: LOCAL_SERVER_URLS.lmStudio, api: "my-wire-api" });
		expect(model.api).toBe("my-wire-api");
		expect(model.compat).toBeUndefined();
	});
});

describe("defineModel validation", () => {
	const base = { id: "m", baseUrl: LOCAL_SERVER_URLS.ollama };

	it.each([
		[
			{ baseUrl: LOCAL_SERVER_URLS.ollama },
			'defineModel: id is required: the model name the server expects, e.g. "qwen3:8b".',
		],
		[{ id: "  ", baseUrl: LOCAL_SERVER_URLS.ollama }, "defineModel: id is required"],
		[{ id: "m" }, 'defineModel "m": baseUrl is required, e.g. "http://127.0.0.1:11434/v1" for Ollama.'],
		[{ id: "m", baseUrl: "localhost:11434" }, 'defineModel "m": baseUrl must use http or https, got "localhost:".'],
		[{ id: "m", baseUrl: "not a url" }, 'defineModel "m": baseUrl "not a url" is not a URL'],
		[
			{ ...base, contextWindow: -1 },
			'defineModel "m": contextWindow must be a positive whole number of tokens, got -1.',
		],
		[{ ...base, maxTokens: 1.5 }, 'defineModel "m": maxTokens must be a positive whole number of tokens, got 1.5.'],
		[{ ...base, contextWindow: 1000, maxTokens: 2000 }, "maxTokens (2000) is larger than contextWindow (1000)."],
		[{ ...base, cost: { input: -0.5 } }, 'defineModel "m": cost.input must be a number ≥ 0'],
		[{ ...base, input: ["video"] }, 'input may hold "text", "image", "pdf", "audio", got "video".'],
	])("rejects %j", (definition, message) => {
		expect(() => defineModel(definition as Parameters<typeof defineModel>[0])).toThrow(message);
	});
});

describe("a defined model streams through the registry", () => {
	afterEach(() => unregisterApiProviders("models-define-model.test"));

	it("with a custom api registered through registerApiProvider", async () => {
		const seen: Model[] = [];
		registerApiProvider(
			{
				api: "tiny-echo",
				stream: (model, context) => {
					seen.push(model);
					const events = createAssistantMessageEventStream();
					const builder = new AssistantMessageBuilder(model, (event) => events.push(event));
					queueMicrotask(() => {
						const index = builder.startText();
						const last = context.messages.at(-1);
						builder.appendText(index, `echo: ${typeof last?.content === "string" ? last.content : ""}`);
						builder.finish("stop");
						events.end();
					});
					return events;
				},
				streamSimple: () => {
					throw new Error("not used");
				},
			},
			"models-define-model.test",
		);
		const model = defineModel({ id: "echo-1", baseUrl: "http://127.0.0.1:9/v1", api: "tiny-echo" });
		const types: string[] = [];
		const events = stream(model, { messages: [{ role: "user", content: "hello", timestamp: 0 }] });
		for await (const event of events) types.push(event.type);
		const message = await events.result();
		expect(types).toEqual(["start", "text_start", "text_delta", "text_end", "done"]);
		expect(message.content).toEqual([{ type: "text", text: "echo: hello" }]);
		expect(message).toMatchObject({ api: "tiny-echo", provider: "custom", model: "echo-1", stopReason: "stop" });
		expect(seen[0]).toBe(model);
	});

	describe("with the built-in openai-completions provider and no key", () => {
		let server: WireTestServer;
		beforeAll(async () => {
			server = await WireTestServer.start();
		});
		afterAll(async () => {
			await server.close();
		});

		it("completes against a local OpenAI-compatible server in three lines", async () => {
			const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
				id: "chatcmpl-1",
				object: "chat.completion.chunk",
				created: 1,
				model: "qwen3:8b",
				choices: [{ index: 0, delta, finish_reason: finish }],
			});
			server.enqueue({
				body: formatSse([
					{ data: chunk({ role: "assistant", content: "Hi there" }) },
					{ data: chunk({}, "stop") },
					{ data: "[DONE]" },
				]),
			});

			const model = defineModel({ id: "qwen3:8b", baseUrl: `${server.url}/v1` });
			const reply = await complete(model, { messages: [{ role: "user", content: "Hi", timestamp: 0 }] });

			expect(reply.errorMessage).toBeUndefined();
			expect(reply.content).toEqual([{ type: "text", text: "Hi there" }]);
			expect(server.lastRequest?.url).toBe("/v1/chat/completions");
			expect(server.lastRequest?.json).toMatchObject({ model: "qwen3:8b" });
			expect(server.lastRequest?.json).not.toHaveProperty("store");
		});
	});
});

// pi-ai 1.5's documented examples (its README's faux-provider, custom-provider and dynamic-model
// sections), rewritten as tests against Keel with the imports renamed: `@earendil-works/pi-ai` →
// `@keel/ai`, the faux helpers from `@keel/ai/testing`. Each case keeps the example's calls and
// asserts what the example prints or relies on.
import { describe, expect, it } from "vitest";
import {
	builtinApiStreams,
	type Context,
	createModels,
	createProvider,
	envApiKeyAuth,
	hasApi,
	InMemoryCredentialStore,
	InMemoryModelsStore,
	type Model,
} from "../../src/index.js";
import { fauxAssistantMessage, fauxProvider, fauxText, fauxThinking, fauxToolCall } from "../../src/testing/index.js";
import { useWireTestServer } from "../helpers/wire-server.js";
import { textStream } from "../providers/openai-completions/fixtures.js";

const wire = useWireTestServer();

describe("pi-ai README: faux provider for tests", () => {
	it("scripts a thinking + tool call turn, then a summary turn, through a Models collection", async () => {
		const faux = fauxProvider({ tokensPerSecond: 5000 });
		const models = createModels();
		models.setProvider(faux.provider);
		const model = faux.getModel();
		const context: Context = {
			messages: [{ role: "user", content: "Summarize package.json and then call echo", timestamp: Date.now() }],
		};
		faux.setResponses([
			fauxAssistantMessage(
				[fauxThinking("Need to inspect package metadata first."), fauxToolCall("echo", { text: "package.json" })],
				{
					stopReason: "toolUse",
				},
			),
		]);
		const first = await models.complete(model, context, { sessionId: "session-1", cacheRetention: "short" });
		context.messages.push(first);
		const toolCall = first.content.find((block) => block.type === "toolCall");
		expect(toolCall).toMatchObject({ name: "echo", arguments: { text: "package.json" } });
		context.messages.push({
			role: "toolResult",
			toolCallId: toolCall?.type === "toolCall" ? toolCall.id : "",
			toolName: "echo",
			content: [{ type: "text", text: "package.json contents here" }],
			isError: false,
			timestamp: Date.now(),
		});
		faux.setResponses([
			fauxAssistantMessage([fauxThinking("Now I can summarize the tool output."), fauxText("Here is the summary.")]),
		]);
		const types: string[] = [];
		for await (const event of models.stream(model, context)) types.push(event.type);
		expect(types[0]).toBe("start");
		expect(types).toContain("thinking_delta");
		expect(types).toContain("text_delta");
		expect(types.at(-1)).toBe("done");
		expect(faux.getPendingResponseCount()).toBe(0);
		expect(faux.state.callCount).toBe(2);
	});

	it("offers several faux models for model-switching tests", () => {
		const multiModel = fauxProvider({
			provider: "faux-multi",
			models: [
				{ id: "faux-fast", reasoning: false },
				{ id: "faux-thinker", reasoning: true },
			],
		});
		const models = createModels();
		models.setProvider(multiModel.provider);
		expect(multiModel.getModel("faux-thinker")?.reasoning).toBe(true);
		expect(models.getModels("faux-multi").map((model) => model.id)).toEqual(["faux-fast", "faux-thinker"]);
	});

	it("an empty queue answers with the documented error message", async () => {
		const faux = fauxProvider();
		const models = createModels();
		models.setProvider(faux.provider);
		const result = await models.complete(faux.getModel(), { messages: [] });
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain("No more faux responses queued");
	});
});

describe("pi-ai README: custom providers", () => {
	const ollamaModel = (baseUrl: string): Model<"openai-completions"> => ({
		id: "llama-3.1-8b",
		name: "Llama 3.1 8B (Ollama)",
		api: "openai-completions",
		provider: "ollama",
		baseUrl,
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 128000,
		maxTokens: 32000,
	});
	const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };

	it("a keyless local server, registered with createProvider and completed through the collection", async () => {
		const ollama = createProvider({
			id: "ollama",
			name: "Ollama",
			baseUrl: wire.server.url,
			auth: { apiKey: { name: "Ollama", resolve: async () => ({ auth: {} }) } },
			models: [ollamaModel(wire.server.url)],
			api: builtinApiStreams,
		});
		const models = createModels();
		models.setProvider(ollama);
		wire.server.enqueue({ body: textStream("hello from llama") });
		const model = models.getModel("ollama", "llama-3.1-8b");
		const result = await models.complete(model as Model, context);
		expect(result.content).toEqual([{ type: "text", text: "hello from llama" }]);
		expect(wire.server.lastRequest?.json).toMatchObject({ model: "llama-3.1-8b" });
	});

	it("envApiKeyAuth: a stored credential wins, then the first set env var", async () => {
		const proxy = createProvider({
			id: "my-proxy",
			auth: { apiKey: envApiKeyAuth("My proxy API key", ["MY_PROXY_API_KEY"]) },
			models: [{ ...ollamaModel(wire.server.url), provider: "my-proxy" }],
			api: builtinApiStreams,
		});
		const credentials = new InMemoryCredentialStore();
		const models = createModels({
			credentials,
			authContext: { env: async (name) => (name === "MY_PROXY_API_KEY" ? "env-key" : undefined) },
		});
		models.setProvider(proxy);
		expect((await models.getAuth("my-proxy"))?.auth.apiKey).toBe("env-key");
		await credentials.modify("my-proxy", async () => ({ type: "api_key", key: "stored-key" }));
		expect((await models.getAuth("my-proxy"))?.auth.apiKey).toBe("stored-key");
	});

	it("hasApi narrows a looked-up model before using API-specific options", () => {
		const models = createModels();
		models.setProvider(
			createProvider({
				id: "ollama",
				auth: { apiKey: { name: "Ollama", resolve: async () => ({ auth: {} }) } },
				models: [ollamaModel("http://127.0.0.1:11434/v1")],
				api: builtinApiStreams,
			}),
		);
		const model = models.getModel("ollama", "llama-3.1-8b");
		expect(model && hasApi(model, "openai-completions")).toBe(true);
		expect(model && hasApi(model, "anthropic-messages")).toBe(false);
	});

	it("dynamic model lists: fetchModels, refresh, per-provider errors, and an offline restore", async () => {
		const modelsStore = new InMemoryModelsStore();
		const credentials = new InMemoryCredentialStore();
		const llamacpp = () =>
			createProvider({
				id: "llamacpp",
				auth: { apiKey: { name: "llama.cpp", resolve: async () => ({ auth: {} }) } },
				models: [],
				fetchModels: async () => [{ ...ollamaModel("http://127.0.0.1:8080/v1"), provider: "llamacpp", id: "served" }],
				api: builtinApiStreams,
			});
		const models = createModels({ credentials, modelsStore });
		models.setProvider(llamacpp());
		const result = await models.refresh({ signal: new AbortController().signal });
		expect(result.aborted).toBe(false);
		expect([...result.errors]).toEqual([]);
		expect(models.getModels("llamacpp").map((model) => model.id)).toEqual(["served"]);
		const restored = createModels({ credentials, modelsStore });
		restored.setProvider(llamacpp());
		await restored.refresh({ allowNetwork: false });
		expect(restored.getModel("llamacpp", "served")).toBeDefined();
	});
});

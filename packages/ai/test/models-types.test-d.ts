// Type-level behaviour of the catalogue: getModel infers the api, unknown providers and ids do not compile.
import { describe, expectTypeOf, it } from "vitest";
import {
	type CatalogueModelId,
	type CatalogueProvider,
	defineModel,
	getModel,
	getModels,
	getProviders,
	type KnownProvider,
	type Model,
} from "../src/index.js";

describe("getModel", () => {
	it("infers the api type from the provider and id", () => {
		expectTypeOf(getModel("anthropic", "claude-sonnet-4-5")).toEqualTypeOf<Model<"anthropic-messages">>();
		expectTypeOf(getModel("openai", "gpt-5.1")).toEqualTypeOf<Model<"openai-responses">>();
		expectTypeOf(getModel("groq", "qwen/qwen3-32b")).toEqualTypeOf<Model<"openai-completions">>();
		expectTypeOf(getModel("google", "gemini-3-pro-preview")).toEqualTypeOf<Model<"google-generative-ai">>();
		expectTypeOf(getModel("mistral", "mistral-large-latest")).toEqualTypeOf<Model<"mistral-conversations">>();
		expectTypeOf(getModel("openai-codex", "gpt-5.2")).toEqualTypeOf<Model<"openai-codex-responses">>();
	});

	it("knows the ids programs written for pi use, and the providers added from the toolkit lists", () => {
		expectTypeOf(getModel("openai-codex", "gpt-5.4")).toEqualTypeOf<Model<"openai-codex-responses">>();
		expectTypeOf(getModel("openrouter", "anthropic/claude-opus-4.6")).toEqualTypeOf<Model<"openai-completions">>();
		expectTypeOf(getModel("anthropic", "claude-opus-5")).toEqualTypeOf<Model<"anthropic-messages">>();
		expectTypeOf(getModel("meta", "muse-spark-1.3")).toEqualTypeOf<Model<"openai-responses">>();
		expectTypeOf(getModels("together")).toEqualTypeOf<Model<"openai-completions">[]>();
	});

	it("infers per model within a provider that serves several apis", () => {
		expectTypeOf(getModel("github-copilot", "claude-sonnet-4.5")).toEqualTypeOf<Model<"anthropic-messages">>();
		expectTypeOf(getModel("github-copilot", "gpt-5")).toEqualTypeOf<Model<"openai-responses">>();
		expectTypeOf(getModel("github-copilot", "gpt-4.1")).toEqualTypeOf<Model<"openai-completions">>();
	});

	it("types compat by api", () => {
		const model = getModel("deepseek", "deepseek-reasoner");
		expectTypeOf(model.compat).toEqualTypeOf<import("../src/index.js").OpenAICompletionsCompat | undefined>();
	});

	it("rejects unknown providers and ids at compile time", () => {
		// @ts-expect-error unknown provider
		getModel("antropic", "claude-sonnet-4-5");
		// @ts-expect-error id of another provider
		getModel("anthropic", "gpt-5.1");
		// @ts-expect-error unknown id
		getModel("openai", "gpt-9000");
		// @ts-expect-error a plain string is not a known id
		getModel("openai", "gpt-5.1" as string);
	});

	it("offers the ids of the chosen provider for autocompletion", () => {
		expectTypeOf<"claude-opus-4-6">().toMatchTypeOf<CatalogueModelId<"anthropic">>();
		expectTypeOf<"gpt-5.2">().not.toMatchTypeOf<CatalogueModelId<"anthropic">>();
	});
});

describe("getModels and getProviders", () => {
	it("getModels returns models of the provider's apis", () => {
		expectTypeOf(getModels("anthropic")).toEqualTypeOf<Model<"anthropic-messages">[]>();
		// @ts-expect-error unknown provider
		getModels("nope");
	});

	it("every catalogue provider is a KnownProvider", () => {
		expectTypeOf<CatalogueProvider>().toMatchTypeOf<KnownProvider>();
		expectTypeOf(getProviders()).toEqualTypeOf<CatalogueProvider[]>();
	});
});

describe("defineModel", () => {
	it("defaults to openai-completions and keeps a custom api", () => {
		expectTypeOf(defineModel({ id: "m", baseUrl: "http://127.0.0.1:11434/v1" })).toEqualTypeOf<
			Model<"openai-completions">
		>();
		expectTypeOf(defineModel({ id: "m", baseUrl: "http://x", api: "anthropic-messages" })).toEqualTypeOf<
			Model<"anthropic-messages">
		>();
	});

	it("types compat by the chosen api", () => {
		defineModel({ id: "m", baseUrl: "http://x", compat: { maxTokensField: "max_tokens" } });
		// @ts-expect-error not an openai-completions compat value
		defineModel({ id: "m", baseUrl: "http://x", compat: { maxTokensField: "tokens" } });
	});
});

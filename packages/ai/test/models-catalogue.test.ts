import { describe, expect, it } from "vitest";
import {
	findModel,
	getModel,
	getModelOrThrow,
	getModels,
	getProviders,
	type KnownProvider,
	type Model,
	modelsAreEqual,
	type OpenAICompletionsCompat,
	type OpenAICompletionsUsageCounting,
} from "../src/index.js";
import { resolveOpenAICompletionsCompat } from "../src/providers/openai-completions/compat.js";

// Every provider pi-ai 0.73 lists (so a pi program finds its provider ids here) must be in the catalogue.
const PI_PROVIDERS: KnownProvider[] = [
	"anthropic",
	"openai",
	"azure-openai-responses",
	"openai-codex",
	"google",
	"google-vertex",
	"amazon-bedrock",
	"mistral",
	"groq",
	"cerebras",
	"xai",
	"openrouter",
	"vercel-ai-gateway",
	"zai",
	"minimax",
	"minimax-cn",
	"huggingface",
	"opencode",
	"opencode-go",
	"kimi-coding",
	"github-copilot",
	"deepseek",
	"fireworks",
	"moonshotai",
	"moonshotai-cn",
	"cloudflare-workers-ai",
	"cloudflare-ai-gateway",
	"xiaomi",
];

function completionsCompat(model: Model): OpenAICompletionsCompat {
	expect(model.api).toBe("openai-completions");
	return (model.compat ?? {}) as OpenAICompletionsCompat;
}

describe("getModel", () => {
	it("returns the catalogue row with its api, prices and limits", () => {
		const model = getModel("anthropic", "claude-sonnet-4-5");
		expect(model).toMatchObject({
			id: "claude-sonnet-4-5",
			provider: "anthropic",
			api: "anthropic-messages",
			baseUrl: "https://api.anthropic.com",
			reasoning: true,
			input: ["text", "image", "pdf"],
			cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
			contextWindow: 200_000,
			maxTokens: 64_000,
		});
	});

	it("returns undefined at runtime for a pair that is not in the catalogue, as pi does", () => {
		// @ts-expect-error an unknown id is a compile error; the cast path still must not throw
		expect(getModel("anthropic", "claude-nonexistent")).toBeUndefined();
		// @ts-expect-error unknown provider
		expect(getModel("no-such-provider", "x")).toBeUndefined();
	});

	it("hands out frozen models, so a caller cannot change the registry", () => {
		const model = getModel("openai", "gpt-5.1");
		expect(() => {
			(model.cost as { input: number }).input = 0;
		}).toThrow(TypeError);
		expect(() => {
			(model.input as string[]).push("audio");
		}).toThrow(TypeError);
		expect(getModel("openai", "gpt-5.1").cost.input).toBe(1.25);
	});

	it("getModels hands out frozen models too", () => {
		const [first] = getModels("deepseek");
		expect(Object.isFrozen(first)).toBe(true);
		expect(Object.isFrozen(first.cost)).toBe(true);
	});

	it("a copy of a catalogue model can be changed freely", () => {
		const copy = structuredClone(getModel("openai", "gpt-5.1"));
		copy.maxTokens = 1000;
		expect(copy.maxTokens).toBe(1000);
		expect(getModel("openai", "gpt-5.1").maxTokens).toBe(128_000);
	});
});

describe("findModel and getModelOrThrow", () => {
	it("does not resolve Object.prototype members as providers or ids", () => {
		expect(findModel("__proto__", "toString")).toBeUndefined();
		expect(findModel("constructor", "name")).toBeUndefined();
		expect(findModel("openai", "hasOwnProperty")).toBeUndefined();
		expect(() => getModelOrThrow("openai", "__proto__")).toThrow('Unknown model "__proto__"');
	});

	it("findModel accepts any strings and returns undefined when unknown", () => {
		expect(findModel("openai", "gpt-5.1")?.api).toBe("openai-responses");
		expect(findModel("openai", "gpt-0")).toBeUndefined();
		expect(findModel("nobody", "gpt-5.1")).toBeUndefined();
	});

	it("getModelOrThrow names the unknown provider and lists the known ones", () => {
		expect(() => getModelOrThrow("antropic", "claude-sonnet-4-5")).toThrow(
			/Unknown provider "antropic"\. Known providers: .*anthropic.*defineModel/,
		);
	});

	it("getModelOrThrow names the unknown id and lists known ids", () => {
		expect(() => getModelOrThrow("deepseek", "deepseek-v9")).toThrow(
			'Unknown model "deepseek-v9" for provider "deepseek". Known ids: deepseek-chat, deepseek-flash, deepseek-reasoner, deepseek-v4-flash, deepseek-v4-pro.',
		);
	});
});

describe("getModels and getProviders", () => {
	it("lists every provider pi-ai 0.73 has", () => {
		const providers = getProviders();
		for (const provider of PI_PROVIDERS) expect(providers, provider).toContain(provider);
	});

	it("lists providers in sorted order", () => {
		const providers = getProviders();
		expect([...providers].sort()).toEqual(providers);
	});

	it("has at least one model for every provider, each with usable fields", () => {
		for (const provider of getProviders()) {
			const models = getModels(provider);
			expect(models.length, provider).toBeGreaterThan(0);
			for (const model of models) {
				expect(model.provider).toBe(provider);
				expect(model.contextWindow, `${provider}/${model.id}`).toBeGreaterThan(0);
				expect(model.maxTokens, `${provider}/${model.id}`).toBeGreaterThan(0);
				expect(model.input).toContain("text");
			}
		}
	});

	it("gives every model a parseable base URL (placeholders aside), or an empty one for Azure", () => {
		for (const provider of getProviders()) {
			for (const model of getModels(provider) as Model[]) {
				if (provider === "azure-openai-responses") continue;
				const url = new URL(model.baseUrl.replace(/\{[A-Za-z_]+\}/g, "placeholder"));
				expect(url.protocol, `${provider}/${model.id}`).toBe("https:");
			}
		}
	});

	it("returns [] for an unknown provider", () => {
		// @ts-expect-error unknown provider
		expect(getModels("no-such-provider")).toEqual([]);
	});

	it.each([
		["anthropic", "claude-opus-4-6"],
		["openai", "gpt-5.2"],
		["google", "gemini-3-pro-preview"],
		["google-vertex", "gemini-3-pro-preview"],
		["xai", "grok-4.3"],
		["openai-codex", "gpt-5.2-codex"],
		["github-copilot", "claude-sonnet-4.5"],
		["openrouter", "anthropic/claude-sonnet-4.5"],
		["vercel-ai-gateway", "anthropic/claude-sonnet-4.5"],
		["amazon-bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0"],
		["zai", "glm-4.6"],
		["moonshotai", "kimi-k2-thinking"],
		["minimax", "MiniMax-M2"],
	] as const)("includes the current flagship %s/%s", (provider, id) => {
		expect(findModel(provider, id)?.id).toBe(id);
	});
});

describe("catalogue rules", () => {
	it("names only APIs Keel can call", async () => {
		// A row on an API Keel does not speak could only end in "not implemented".
		const { resetApiProviders } = await import("../src/index.js");
		resetApiProviders();
		const apis = new Set(getProviders().flatMap((provider) => getModels(provider).map((model) => model.api)));
		const uncallable: string[] = [];
		for (const api of apis) {
			const model = getProviders()
				.flatMap((provider) => getModels(provider))
				.find((row) => row.api === api) as Model<typeof api>;
			// A call with no key ends at once; an unimplemented API ends with "is not implemented".
			const { complete } = await import("../src/index.js");
			const result = await complete(
				model,
				{ messages: [] },
				{ apiKey: "", maxRetries: 0, signal: AbortSignal.abort() },
			);
			if (/not implemented/.test(result.errorMessage ?? "")) uncallable.push(api);
		}
		expect(uncallable).toEqual([]);
		expect([...apis].sort()).toEqual(
			[
				"anthropic-messages",
				"azure-openai-responses",
				"bedrock-converse-stream",
				"google-generative-ai",
				"google-vertex",
				"mistral-conversations",
				"openai-codex-responses",
				"openai-completions",
				"openai-responses",
			].sort(),
		);
	});

	it("lists no Gemini CLI or Antigravity rows: their endpoints take only those products' own OAuth client", () => {
		expect(getProviders()).not.toContain("google-gemini-cli");
		expect(getProviders()).not.toContain("google-antigravity");
		const apis = getProviders().flatMap((provider) => getModels(provider).map((model) => model.api));
		expect(apis).not.toContain("google-gemini-cli");
	});

	it("assigns each provider its wire api", () => {
		const expected: Record<string, string> = {
			anthropic: "anthropic-messages",
			openai: "openai-responses",
			"azure-openai-responses": "azure-openai-responses",
			"openai-codex": "openai-codex-responses",
			google: "google-generative-ai",
			"google-vertex": "google-vertex",
			"amazon-bedrock": "bedrock-converse-stream",
			mistral: "mistral-conversations",
			groq: "openai-completions",
			cerebras: "openai-completions",
			xai: "openai-completions",
			openrouter: "openai-completions",
			"vercel-ai-gateway": "anthropic-messages",
			deepseek: "openai-completions",
			minimax: "anthropic-messages",
			"kimi-coding": "anthropic-messages",
		};
		for (const [provider, api] of Object.entries(expected)) {
			for (const model of findModels(provider)) expect(model.api, `${provider}/${model.id}`).toBe(api);
		}
	});

	it("cerebras, xai, deepseek and zai get no store and no developer role", () => {
		for (const provider of ["cerebras", "xai", "deepseek", "zai"]) {
			for (const model of findModels(provider)) {
				expect(completionsCompat(model), `${provider}/${model.id}`).toMatchObject({
					supportsStore: false,
					supportsDeveloperRole: false,
				});
			}
		}
	});

	it("xai and zai never get reasoning_effort; zai uses the zai thinking format", () => {
		expect(completionsCompat(getModel("xai", "grok-4")).supportsReasoningEffort).toBe(false);
		expect(completionsCompat(getModel("zai", "glm-4.6"))).toMatchObject({
			supportsReasoningEffort: false,
			thinkingFormat: "zai",
		});
	});

	it("deepseek uses its thinking format and replays reasoning_content", () => {
		expect(completionsCompat(getModel("deepseek", "deepseek-reasoner"))).toMatchObject({
			thinkingFormat: "deepseek",
			requiresReasoningContentOnAssistantMessages: true,
		});
	});

	it("every Chat Completions row counts usage as its vendor documents", () => {
		// xAI counts reasoning beside completion_tokens; DeepSeek and Moonshot report cache hits in
		// their own fields; every other vendor in the catalogue counts as OpenAI does.
		const expected: Record<string, Partial<OpenAICompletionsUsageCounting>> = {
			xai: { reasoningInCompletionTokens: false, cachedTokensField: "prompt_tokens_details.cached_tokens" },
			deepseek: { reasoningInCompletionTokens: true, cachedTokensField: "prompt_cache_hit_tokens" },
			moonshotai: { reasoningInCompletionTokens: true, cachedTokensField: "cached_tokens" },
			"moonshotai-cn": { reasoningInCompletionTokens: true, cachedTokensField: "cached_tokens" },
		};
		const openAI = { reasoningInCompletionTokens: true, cachedTokensField: "prompt_tokens_details.cached_tokens" };
		const rows = getProviders().flatMap((provider) =>
			getModels(provider).filter((model) => model.api === "openai-completions"),
		);
		expect(rows.length).toBeGreaterThan(100);
		for (const model of rows) {
			const counting = resolveOpenAICompletionsCompat(model as Model<"openai-completions">).usageCounting;
			expect(counting, `${model.provider}/${model.id}`).toEqual({
				audioInPromptAndCompletionTokens: true,
				...(expected[model.provider] ?? openAI),
			});
		}
		// The rows carry the value themselves, not only the detection from the provider id.
		expect(completionsCompat(getModel("xai", "grok-4")).usageCounting).toEqual({ reasoningInCompletionTokens: false });
	});

	it("openrouter uses the openrouter thinking format", () => {
		expect(completionsCompat(getModel("openrouter", "anthropic/claude-sonnet-4.5")).thinkingFormat).toBe("openrouter");
	});

	it("Groq's Qwen 3 maps every level to its only effort value", () => {
		expect(completionsCompat(getModel("groq", "qwen/qwen3-32b")).reasoningEffortMap).toEqual({
			minimal: "default",
			low: "default",
			medium: "default",
			high: "default",
			xhigh: "default",
		});
	});

	it("Copilot routes Claude 4.x to Messages and GPT-5 to Responses, with editor headers", () => {
		expect(getModel("github-copilot", "claude-sonnet-4.5").api).toBe("anthropic-messages");
		expect(getModel("github-copilot", "gpt-5").api).toBe("openai-responses");
		const chat = getModel("github-copilot", "gpt-4.1");
		expect(completionsCompat(chat)).toMatchObject({
			supportsStore: false,
			supportsDeveloperRole: false,
			supportsReasoningEffort: false,
		});
		// No borrowed editor identity (User-Agent, Editor-Version, Copilot-Integration-Id) on any Copilot row.
		expect(getModels("github-copilot").filter((model) => model.headers !== undefined)).toEqual([]);
	});

	it("clones every OpenAI Responses model for Azure, with an empty base URL", () => {
		const openAiIds = getModels("openai").map((model) => model.id);
		const azure = getModels("azure-openai-responses");
		expect(azure.map((model) => model.id)).toEqual(openAiIds);
		expect(azure.every((model) => model.baseUrl === "" && model.api === "azure-openai-responses")).toBe(true);
		expect(getModel("azure-openai-responses", "gpt-5.1").cost).toEqual(getModel("openai", "gpt-5.1").cost);
	});

	it("keeps tool-capable models only: models.dev rows without tool calling are dropped", () => {
		// The snapshot lists o1-mini and the OpenAI embedding-free text models without tool_call.
		expect(findModel("openai", "o1-mini")).toBeUndefined();
	});

	it("drops the Bedrock models that reject tool use", () => {
		expect(findModels("amazon-bedrock").some((model) => model.id.startsWith("ai21.jamba"))).toBe(false);
	});

	it("leaves out the Bedrock families AWS does not document for Converse", () => {
		const ids = findModels("amazon-bedrock").map((model) => model.id);
		for (const family of [/claude-fable-5-2/, /openai\.gpt-[56]/, /xai\.grok/, /qwen\.qwen3/, /writer\.palmyra/]) {
			expect(ids.filter((id) => family.test(id))).toEqual([]);
		}
	});

	it("reads India's cross-region inference profile like the others", () => {
		const model = findModel("amazon-bedrock", "in.anthropic.claude-opus-5") as Model<"bedrock-converse-stream">;
		expect(model.compat).toMatchObject({ supportsToolUse: true, supportsPromptCache: true, claudeThinking: true });
		expect(model.thinkingLevelMap).toEqual(findModel("amazon-bedrock", "us.anthropic.claude-opus-5")?.thinkingLevelMap);
	});

	it("gives every Bedrock row the capability flags AWS documents for its family", () => {
		// AWS's Converse "Supported models and model features" table, read for ConverseStream (tool use
		// is the "Streaming tool use" column) and the prompt caching page. Vision is the row's `input`.
		// https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference-supported-models-features.html
		type Flags = [tools: boolean, system: boolean, cache: boolean, claudeThinking: boolean, images: boolean];
		const documented: [RegExp, Flags][] = [
			[/^amazon\.nova-micro/, [true, true, true, false, false]],
			[/^amazon\.nova-(2-lite|lite|pro|premier)/, [true, true, true, false, true]],
			[/^anthropic\.claude-3-5-haiku/, [true, true, true, true, false]],
			[/^anthropic\.claude-(3-7-sonnet|(opus|sonnet|haiku)-[4-9])/, [true, true, true, true, true]],
			[/^anthropic\.claude-3-(haiku|sonnet|opus|5-sonnet)/, [true, true, false, true, true]],
			// Claude Fable 5 and 5.1: their model cards (Converse, prompt caching, adaptive thinking).
			// https://docs.aws.amazon.com/bedrock/latest/userguide/model-card-anthropic-claude-fable-5.html
			[/^anthropic\.claude-fable-5(-1)?$/, [true, true, true, true, true]],
			[/^cohere\.command-r/, [true, true, false, false, false]],
			[/^deepseek\.r1/, [false, true, false, false, false]],
			[/^meta\.llama3-(1|2-1b|2-3b|3)/, [false, true, false, false, false]],
			[/^meta\.llama(3-2-(11b|90b)|4)/, [false, true, false, false, true]],
			[/^mistral\.mistral-large-3/, [false, true, false, false, true]],
			// Listed as Converse models on the API compatibility page, which documents no feature flags.
			// https://docs.aws.amazon.com/bedrock/latest/userguide/models-api-compatibility.html
			[/^deepseek\.v3/, [false, false, false, false, false]],
			[/^google\.gemma-3-/, [false, false, false, false, true]],
			[/^minimax\.minimax-m2(\.1)?$/, [false, false, false, false, false]],
			[/^moonshot\.kimi-k2-thinking$/, [false, false, false, false, false]],
			[/^moonshotai\.kimi-k2\.5$/, [false, false, false, false, true]],
			[/^openai\.gpt-oss-(20b|120b)(-1:0)?$/, [false, true, false, false, false]],
		];
		const rows = findModels("amazon-bedrock").filter((model) => model.api === "bedrock-converse-stream");
		expect(rows.length).toBeGreaterThan(20);
		for (const row of rows as Model<"bedrock-converse-stream">[]) {
			const bare = row.id.replace(/^(us|eu|apac|global|jp|au|ca|us-gov|in)\./, "");
			const family = documented.find(([pattern]) => pattern.test(bare));
			expect(family, `${row.id} belongs to no documented family`).toBeDefined();
			const [tools, system, cache, claudeThinking, images] = family![1];
			expect({ id: row.id, ...row.compat, images: row.input.includes("image") }).toEqual({
				id: row.id,
				supportsToolUse: tools,
				supportsSystemPrompt: system,
				supportsPromptCache: cache,
				claudeThinking,
				images,
			});
		}
	});

	it("applies curated corrections on top of the snapshot (DeepSeek V3.2 prices)", () => {
		expect(getModel("deepseek", "deepseek-chat").cost).toEqual({
			input: 0.28,
			output: 0.42,
			cacheRead: 0.028,
			cacheWrite: 0,
		});
	});

	it("gives the Vertex models a {location} placeholder the provider fills in", () => {
		expect(getModel("google-vertex", "gemini-2.5-pro").baseUrl).toBe("https://{location}-aiplatform.googleapis.com");
	});
});

describe("modelsAreEqual", () => {
	it("compares provider and id", () => {
		const model = getModel("openai", "gpt-5.1");
		const renamed = { ...model, name: "renamed" };
		expect(modelsAreEqual(model, renamed)).toBe(true);
		expect(modelsAreEqual(model, getModel("azure-openai-responses", "gpt-5.1"))).toBe(false);
		expect(modelsAreEqual(model, getModel("openai", "gpt-5.2"))).toBe(false);
	});

	it("is false when either side is missing", () => {
		expect(modelsAreEqual(undefined, getModel("openai", "gpt-5.1"))).toBe(false);
		expect(modelsAreEqual(getModel("openai", "gpt-5.1"), null)).toBe(false);
		expect(modelsAreEqual(undefined, undefined)).toBe(false);
	});
});

function findModels(provider: string): Model[] {
	return getModels(provider as "openai") as Model[];
}

import { findEnvKeys } from "../../env-api-keys.js";
import type { Model, OpenAICompletionsCompat, OpenRouterRouting, VercelGatewayRouting } from "../../types.js";

/** Every compat field with a value: what the encoder actually uses for one model. */
export interface ResolvedOpenAICompletionsCompat {
	supportsStore: boolean;
	supportsDeveloperRole: boolean;
	supportsReasoningEffort: boolean;
	reasoningEffortMap: NonNullable<OpenAICompletionsCompat["reasoningEffortMap"]>;
	supportsUsageInStreaming: boolean;
	maxTokensField: "max_completion_tokens" | "max_tokens";
	requiresToolResultName: boolean;
	requiresAssistantAfterToolResult: boolean;
	requiresThinkingAsText: boolean;
	requiresReasoningContentOnAssistantMessages: boolean;
	thinkingFormat: NonNullable<OpenAICompletionsCompat["thinkingFormat"]>;
	supportsStrictMode: boolean;
	zaiToolStream: boolean;
	cacheControlFormat: OpenAICompletionsCompat["cacheControlFormat"];
	sendSessionAffinityHeaders: boolean;
	supportsLongCacheRetention: boolean;
	/** Sent as `provider` only to openrouter.ai. */
	openRouterRouting: OpenRouterRouting | undefined;
	/** Sent as `providerOptions.gateway` only to ai-gateway.vercel.sh. */
	vercelGatewayRouting: VercelGatewayRouting | undefined;
	/** True for OpenAI itself: it rejects `tools: []`, which proxies (LiteLLM, Anthropic gateways) need. */
	rejectsEmptyTools: boolean;
	/** OpenAI's `prompt_cache_key`; other vendors may reject the unknown field. */
	supportsPromptCacheKey: boolean;
}

/**
 * True for a self-hosted OpenAI-compatible server (Ollama, vLLM, LM Studio, llama.cpp): a provider
 * Keel knows no key variable for. These servers differ in which OpenAI extensions they accept, so
 * they get the conservative subset (no `store`, no `developer` role, `max_tokens`, no `strict`).
 * A known vendor's provider id keeps its own flags even on a local URL (a LiteLLM proxy, a test).
 */
export function isSelfHostedOpenAICompatible(model: Pick<Model, "provider">): boolean {
	return findEnvKeys(model.provider).length === 0;
}

/**
 * Detects what the vendor behind `model` accepts from its provider id and base URL, then lets
 * every field of `model.compat` override the detected value.
 */
export function resolveOpenAICompletionsCompat(model: Model<"openai-completions">): ResolvedOpenAICompletionsCompat {
	const { provider, baseUrl, id } = model;
	const is = (name: string, host: string) => provider === name || baseUrl.includes(host);
	const isZai = is("zai", "api.z.ai") || baseUrl.includes("bigmodel.cn");
	const isXai = is("xai", "api.x.ai");
	const isDeepSeek = is("deepseek", "api.deepseek.com");
	const isOpenRouter = is("openrouter", "openrouter.ai");
	const isGroq = is("groq", "groq.com");
	const isChutes = baseUrl.includes("chutes.ai");
	const isOpenAI = is("openai", "api.openai.com");
	const isSelfHosted = isSelfHostedOpenAICompatible(model);
	// These endpoints reject `store` and the `developer` role (400 "unknown parameter"/"invalid role").
	const isNonStandard =
		isZai ||
		isXai ||
		isDeepSeek ||
		isChutes ||
		isSelfHosted ||
		is("cerebras", "cerebras.ai") ||
		is("opencode", "opencode.ai") ||
		provider === "opencode-go";

	const detected: ResolvedOpenAICompletionsCompat = {
		supportsStore: !isNonStandard,
		supportsDeveloperRole: !isNonStandard,
		// xAI's Grok and z.ai's GLM reject `reasoning_effort`; z.ai takes `thinking` instead.
		// DeepSeek switches thinking with `thinking` (its own field) rather than an effort.
		supportsReasoningEffort: !isXai && !isZai && !isDeepSeek,
		// Groq's qwen3-32b only accepts "default" (thinking on) or "none".
		reasoningEffortMap:
			isGroq && id === "qwen/qwen3-32b"
				? { minimal: "default", low: "default", medium: "default", high: "default", xhigh: "default" }
				: {},
		supportsUsageInStreaming: true,
		maxTokensField: isChutes || isSelfHosted ? "max_tokens" : "max_completion_tokens",
		requiresToolResultName: false,
		requiresAssistantAfterToolResult: false,
		requiresThinkingAsText: false,
		// DeepSeek answers 400 when an assistant turn in thinking mode comes back without it.
		requiresReasoningContentOnAssistantMessages: isDeepSeek,
		thinkingFormat: isZai ? "zai" : isOpenRouter ? "openrouter" : isDeepSeek ? "deepseek" : "openai",
		supportsStrictMode: !isSelfHosted,
		zaiToolStream: false,
		// OpenRouter passes Anthropic-style cache breakpoints through to Claude models.
		cacheControlFormat: isOpenRouter && id.startsWith("anthropic/") ? "anthropic" : undefined,
		// Fireworks routes requests with the same affinity key to the same replica (prompt cache hits).
		sendSessionAffinityHeaders: is("fireworks", "fireworks.ai"),
		supportsLongCacheRetention: baseUrl.includes("api.openai.com"),
		openRouterRouting: undefined,
		vercelGatewayRouting: undefined,
		rejectsEmptyTools: isOpenAI,
		supportsPromptCacheKey: isOpenAI,
	};

	const overrides = model.compat ?? {};
	const resolved = { ...detected };
	for (const [key, value] of Object.entries(overrides)) {
		if (value !== undefined) (resolved as Record<string, unknown>)[key] = value;
	}
	return resolved;
}

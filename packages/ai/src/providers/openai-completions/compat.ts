import { findEnvKeys } from "../../env-api-keys.js";
import type {
	Model,
	OpenAICompletionsCompat,
	OpenAICompletionsUsageCounting,
	OpenRouterRouting,
	VercelGatewayRouting,
} from "../../types.js";
import { OPENAI_USAGE_COUNTING } from "./wire-types.js";

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
	/** How `usage` counts reasoning, cached and audio tokens. */
	usageCounting: OpenAICompletionsUsageCounting;
	/** System messages inside the conversation are sent where they stand; else folded into the first. */
	supportsMidConversationSystemMessages: boolean;
}

/**
 * The vendors that count differently:
 * - xAI: "reasoning token consumption will be counted separately from completion_tokens, but
 *   will be counted in the total_tokens" (https://docs.x.ai/docs/key-information/consumption-and-rate-limits);
 * - DeepSeek: cache hits in `prompt_cache_hit_tokens`, with `prompt_cache_miss_tokens` the rest of
 *   `prompt_tokens` (https://api-docs.deepseek.com/guides/kv_cache);
 * - Moonshot (Kimi): cache hits in a top-level `cached_tokens` (https://platform.moonshot.ai/docs/api/chat).
 */
function detectUsageCounting(vendor: {
	isXai: boolean;
	isDeepSeek: boolean;
	isMoonshot: boolean;
}): OpenAICompletionsUsageCounting {
	if (vendor.isXai) return { ...OPENAI_USAGE_COUNTING, reasoningInCompletionTokens: false };
	if (vendor.isDeepSeek) return { ...OPENAI_USAGE_COUNTING, cachedTokensField: "prompt_cache_hit_tokens" };
	if (vendor.isMoonshot) return { ...OPENAI_USAGE_COUNTING, cachedTokensField: "cached_tokens" };
	return { ...OPENAI_USAGE_COUNTING };
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
	const isMoonshot = provider.startsWith("moonshotai") || /api\.moonshot\.(ai|cn)/.test(baseUrl);
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
		usageCounting: detectUsageCounting({ isXai, isDeepSeek, isMoonshot }),
		// Many self-hosted chat templates raise "System message must be at the beginning".
		supportsMidConversationSystemMessages: !isSelfHosted,
	};

	const overrides = model.compat ?? {};
	const resolved = { ...detected };
	for (const [key, value] of Object.entries(overrides)) {
		if (value !== undefined) (resolved as Record<string, unknown>)[key] = value;
	}
	// Counting is three independent facts: a model that sets one keeps the detected others.
	resolved.usageCounting = { ...detected.usageCounting, ...definedFields(overrides.usageCounting) };
	checkUsageCounting(resolved.usageCounting, model.id);
	return resolved;
}

function definedFields<T extends object>(value: T | undefined): Partial<T> {
	if (!value || typeof value !== "object") return {};
	return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

const CACHED_TOKENS_FIELDS: readonly string[] = [
	"prompt_tokens_details.cached_tokens",
	"prompt_cache_hit_tokens",
	"cached_tokens",
	"num_cached_tokens",
];

/** A wrong value in `model.compat.usageCounting` would silently miscount cost: it is refused instead. */
function checkUsageCounting(counting: OpenAICompletionsUsageCounting, modelId: string): void {
	const where = `model "${modelId}": compat.usageCounting`;
	for (const field of ["reasoningInCompletionTokens", "audioInPromptAndCompletionTokens"] as const) {
		if (typeof counting[field] !== "boolean") {
			throw new Error(`${where}.${field} must be true or false, got ${JSON.stringify(counting[field])}`);
		}
	}
	if (!CACHED_TOKENS_FIELDS.includes(counting.cachedTokensField)) {
		throw new Error(
			`${where}.cachedTokensField must be one of ${CACHED_TOKENS_FIELDS.map((field) => `"${field}"`).join(", ")}, got ${JSON.stringify(counting.cachedTokensField)}`,
		);
	}
}

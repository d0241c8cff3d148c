// Which catalogue provider becomes which Keel provider, on which wire API and base URL. Vendors that
// speak an existing wire API are rows here with `compat` flags, never code: adding one is a data change.
import type { Api, OpenAICompletionsCompat } from "../../src/types.js";

export interface ProviderRule {
	/** Keel's provider id. */
	provider: string;
	api: Api;
	baseUrl: string;
	/** Flags for openai-completions vendors; the provider's auto-detection is the fallback, these win. */
	compat?: OpenAICompletionsCompat;
	/** Model ids from this source that are dropped (deprecated or not usable through the API). */
	skip?: RegExp;
	/**
	 * The cache-read price as a share of the input price, for a provider that documents one but
	 * whose source lists no cache price.
	 */
	cacheReadShareOfInput?: number;
	/** Used when a source gives no limit. */
	defaultContextWindow?: number;
	defaultMaxTokens?: number;
	headers?: Record<string, string>;
	/** Reached through a subscription login, not a metered key: every price is 0 whatever a source lists. */
	subscription?: boolean;
}

// OpenAI-compatible endpoints that implement neither OpenAI's `store` field nor its `developer`
// role: the request leaves `store` out and sends the system prompt as `system`.
const noStoreNoDeveloperRole: OpenAICompletionsCompat = { supportsStore: false, supportsDeveloperRole: false };

// Moonshot (Kimi) reports cache hits as a top-level `usage.cached_tokens`
// (https://platform.moonshot.ai/docs/api/chat).
const moonshotCompat: OpenAICompletionsCompat = {
	...noStoreNoDeveloperRole,
	usageCounting: { cachedTokensField: "cached_tokens" },
};

// Copilot's Chat Completions endpoint implements none of OpenAI's `store`, `developer` role and
// `reasoning_effort`.
export const COPILOT_COMPLETIONS_COMPAT: OpenAICompletionsCompat = {
	supportsStore: false,
	supportsDeveloperRole: false,
	supportsReasoningEffort: false,
};

// Xiaomi's MiMo endpoints take no `reasoning_effort`; in thinking mode an assistant turn that called
// tools must come back with its `reasoning_content`, as on DeepSeek.
function xiaomiTokenPlan(baseUrl: string, provider: string): ProviderRule {
	return {
		provider,
		api: "openai-completions",
		baseUrl,
		compat: {
			...noStoreNoDeveloperRole,
			supportsReasoningEffort: false,
			thinkingFormat: "deepseek",
			requiresReasoningContentOnAssistantMessages: true,
		},
	};
}

function qwenTokenPlan(baseUrl: string, provider: string): ProviderRule {
	return {
		provider,
		api: "openai-completions",
		baseUrl,
		compat: { ...noStoreNoDeveloperRole, thinkingFormat: "qwen" },
	};
}

/** models.dev provider id → rule. Providers not listed here are not imported. */
export const MODELS_DEV_PROVIDER_RULES: Readonly<Record<string, ProviderRule>> = {
	anthropic: { provider: "anthropic", api: "anthropic-messages", baseUrl: "https://api.anthropic.com" },
	openai: { provider: "openai", api: "openai-responses", baseUrl: "https://api.openai.com/v1" },
	google: {
		provider: "google",
		api: "google-generative-ai",
		baseUrl: "https://generativelanguage.googleapis.com/v1beta",
	},
	"google-vertex": {
		provider: "google-vertex",
		api: "google-vertex",
		// Vertex AI endpoints are regional (https://cloud.google.com/vertex-ai/docs/general/locations):
		// the provider fills {location} from options or GOOGLE_CLOUD_LOCATION.
		baseUrl: "https://{location}-aiplatform.googleapis.com",
	},
	"amazon-bedrock": {
		provider: "amazon-bedrock",
		api: "bedrock-converse-stream",
		baseUrl: "https://bedrock-runtime.us-east-1.amazonaws.com",
		// Jamba and Mistral 7B v0.x have no tool use through Converse:
		// https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference-supported-models-features.html
		skip: /^(ai21\.jamba|mistral\.mistral-7b-instruct-v0)/,
	},
	mistral: {
		provider: "mistral",
		api: "mistral-conversations",
		baseUrl: "https://api.mistral.ai",
		// "Cached prompt tokens are billed at 10% of the standard input token price"
		// (https://docs.mistral.ai/studio-api/conversations/advanced/prompt-caching).
		cacheReadShareOfInput: 0.1,
	},
	groq: { provider: "groq", api: "openai-completions", baseUrl: "https://api.groq.com/openai/v1" },
	cerebras: {
		provider: "cerebras",
		api: "openai-completions",
		baseUrl: "https://api.cerebras.ai/v1",
		compat: noStoreNoDeveloperRole,
	},
	xai: {
		provider: "xai",
		api: "openai-completions",
		baseUrl: "https://api.x.ai/v1",
		// Grok's reasoning models reject `reasoning_effort` except grok-3-mini, so it is never sent
		// (https://docs.x.ai/docs/guides/reasoning). Reasoning tokens are counted beside
		// `completion_tokens`, not in it (https://docs.x.ai/docs/key-information/consumption-and-rate-limits).
		compat: {
			...noStoreNoDeveloperRole,
			supportsReasoningEffort: false,
			usageCounting: { reasoningInCompletionTokens: false },
		},
	},
	openrouter: {
		provider: "openrouter",
		api: "openai-completions",
		baseUrl: "https://openrouter.ai/api/v1",
		// OpenRouter takes the effort as `reasoning: {effort}` rather than `reasoning_effort`
		// (https://openrouter.ai/docs/use-cases/reasoning-tokens).
		compat: { thinkingFormat: "openrouter" },
	},
	vercel: {
		provider: "vercel-ai-gateway",
		// The gateway speaks the Anthropic Messages API for every model it routes
		// (https://vercel.com/docs/ai-gateway/anthropic-compat).
		api: "anthropic-messages",
		baseUrl: "https://ai-gateway.vercel.sh",
	},
	zai: {
		provider: "zai",
		api: "openai-completions",
		// The GLM Coding Plan endpoint, the one coding-plan subscription keys work with; prices come
		// from the pay-as-you-go listing.
		baseUrl: "https://api.z.ai/api/coding/paas/v4",
		compat: { ...noStoreNoDeveloperRole, supportsReasoningEffort: false, thinkingFormat: "zai" },
	},
	deepseek: {
		provider: "deepseek",
		api: "openai-completions",
		baseUrl: "https://api.deepseek.com",
		// In thinking mode DeepSeek answers 400 when an assistant turn that called tools comes back
		// without its `reasoning_content` (https://api-docs.deepseek.com/guides/thinking_mode).
		// Cache hits are reported as `prompt_cache_hit_tokens` (https://api-docs.deepseek.com/guides/kv_cache).
		compat: {
			...noStoreNoDeveloperRole,
			thinkingFormat: "deepseek",
			requiresReasoningContentOnAssistantMessages: true,
			usageCounting: { cachedTokensField: "prompt_cache_hit_tokens" },
		},
	},
	"fireworks-ai": {
		provider: "fireworks",
		api: "openai-completions",
		baseUrl: "https://api.fireworks.ai/inference/v1",
		compat: { supportsStore: false },
	},
	huggingface: {
		provider: "huggingface",
		api: "openai-completions",
		baseUrl: "https://router.huggingface.co/v1",
		compat: { supportsDeveloperRole: false },
	},
	moonshotai: {
		provider: "moonshotai",
		api: "openai-completions",
		baseUrl: "https://api.moonshot.ai/v1",
		compat: moonshotCompat,
	},
	"moonshotai-cn": {
		provider: "moonshotai-cn",
		api: "openai-completions",
		baseUrl: "https://api.moonshot.cn/v1",
		compat: moonshotCompat,
	},
	opencode: {
		provider: "opencode",
		// Per model from its SDK package: see apiForOpencodeModel.
		api: "openai-completions",
		baseUrl: "https://opencode.ai/zen/v1",
		compat: noStoreNoDeveloperRole,
	},
	"github-copilot": {
		provider: "github-copilot",
		// Per model: see apiForCopilotModel.
		api: "openai-completions",
		baseUrl: "https://api.individual.githubcopilot.com",
		defaultContextWindow: 128_000,
		defaultMaxTokens: 8192,
		// Applies to the models served over Chat Completions only (compat is per openai-completions).
		compat: COPILOT_COMPLETIONS_COMPAT,
		subscription: true,
		// No editor-identity headers (Copilot-Integration-Id, Editor-Version, a Copilot Chat
		// User-Agent): sending another product's identity is impersonation, which Keel does not do.
		// A caller with its own integration id passes it in options.headers or model.headers.
	},
};

export const OPENROUTER_RULE: ProviderRule = MODELS_DEV_PROVIDER_RULES.openrouter;
export const VERCEL_GATEWAY_RULE: ProviderRule = MODELS_DEV_PROVIDER_RULES.vercel;

/**
 * opencode Zen serves each model on its vendor's wire API; models.dev names that API by the AI SDK
 * package (`provider.npm`) that speaks it (https://opencode.ai/docs/zen/).
 */
export function apiForOpencodeModel(npm: string | undefined): { api: Api; baseUrl: string } {
	if (npm === "@ai-sdk/anthropic") return { api: "anthropic-messages", baseUrl: "https://opencode.ai/zen" };
	if (npm === "@ai-sdk/openai") return { api: "openai-responses", baseUrl: "https://opencode.ai/zen/v1" };
	if (npm === "@ai-sdk/google") return { api: "google-generative-ai", baseUrl: "https://opencode.ai/zen/v1" };
	return { api: "openai-completions", baseUrl: "https://opencode.ai/zen/v1" };
}

/** Copilot: Claude 4.x over Messages, GPT-5 and oswe over Responses, the rest over Chat Completions. */
export function apiForCopilotModel(id: string): Api {
	if (/^claude-(sonnet|opus|haiku)-4/.test(id)) return "anthropic-messages";
	if (/^(gpt-5|oswe)/.test(id)) return "openai-responses";
	return "openai-completions";
}

/**
 * Providers no public catalogue covers, filled only from packages/ai/catalog. Each base URL is the
 * vendor's documented endpoint (source noted beside it).
 */
export const CURATED_PROVIDER_RULES: Readonly<Record<string, ProviderRule>> = {
	// ChatGPT-subscription Codex backend; the Codex provider appends /codex/responses.
	"openai-codex": {
		provider: "openai-codex",
		api: "openai-codex-responses",
		baseUrl: "https://chatgpt.com/backend-api",
		subscription: true,
	},
	// https://platform.minimax.io/docs/api-reference/text-anthropic-api
	minimax: { provider: "minimax", api: "anthropic-messages", baseUrl: "https://api.minimax.io/anthropic" },
	// https://platform.minimaxi.com/docs/api-reference/text-anthropic-api (mainland China endpoint)
	"minimax-cn": { provider: "minimax-cn", api: "anthropic-messages", baseUrl: "https://api.minimaxi.com/anthropic" },
	// https://www.kimi.com/coding/docs/ (Kimi For Coding, Anthropic-compatible endpoint)
	"kimi-coding": {
		provider: "kimi-coding",
		api: "anthropic-messages",
		baseUrl: "https://api.kimi.com/coding",
		subscription: true,
	},
	// https://opencode.ai/docs/go/ (OpenCode Go subscription, OpenAI-compatible)
	"opencode-go": {
		provider: "opencode-go",
		api: "openai-completions",
		baseUrl: "https://opencode.ai/zen/go/v1",
		compat: noStoreNoDeveloperRole,
		subscription: true,
	},
	// https://developers.cloudflare.com/workers-ai/configuration/open-ai-compatibility/
	// The provider fills {CLOUDFLARE_ACCOUNT_ID} from the environment.
	"cloudflare-workers-ai": {
		provider: "cloudflare-workers-ai",
		api: "openai-completions",
		baseUrl: "https://api.cloudflare.com/client/v4/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai/v1",
		compat: { ...noStoreNoDeveloperRole, supportsReasoningEffort: false, supportsStrictMode: false },
	},
	// https://developers.cloudflare.com/ai-gateway/usage/chat-completion/ (the unified /compat endpoint)
	"cloudflare-ai-gateway": {
		provider: "cloudflare-ai-gateway",
		api: "openai-completions",
		baseUrl: "https://gateway.ai.cloudflare.com/v1/{CLOUDFLARE_ACCOUNT_ID}/{CLOUDFLARE_GATEWAY_ID}/compat",
		compat: noStoreNoDeveloperRole,
	},
	// https://platform.xiaomimimo.com/#/docs/api/chat/openai-api
	xiaomi: {
		provider: "xiaomi",
		api: "openai-completions",
		baseUrl: "https://api.xiaomimimo.com/v1",
		compat: { ...noStoreNoDeveloperRole, supportsReasoningEffort: false },
	},
	// https://platform.xiaomimimo.com/ (MiMo Token Plan, one endpoint per region)
	"xiaomi-token-plan-ams": xiaomiTokenPlan("https://token-plan-ams.xiaomimimo.com/v1", "xiaomi-token-plan-ams"),
	"xiaomi-token-plan-cn": xiaomiTokenPlan("https://token-plan-cn.xiaomimimo.com/v1", "xiaomi-token-plan-cn"),
	"xiaomi-token-plan-sgp": xiaomiTokenPlan("https://token-plan-sgp.xiaomimimo.com/v1", "xiaomi-token-plan-sgp"),
	// https://docs.together.ai/docs/openai-api-compatibility
	together: {
		provider: "together",
		api: "openai-completions",
		baseUrl: "https://api.together.ai/v1",
		compat: { ...noStoreNoDeveloperRole, maxTokensField: "max_tokens", supportsStrictMode: false },
	},
	// https://docs.baseten.co/development/model-apis/overview (OpenAI-compatible Model APIs)
	baseten: {
		provider: "baseten",
		api: "openai-completions",
		baseUrl: "https://inference.baseten.co/v1",
		compat: { ...noStoreNoDeveloperRole, maxTokensField: "max_tokens" },
	},
	// https://docs.api.nvidia.com/nim/reference/llm-apis (NVIDIA NIM hosted endpoints)
	nvidia: {
		provider: "nvidia",
		api: "openai-completions",
		baseUrl: "https://integrate.api.nvidia.com/v1",
		compat: {
			...noStoreNoDeveloperRole,
			supportsReasoningEffort: false,
			maxTokensField: "max_tokens",
			supportsStrictMode: false,
		},
	},
	// Meta's Llama API speaks the OpenAI Responses API at api.meta.ai.
	meta: { provider: "meta", api: "openai-responses", baseUrl: "https://api.meta.ai/v1" },
	// https://www.alibabacloud.com/help/en/model-studio/ (Qwen Token Plan, OpenAI-compatible mode;
	// thinking is switched with a top-level `enable_thinking`)
	"qwen-token-plan": qwenTokenPlan(
		"https://token-plan.ap-southeast-1.maas.aliyuncs.com/compatible-mode/v1",
		"qwen-token-plan",
	),
	"qwen-token-plan-individual": qwenTokenPlan(
		"https://token-plan.ap-southeast-1.maas.aliyuncs.com/compatible-mode/v1",
		"qwen-token-plan-individual",
	),
	"qwen-token-plan-cn": qwenTokenPlan(
		"https://token-plan.cn-beijing.maas.aliyuncs.com/compatible-mode/v1",
		"qwen-token-plan-cn",
	),
	"qwen-token-plan-individual-cn": qwenTokenPlan(
		"https://token-plan.cn-beijing.maas.aliyuncs.com/compatible-mode/v1",
		"qwen-token-plan-individual-cn",
	),
	// https://docs.bigmodel.cn/ (GLM Coding Plan, mainland China endpoint): same wire rules as zai.
	"zai-coding-cn": {
		provider: "zai-coding-cn",
		api: "openai-completions",
		baseUrl: "https://open.bigmodel.cn/api/coding/paas/v4",
		compat: { ...noStoreNoDeveloperRole, supportsReasoningEffort: false, thinkingFormat: "zai" },
	},
	// Ant Group's Ling models, OpenAI-compatible.
	"ant-ling": {
		provider: "ant-ling",
		api: "openai-completions",
		baseUrl: "https://api.ant-ling.com/v1",
		compat: { ...noStoreNoDeveloperRole, supportsReasoningEffort: false, maxTokensField: "max_tokens" },
	},
	// Deployments are per resource: the provider resolves the URL from its options or
	// AZURE_OPENAI_BASE_URL / AZURE_OPENAI_RESOURCE_NAME, hence "".
	"azure-openai-responses": { provider: "azure-openai-responses", api: "azure-openai-responses", baseUrl: "" },
};

/** Keel provider id → rule, for every provider the catalogue can hold. */
export function ruleForProvider(provider: string): ProviderRule | undefined {
	const fromCatalogue = Object.values(MODELS_DEV_PROVIDER_RULES).find((rule) => rule.provider === provider);
	return fromCatalogue ?? CURATED_PROVIDER_RULES[provider];
}

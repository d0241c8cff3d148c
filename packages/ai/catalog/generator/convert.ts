// Turns one row of each public catalogue into a Keel Model, or undefined when the rules drop it
// (no tool calling, deprecated, not a text model): Keel's callers are agents, and a model that
// cannot call tools or answer in text is of no use to them.
import { inputKindsFromModalities } from "../../src/models/input-kinds.js";
import type { Api, Model, ModelCost, ThinkingLevelMap } from "../../src/types.js";
import { apiForCopilotModel, apiForOpencodeModel, COPILOT_COMPLETIONS_COMPAT, type ProviderRule } from "./providers.js";
import type { ModelsDevModel, OpenRouterModel, ToolkitModel, VercelGatewayModel } from "./source-types.js";

// Used when a source gives no limit: small enough that no model listed rejects a request for it.
const FALLBACK_LIMIT = 4096;

function positiveOr(value: number | null | undefined, fallback: number): number {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
}

function rateOrZero(value: number | undefined): number {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/** USD per token as a string (OpenRouter, gateway) → USD per million, without float noise. */
export function perTokenToPerMillion(value: string | undefined): number {
	const parsed = value === undefined ? Number.NaN : Number.parseFloat(value);
	// OpenRouter lists routers with a price of "-1" (priced per routed model).
	if (!Number.isFinite(parsed) || parsed <= 0) return 0;
	return Number((parsed * 1_000_000).toPrecision(12));
}

/** The cache-read price from the provider's documented share of the input price, without float noise. */
function documentedCacheRead(rule: ProviderRule, input: number): number {
	return rule.cacheReadShareOfInput ? Number((input * rule.cacheReadShareOfInput).toPrecision(12)) : 0;
}

function baseModel(rule: ProviderRule, api: Api, baseUrl: string): Pick<Model<Api>, "api" | "provider" | "baseUrl"> {
	return { api, provider: rule.provider, baseUrl };
}

export function convertModelsDevModel(
	rule: ProviderRule,
	source: ModelsDevModel,
	providerNpm: string | undefined,
): Model<Api> | undefined {
	if (source.tool_call !== true) return undefined;
	if (source.status === "deprecated") return undefined;
	if (rule.skip?.test(source.id)) return undefined;
	if (source.modalities?.output && !source.modalities.output.includes("text")) return undefined;

	let api = rule.api;
	let baseUrl = rule.baseUrl;
	if (rule.provider === "opencode") ({ api, baseUrl } = apiForOpencodeModel(source.provider?.npm ?? providerNpm));
	if (rule.provider === "github-copilot") api = apiForCopilotModel(source.id);

	const input = rateOrZero(source.cost?.input);
	const cost: ModelCost = {
		input,
		output: rateOrZero(source.cost?.output),
		cacheRead: rateOrZero(source.cost?.cache_read) || documentedCacheRead(rule, input),
		cacheWrite: rateOrZero(source.cost?.cache_write),
	};
	const model: Model<Api> = {
		id: source.id,
		name: source.name || source.id,
		...baseModel(rule, api, baseUrl),
		reasoning: source.reasoning === true,
		input: inputKindsFromModalities(source.modalities?.input),
		cost,
		contextWindow: positiveOr(source.limit?.context, rule.defaultContextWindow ?? FALLBACK_LIMIT),
		maxTokens: positiveOr(source.limit?.output, rule.defaultMaxTokens ?? FALLBACK_LIMIT),
	};
	if (rule.provider === "github-copilot" && api === "openai-completions")
		model.compat = { ...COPILOT_COMPLETIONS_COMPAT };
	return model;
}

export function convertOpenRouterModel(rule: ProviderRule, source: OpenRouterModel): Model<Api> | undefined {
	const parameters = source.supported_parameters ?? [];
	if (!parameters.includes("tools")) return undefined;
	const contextWindow = positiveOr(source.top_provider?.context_length ?? source.context_length, FALLBACK_LIMIT);
	return {
		id: source.id,
		name: source.name || source.id,
		...baseModel(rule, rule.api, rule.baseUrl),
		reasoning: parameters.includes("reasoning"),
		input: inputKindsFromModalities(source.architecture?.input_modalities),
		cost: {
			input: perTokenToPerMillion(source.pricing?.prompt),
			output: perTokenToPerMillion(source.pricing?.completion),
			cacheRead: perTokenToPerMillion(source.pricing?.input_cache_read),
			cacheWrite: perTokenToPerMillion(source.pricing?.input_cache_write),
		},
		contextWindow,
		// OpenRouter leaves the output cap empty when only the context bounds it.
		maxTokens: positiveOr(source.top_provider?.max_completion_tokens, contextWindow),
	};
}

export function convertVercelGatewayModel(rule: ProviderRule, source: VercelGatewayModel): Model<Api> | undefined {
	if (source.type !== undefined && source.type !== "language") return undefined;
	const tags = source.tags ?? [];
	if (!tags.includes("tool-use")) return undefined;
	const contextWindow = positiveOr(source.context_window, FALLBACK_LIMIT);
	return {
		id: source.id,
		name: source.name || source.id,
		...baseModel(rule, rule.api, rule.baseUrl),
		reasoning: tags.includes("reasoning"),
		input: tags.includes("vision") ? ["text", "image"] : ["text"],
		cost: {
			input: perTokenToPerMillion(source.pricing?.input),
			output: perTokenToPerMillion(source.pricing?.output),
			cacheRead: perTokenToPerMillion(source.pricing?.input_cache_read),
			cacheWrite: perTokenToPerMillion(source.pricing?.input_cache_write),
		},
		contextWindow,
		maxTokens: positiveOr(source.max_tokens, FALLBACK_LIMIT),
	};
}

const CALLABLE_APIS = new Set<string>([
	"anthropic-messages",
	"azure-openai-responses",
	"bedrock-converse-stream",
	"google-generative-ai",
	"google-vertex",
	"mistral-conversations",
	"openai-codex-responses",
	"openai-completions",
	"openai-responses",
]);

/** The AI SDK package models.dev would name for a toolkit row's api (opencode routes per model). */
const NPM_FOR_API: Record<string, string> = {
	"anthropic-messages": "@ai-sdk/anthropic",
	"openai-responses": "@ai-sdk/openai",
	"google-generative-ai": "@ai-sdk/google",
};

/**
 * A toolkit's levels (off … xhigh, plus "max" above xhigh in newer lists) as Keel's map. Levels are
 * kept as given; a model with max but no xhigh also gets xhigh mapped to its max value, as catalogues
 * before the max level had it (Claude Opus 4.6: xhigh sends effort "max").
 */
export function toKeelThinkingLevelMap(map: Record<string, string | null> | undefined): ThinkingLevelMap | undefined {
	if (!map) return undefined;
	const result: ThinkingLevelMap = {};
	for (const level of ["off", "minimal", "low", "medium", "high"] as const) {
		const value = map[level];
		if (value === null || typeof value === "string") result[level] = value;
	}
	const top = typeof map.xhigh === "string" ? map.xhigh : typeof map.max === "string" ? map.max : map.xhigh;
	if (top === null || typeof top === "string") result.xhigh = top;
	if (map.max === null || typeof map.max === "string") result.max = map.max;
	return Object.keys(result).length > 0 ? result : undefined;
}

/**
 * One toolkit row as a Keel model on the provider's rule. Keel's rule decides the wire API and base
 * URL (the facts taken are limits, prices, input kinds and reasoning), except where a provider routes
 * per model: opencode and opencode-go by the row's API, Copilot by the id. Rows on an API Keel does
 * not speak are dropped.
 */
export function convertToolkitModel(rule: ProviderRule, source: ToolkitModel): Model<Api> | undefined {
	if (source.api && !CALLABLE_APIS.has(source.api)) return undefined;
	if (rule.skip?.test(source.id)) return undefined;
	let api = rule.api;
	let baseUrl = rule.baseUrl;
	if (rule.provider === "opencode") ({ api, baseUrl } = apiForOpencodeModel(NPM_FOR_API[source.api ?? ""]));
	if (rule.provider === "opencode-go" && source.api && source.baseUrl) {
		api = source.api as Api;
		baseUrl = source.baseUrl;
	}
	if (rule.provider === "github-copilot") api = apiForCopilotModel(source.id);
	const cost: ModelCost = {
		input: rateOrZero(source.cost?.input),
		output: rateOrZero(source.cost?.output),
		cacheRead: rateOrZero(source.cost?.cacheRead),
		cacheWrite: rateOrZero(source.cost?.cacheWrite),
	};
	const tiers = (source.cost?.tiers ?? []).filter((tier) => typeof tier.inputTokensAbove === "number");
	if (tiers.length > 0) {
		cost.tiers = tiers.map((tier) => ({
			inputTokensAbove: tier.inputTokensAbove as number,
			input: rateOrZero(tier.input),
			output: rateOrZero(tier.output),
			cacheRead: rateOrZero(tier.cacheRead),
			cacheWrite: rateOrZero(tier.cacheWrite),
		}));
	}
	const model: Model<Api> = {
		id: source.id,
		name: source.name || source.id,
		...baseModel(rule, api, baseUrl),
		reasoning: source.reasoning === true,
		input: source.input?.includes("image") ? ["text", "image"] : ["text"],
		cost,
		contextWindow: positiveOr(source.contextWindow, rule.defaultContextWindow ?? FALLBACK_LIMIT),
		maxTokens: positiveOr(source.maxTokens, rule.defaultMaxTokens ?? FALLBACK_LIMIT),
	};
	// A map only means something on the API it was written for.
	const map = source.api === api ? toKeelThinkingLevelMap(source.thinkingLevelMap ?? undefined) : undefined;
	if (map && model.reasoning) model.thinkingLevelMap = map;
	if (rule.provider === "github-copilot" && api === "openai-completions")
		model.compat = { ...COPILOT_COMPLETIONS_COMPAT };
	return model;
}

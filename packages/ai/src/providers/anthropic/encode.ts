import type Anthropic from "@anthropic-ai/sdk";
import type { Context, Model } from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { NonRetryableError } from "../shared/provider-stream.js";
import { resolveCacheRetention } from "../shared/simple-options.js";
import { normalizeAnthropicToolCallId } from "../shared/tool-call-ids.js";
import { transformMessages } from "../shared/transform-messages.js";
import { type CacheControl, encodeAnthropicMessages } from "./encode-messages.js";
import { encodeAnthropicToolChoice, encodeAnthropicTools } from "./encode-tools.js";
import type { AnthropicOptions } from "./options.js";
import { usesAdaptiveThinking } from "./thinking.js";

// SDK 1.12 no longer declares `temperature` (Anthropic deprecates it for new models), but the API
// still accepts it for the models that support sampling settings, so Keel sends it when asked.
export type AnthropicRequestBody = Anthropic.Messages.MessageCreateParamsStreaming & { temperature?: number };

/** Anthropic's smallest accepted thinking budget. */
export const MIN_THINKING_BUDGET_TOKENS = 1024;

export const FINE_GRAINED_TOOL_STREAMING_BETA = "fine-grained-tool-streaming-2025-05-14";
export const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";
export const OAUTH_BETA = "oauth-2025-04-20";

/**
 * What kind of credential the key is. The SDK sends each as `Authorization: Bearer`; they differ
 * in the betas they need (OAuth needs the oauth beta, Copilot's endpoint rejects fine-grained tool streaming).
 */
export type AnthropicAuthMode = "apiKey" | "oauth" | "copilot";

export function anthropicAuthMode(model: Model<"anthropic-messages">, apiKey: string | undefined): AnthropicAuthMode {
	if (model.provider === "github-copilot") return "copilot";
	// Claude subscription tokens (sk-ant-oat01-…) are OAuth access tokens: Bearer, plus the oauth beta.
	if (apiKey?.includes("sk-ant-oat")) return "oauth";
	return "apiKey";
}

/** Thinking is only sent to reasoning models, and only when asked for. */
export function isThinkingEnabled(model: Model<"anthropic-messages">, options: AnthropicOptions): boolean {
	return model.reasoning && options.thinkingEnabled === true;
}

/**
 * The cache breakpoint for this request, or undefined when caching is off. The 1-hour TTL is only
 * sent to Anthropic itself or to endpoints that declare support: proxies reject the field.
 */
export function anthropicCacheControl(
	model: Model<"anthropic-messages">,
	options: AnthropicOptions,
): CacheControl | undefined {
	const retention = resolveCacheRetention(options.cacheRetention);
	if (retention === "none") return undefined;
	const supportsLong = model.compat?.supportsLongCacheRetention ?? model.baseUrl.includes("api.anthropic.com");
	return retention === "long" && supportsLong ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
}

function encodeThinking(
	model: Model<"anthropic-messages">,
	options: AnthropicOptions,
	maxTokens: number,
): Pick<AnthropicRequestBody, "thinking" | "output_config"> {
	const display = options.thinkingDisplay ? { display: options.thinkingDisplay } : {};
	if (usesAdaptiveThinking(model)) {
		return { thinking: { type: "adaptive", ...display }, output_config: { effort: options.effort ?? "high" } };
	}
	const budget = options.thinkingBudgetTokens ?? MIN_THINKING_BUDGET_TOKENS;
	if (!Number.isInteger(budget) || budget < MIN_THINKING_BUDGET_TOKENS) {
		throw new NonRetryableError(
			`thinkingBudgetTokens must be an integer of at least ${MIN_THINKING_BUDGET_TOKENS} (Anthropic's minimum), got ${budget}; raise maxTokens or lower the thinking level`,
		);
	}
	if (budget >= maxTokens) {
		throw new NonRetryableError(
			`thinkingBudgetTokens (${budget}) must be below maxTokens (${maxTokens}): thinking counts toward max_tokens`,
		);
	}
	return { thinking: { type: "enabled", budget_tokens: budget, ...display } };
}

/**
 * The Messages API request body for a context. Pure: no I/O, no clock. Throws on input the API
 * would reject with a less helpful message (bad thinking budget, non-object tool schema).
 */
export function encodeAnthropicRequest(
	model: Model<"anthropic-messages">,
	context: Context,
	options: AnthropicOptions = {},
): AnthropicRequestBody {
	const cacheControl = anthropicCacheControl(model, options);
	const maxTokens = options.maxTokens ?? Math.floor(model.maxTokens / 3);
	if (!Number.isInteger(maxTokens) || maxTokens < 0) {
		throw new NonRetryableError(`maxTokens must be a non-negative integer, got ${maxTokens}`);
	}
	const body: AnthropicRequestBody = {
		model: model.id,
		max_tokens: maxTokens,
		// Messages from other models (or other APIs) are made acceptable first: foreign thinking
		// becomes text, ids are normalised to Anthropic's pattern, orphaned tool calls are answered.
		messages: encodeAnthropicMessages(
			transformMessages(context.messages, model, normalizeAnthropicToolCallId),
			model,
			cacheControl,
		),
		stream: true,
	};
	if (context.systemPrompt && context.systemPrompt.trim() !== "") {
		body.system = [
			{
				type: "text",
				text: sanitizeSurrogates(context.systemPrompt),
				...(cacheControl ? { cache_control: cacheControl } : {}),
			},
		];
	}
	const thinking = isThinkingEnabled(model, options);
	if (thinking) Object.assign(body, encodeThinking(model, options, maxTokens));
	// The API only accepts the default temperature (1) together with thinking.
	if (options.temperature !== undefined && !thinking) body.temperature = options.temperature;
	if (context.tools && context.tools.length > 0) {
		body.tools = encodeAnthropicTools(context.tools, model.compat?.supportsEagerToolInputStreaming === true);
	}
	if (options.toolChoice !== undefined) body.tool_choice = encodeAnthropicToolChoice(options.toolChoice);
	const userId = options.metadata?.user_id;
	if (typeof userId === "string") body.metadata = { user_id: userId };
	return body;
}

/** The `anthropic-beta` values for a request. */
export function anthropicBetas(
	model: Model<"anthropic-messages">,
	context: Context,
	options: AnthropicOptions,
	authMode: AnthropicAuthMode,
): string[] {
	const betas: string[] = [];
	if (authMode === "oauth") betas.push(OAUTH_BETA);
	// Without this beta, tool arguments arrive in one piece at the end; models that support the
	// per-tool `eager_input_streaming` field get that instead. Copilot's endpoint rejects the beta.
	const hasTools = (context.tools?.length ?? 0) > 0;
	if (hasTools && authMode !== "copilot" && model.compat?.supportsEagerToolInputStreaming !== true) {
		betas.push(FINE_GRAINED_TOOL_STREAMING_BETA);
	}
	// Adaptive-thinking models interleave thinking and tool calls without a beta.
	if (isThinkingEnabled(model, options) && options.interleavedThinking !== false && !usesAdaptiveThinking(model)) {
		betas.push(INTERLEAVED_THINKING_BETA);
	}
	return betas;
}

/**
 * Request headers, merged in this order: Keel's defaults, then `model.headers`, then
 * `options.headers` (the caller always wins). The key itself is set by the SDK client.
 */
export function buildAnthropicHeaders(
	model: Model<"anthropic-messages">,
	context: Context,
	options: AnthropicOptions,
	authMode: AnthropicAuthMode,
): Record<string, string> {
	const defaults: Record<string, string> = {
		accept: "application/json",
		// Keel runs in browsers too; the caller decides whether a key may live there.
		"anthropic-dangerous-direct-browser-access": "true",
	};
	const betas = anthropicBetas(model, context, options, authMode);
	if (betas.length > 0) defaults["anthropic-beta"] = betas.join(",");
	return mergeHeaders(defaults, model.headers, options.headers);
}

/** Merges header records case-insensitively; later records win. Keys come out lower-cased. */
export function mergeHeaders(...sources: (Record<string, string> | undefined)[]): Record<string, string> {
	const merged: Record<string, string> = {};
	for (const source of sources) {
		if (!source) continue;
		for (const [name, value] of Object.entries(source)) merged[name.toLowerCase()] = value;
	}
	return merged;
}

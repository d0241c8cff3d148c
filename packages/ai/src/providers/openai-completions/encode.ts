import { samplingParamsForRequest } from "../../message/sampling-params.js";
import { resolveCacheRetention } from "../../message/simple-options.js";
import type { Context, Model, ThinkingLevel } from "../../types.js";
import { findContextMessagesProblem } from "../../utils/context-messages-problem.js";
import { foldSystemMessages, keepSystemMessagesInPlace } from "../../utils/system-messages.js";
import { buildGitHubCopilotHeaders } from "../../wire/github-copilot-headers.js";
import { mergeHeaders } from "../../wire/headers.js";
import { type ResolvedOpenAICompletionsCompat, resolveOpenAICompletionsCompat } from "./compat.js";
import { encodeOpenAICompletionsMessages } from "./encode-messages.js";
import { encodeOpenAICompletionsTools, historyUsesTools } from "./encode-tools.js";
import type { OpenAICompletionsOptions } from "./options.js";
import type { CacheControl, ChatCompletionsRequest, ChatMessage } from "./wire-types.js";

/**
 * The request body for one call: pure, no I/O. Compat flags (detected from provider and base URL,
 * overridden by `model.compat`) decide every vendor-specific field.
 */
export function encodeOpenAICompletionsRequest(
	model: Model<"openai-completions">,
	context: Context,
	options: OpenAICompletionsOptions = {},
	compat: ResolvedOpenAICompletionsCompat = resolveOpenAICompletionsCompat(model),
): ChatCompletionsRequest {
	// Chat Completions takes `system` / `developer` messages anywhere in the conversation.
	// @see https://platform.openai.com/docs/api-reference/chat/create
	const resolved = compat.supportsMidConversationSystemMessages
		? keepSystemMessagesInPlace(context)
		: foldSystemMessages(context);
	const messages = encodeOpenAICompletionsMessages({
		model,
		compat,
		systemPrompt: resolved.systemPrompt,
		messages: resolved.messages,
	});
	const body: ChatCompletionsRequest = { model: model.id, messages, stream: true };
	if (compat.supportsUsageInStreaming) body.stream_options = { include_usage: true };
	if (compat.supportsStore) body.store = false;
	if (options.maxTokens !== undefined) body[compat.maxTokensField] = options.maxTokens;
	if (options.temperature !== undefined) body.temperature = options.temperature;

	if (resolved.tools && resolved.tools.length > 0) {
		body.tools = encodeOpenAICompletionsTools(resolved.tools, compat);
		if (compat.zaiToolStream) body.tool_stream = true;
	} else if (historyUsesTools(context.messages) && !compat.rejectsEmptyTools) {
		// LiteLLM and Anthropic-backed proxies reject tool calls in the history without a tools field.
		body.tools = [];
	}
	if (options.toolChoice !== undefined) body.tool_choice = options.toolChoice;
	if (options.responseFormat) {
		// https://platform.openai.com/docs/guides/structured-outputs
		const { name, description, schema, strict } = options.responseFormat;
		const jsonSchema = { name, schema: schema as Record<string, unknown> };
		body.response_format = {
			type: "json_schema",
			json_schema: {
				...jsonSchema,
				...(description ? { description } : {}),
				...(compat.supportsStrictMode ? { strict: strict === true } : {}),
			},
		};
	}

	encodeReasoning(body, model, compat, options.reasoningEffort);
	encodeCaching(body, compat, options);

	if (compat.openRouterRouting && model.baseUrl.includes("openrouter.ai")) {
		body.provider = { ...compat.openRouterRouting };
	}
	if (compat.vercelGatewayRouting && model.baseUrl.includes("ai-gateway.vercel.sh")) {
		const { only, order } = compat.vercelGatewayRouting;
		body.providerOptions = { gateway: { ...(only ? { only } : {}), ...(order ? { order } : {}) } };
	}
	// Last, so a sampling key overrides a named field: servers such as vLLM, SGLang and llama.cpp take
	// keys Keel does not model (top_k, min_p, repetition_penalty) beside OpenAI's top_p and penalties.
	// @see https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html#extra-parameters
	Object.assign(body, samplingParamsForRequest(model, options));
	return body;
}

/**
 * The vendor value for a level: `compat.reasoningEffortMap` first, then the model's
 * `thinkingLevelMap`; a level above high the model does not declare moves down to the nearest one it
 * declares (max → xhigh → high), as the model would reject the name.
 */
export function mapOpenAICompletionsReasoningEffort(
	model: Model<"openai-completions">,
	compat: ResolvedOpenAICompletionsCompat,
	level: ThinkingLevel,
): string {
	const mapped = compat.reasoningEffortMap[level];
	if (mapped !== undefined) return mapped;
	const fromModel = model.thinkingLevelMap?.[level];
	if (typeof fromModel === "string") return fromModel;
	if (level === "max") return mapOpenAICompletionsReasoningEffort(model, compat, "xhigh");
	if (level === "xhigh") return "high";
	return level;
}

function encodeReasoning(
	body: ChatCompletionsRequest,
	model: Model<"openai-completions">,
	compat: ResolvedOpenAICompletionsCompat,
	level: ThinkingLevel | undefined,
): void {
	if (!model.reasoning) return;
	const effort = level === undefined ? undefined : mapOpenAICompletionsReasoningEffort(model, compat, level);
	switch (compat.thinkingFormat) {
		case "zai":
		case "deepseek":
			// Both take an explicit switch; without one z.ai thinks by default on GLM-4.5+.
			body.thinking = { type: effort ? "enabled" : "disabled" };
			break;
		case "qwen":
			body.enable_thinking = effort !== undefined;
			break;
		case "qwen-chat-template":
			body.chat_template_kwargs = { enable_thinking: effort !== undefined };
			break;
		case "openrouter":
			if (effort) body.reasoning = { effort };
			return;
		default:
			break;
	}
	if (effort && compat.supportsReasoningEffort) body.reasoning_effort = effort;
}

function encodeCaching(
	body: ChatCompletionsRequest,
	compat: ResolvedOpenAICompletionsCompat,
	options: OpenAICompletionsOptions,
): void {
	const retention = resolveCacheRetention(options.cacheRetention);
	if (retention === "none") return;
	const long = retention === "long" && compat.supportsLongCacheRetention;
	if (compat.supportsPromptCacheKey && options.sessionId) body.prompt_cache_key = options.sessionId;
	if (compat.supportsPromptCacheKey && long) body.prompt_cache_retention = "24h";
	if (compat.cacheControlFormat === "anthropic") {
		const cacheControl: CacheControl = long ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
		addAnthropicCacheBreakpoints(body.messages, cacheControl);
	}
}

/**
 * Anthropic-style breakpoints (OpenRouter → Claude): one on the system prompt and one on the last
 * text of the last user or assistant message, so the whole prefix up to it can be read from cache.
 */
function addAnthropicCacheBreakpoints(messages: ChatMessage[], cacheControl: CacheControl): void {
	const system = messages[0];
	if (system && (system.role === "system" || system.role === "developer") && typeof system.content === "string") {
		system.content = [{ type: "text", text: system.content, cache_control: cacheControl }];
	}
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index];
		if (message.role !== "user" && message.role !== "assistant") continue;
		if (typeof message.content === "string") {
			if (message.content === "") return;
			message.content = [{ type: "text", text: message.content, cache_control: cacheControl }];
			return;
		}
		if (!message.content) return;
		for (let part = message.content.length - 1; part >= 0; part--) {
			const block = message.content[part];
			if (block.type === "text") {
				block.cache_control = cacheControl;
				return;
			}
		}
		return;
	}
}

/**
 * Request headers but the credential, in merge order: the model's, then those the vendor needs
 * (session affinity, GitHub Copilot's initiator/intent/vision), then `options.headers`, which win.
 * Merged case-insensitively; keys come out lower-cased.
 */
export function buildOpenAICompletionsHeaders(
	model: Model<"openai-completions">,
	context: Context,
	options: OpenAICompletionsOptions,
	compat: ResolvedOpenAICompletionsCompat,
): Record<string, string> {
	const affinity =
		compat.sendSessionAffinityHeaders && options.sessionId && resolveCacheRetention(options.cacheRetention) !== "none"
			? { "x-session-affinity": options.sessionId }
			: undefined;
	const copilot = model.provider === "github-copilot" ? buildGitHubCopilotHeaders(context) : undefined;
	return mergeHeaders(model.headers, affinity, copilot, options.headers);
}

/**
 * What is wrong with the model or context before anything is encoded, or undefined. Catches input
 * that would otherwise reach the vendor as a confusing 400 (or crash the encoder) and says what to fix.
 */
export function findOpenAICompletionsInputProblem(
	model: Model<"openai-completions">,
	context: Context,
): string | undefined {
	if (!model.id) return "The model has no id: set model.id to the vendor's model name";
	try {
		new URL(model.baseUrl);
	} catch {
		return `Model "${model.id}" has an invalid baseUrl ${JSON.stringify(model.baseUrl)}: expected an absolute URL such as http://127.0.0.1:11434/v1`;
	}
	return findContextMessagesProblem(context);
}

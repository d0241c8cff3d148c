import { samplingParamsForRequest } from "../../message/sampling-params.js";
import { resolveCacheRetention } from "../../message/simple-options.js";
import { clampThinkingLevel } from "../../models/thinking-levels.js";
import { providerToolSchema } from "../../schema/provider-tool-schema.js";
import type { Context, MistralConversationsCompat, Model, ThinkingLevel, Tool } from "../../types.js";
import { findContextMessagesProblem } from "../../utils/context-messages-problem.js";
import { foldSystemMessages } from "../../utils/system-messages.js";
import { mergeHeaders } from "../../wire/headers.js";
import { encodeMistralMessages } from "./encode-messages.js";
import type { MistralOptions } from "./options.js";
import type { MistralChatRequest, MistralFunctionTool } from "./wire-types.js";

/**
 * The request body for one call: pure, no I/O.
 * @see https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post
 */
export function encodeMistralRequest(
	model: Model<"mistral-conversations">,
	context: Context,
	options: MistralOptions = {},
): MistralChatRequest {
	// Mistral takes a `system` message only before the conversation: one after an assistant turn is
	// answered with 400 "Unexpected role 'system' after role 'assistant'". Every system message is
	// therefore replayed into the first one.
	const { systemPrompt, messages, tools } = foldSystemMessages(context);
	const body: MistralChatRequest = {
		model: model.id,
		messages: encodeMistralMessages(model, systemPrompt, messages),
		stream: true,
	};
	if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
	if (options.temperature !== undefined) body.temperature = options.temperature;
	if (tools && tools.length > 0) body.tools = tools.map(encodeTool);
	if (options.toolChoice !== undefined) body.tool_choice = options.toolChoice;
	if (options.parallelToolCalls !== undefined) body.parallel_tool_calls = options.parallelToolCalls;
	if (options.responseFormat) {
		// https://docs.mistral.ai/capabilities/structured_output/custom_structured_output
		const { name, description, schema, strict } = options.responseFormat;
		body.response_format = {
			type: "json_schema",
			json_schema: {
				name,
				schema: schema as Record<string, unknown>,
				strict: strict === true,
				...(description ? { description } : {}),
			},
		};
	}
	// https://docs.mistral.ai/studio-api/conversations/advanced/prompt-caching: a stable key per
	// conversation raises the chance that its prefix is read from the cache (billed at 10%).
	if (options.sessionId && resolveCacheRetention(options.cacheRetention) !== "none") {
		body.prompt_cache_key = options.sessionId;
	}
	if (model.reasoning) {
		if (options.promptMode) body.prompt_mode = options.promptMode;
		if (options.reasoningEffort !== undefined) {
			const effort = mapMistralReasoningEffort(model, options.reasoningEffort);
			if (effort !== undefined) body.reasoning_effort = effort;
		}
	}
	// Mistral's chat body has OpenAI's sampling names (top_p, presence_penalty, frequency_penalty,
	// random_seed); the keys go in as given, last, so they override a named field.
	// @see https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post
	Object.assign(body, samplingParamsForRequest(model, options));
	return body;
}

/** `strict: false` unless the tool asks: Mistral would otherwise hold TypeBox schemas to its strict-schema subset. */
function encodeTool(tool: Tool): MistralFunctionTool {
	return {
		type: "function",
		function: {
			name: tool.name,
			description: tool.description,
			parameters: providerToolSchema(tool, { api: "Mistral", strict: tool.strict === true }),
			strict: tool.strict === true,
		},
	};
}

/** How the model's reasoning is requested: its compat flag, else by family (Magistral or not). */
export function mistralReasoningFormat(
	model: Model<"mistral-conversations">,
): NonNullable<MistralConversationsCompat["reasoningFormat"]> {
	const declared = (model.compat as MistralConversationsCompat | undefined)?.reasoningFormat;
	if (declared) return declared;
	return /^magistral/i.test(model.id) ? "prompt-mode" : "reasoning-effort";
}

/**
 * The `reasoning_effort` value for a level: the nearest level the model supports (a level mapped to
 * null in `thinkingLevelMap` is not), then the map's value for it, else the level's name. "off"
 * and "none" become the map's "off" value, else "none", the value Mistral documents for thinking
 * minimally without a thinking chunk (https://docs.mistral.ai/capabilities/reasoning/adjustable).
 */
export function mapMistralReasoningEffort(
	model: Model<"mistral-conversations">,
	level: ThinkingLevel | "none",
): string | undefined {
	const map = model.thinkingLevelMap;
	const supported = level === "none" ? "off" : clampThinkingLevel({ reasoning: true, thinkingLevelMap: map }, level);
	const value = map?.[supported];
	if (supported === "off") return value === null ? undefined : (value ?? "none");
	return typeof value === "string" ? value : supported;
}

/**
 * Request headers but the credential, in merge order: the model's, then `x-affinity` with the
 * session id (Mistral routes requests with the same value to the same server, so a conversation's
 * prompt prefix is found in its cache), then `options.headers`, which win.
 */
export function buildMistralHeaders(
	model: Model<"mistral-conversations">,
	options: MistralOptions,
): Record<string, string> {
	const affinity =
		options.sessionId && resolveCacheRetention(options.cacheRetention) !== "none"
			? { "x-affinity": options.sessionId }
			: undefined;
	return mergeHeaders(model.headers, affinity, options.headers);
}

/** What is wrong with the model or context before anything is encoded, or undefined. */
export function findMistralInputProblem(model: Model<"mistral-conversations">, context: Context): string | undefined {
	if (!model.id) return "The model has no id: set model.id to Mistral's model name, for example mistral-large-latest";
	return findContextMessagesProblem(context);
}

import type Anthropic from "@anthropic-ai/sdk";
import { NonRetryableError } from "../../call/provider-stream.js";
import { resolveCacheRetention } from "../../message/simple-options.js";
import { normalizeAnthropicToolCallId } from "../../message/tool-call-ids.js";
import { transformMessages } from "../../message/transform-messages.js";
import { providerToolSchema } from "../../schema/provider-tool-schema.js";
import type { Context, Model, ResponseFormat, Tool } from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { keepSystemMessagesInPlace } from "../../utils/system-messages.js";
import { type CacheControl, encodeAnthropicMessages } from "./encode-messages.js";
import { encodeAnthropicToolChoice, encodeAnthropicTools } from "./encode-tools.js";
import { claudeTakesDisabledThinking, resolveClaudeCapabilities } from "./model-capabilities.js";
import type { AnthropicOptions } from "./options.js";
import { claudeSamplingFields } from "./sampling.js";
import { anthropicOutputSchema, supportsAnthropicStructuredOutputs } from "./structured-outputs.js";
import { isThinkingEnabled, usesAdaptiveThinking } from "./thinking.js";

// SDK 1.12 no longer declares `temperature` (Anthropic deprecates it for new models), but the API
// still accepts it for the models that support sampling settings, so Keel sends it when asked.
export type AnthropicRequestBody = Anthropic.Messages.MessageCreateParamsStreaming & { temperature?: number };

/** Anthropic's smallest accepted thinking budget. */
export const MIN_THINKING_BUDGET_TOKENS = 1024;

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
	// Models whose default display is "omitted" would stream thinking blocks with no text.
	const displayValue =
		options.thinkingDisplay ?? (resolveClaudeCapabilities(model).omitsThinkingByDefault ? "summarized" : undefined);
	const display = displayValue ? { display: displayValue } : {};
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

/** `strict: true` on the tools that ask for it, where the model takes strict tools. */
function markStrictTools(
	tools: Anthropic.Messages.Tool[],
	source: readonly Tool[],
	model: Model<"anthropic-messages">,
): void {
	if (!source.some((tool) => tool.strict) || !supportsAnthropicStructuredOutputs(model)) return;
	for (const [index, tool] of source.entries()) {
		if (!tool.strict) continue;
		// Checks the rules before the call (the schema was converted once already; this reads the cache).
		providerToolSchema(tool, { api: "Anthropic", strict: true });
		tools[index].strict = true;
	}
}

/**
 * JSON outputs: `output_config.format` beside the effort that adaptive thinking may have set. A
 * model without structured outputs would reject the field, so asking for it is an error here;
 * `completeObject` uses a forced tool call for those models instead.
 * @see https://docs.claude.com/en/docs/build-with-claude/structured-outputs
 */
function encodeOutputFormat(
	body: AnthropicRequestBody,
	model: Model<"anthropic-messages">,
	format: ResponseFormat,
): void {
	if (!supportsAnthropicStructuredOutputs(model)) {
		throw new NonRetryableError(
			`Model "${model.id}" does not take structured outputs (output_config.format); set model.compat.supportsStructuredOutputs if it does, or use completeObject, which falls back to a forced tool call`,
		);
	}
	const schema = anthropicOutputSchema(format.schema) as Record<string, unknown>;
	body.output_config = { ...body.output_config, format: { type: "json_schema", schema } };
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
	const capabilities = resolveClaudeCapabilities(model);
	// System messages before the conversation join the top-level `system`; later ones stay in place.
	const { systemPrompt, messages, tools } = keepSystemMessagesInPlace(context);
	const body: AnthropicRequestBody = {
		model: model.id,
		max_tokens: maxTokens,
		// Messages from other models (or other APIs) are made acceptable first: foreign thinking
		// becomes text, ids are normalised to Anthropic's pattern, orphaned tool calls are answered.
		messages: encodeAnthropicMessages(
			transformMessages(messages, model, normalizeAnthropicToolCallId),
			model,
			cacheControl,
			capabilities.supportsMidConversationSystemMessages,
		),
		stream: true,
	};
	if (systemPrompt && systemPrompt.trim() !== "") {
		body.system = [
			{
				type: "text",
				text: sanitizeSurrogates(systemPrompt),
				...(cacheControl ? { cache_control: cacheControl } : {}),
			},
		];
	}
	const thinking = isThinkingEnabled(model, options);
	if (thinking) Object.assign(body, encodeThinking(model, options, maxTokens));
	// Without a thinking field a model that thinks by default would think anyway; "disabled" says
	// no, on the models that accept it.
	// @see https://platform.claude.com/docs/en/build-with-claude/extended-thinking
	else if (claudeTakesDisabledThinking(model)) body.thinking = { type: "disabled" };
	// The API only accepts the default temperature (1) together with thinking, and models without
	// sampling settings reject it altogether.
	if (options.temperature !== undefined && !thinking && capabilities.supportsTemperature) {
		body.temperature = options.temperature;
	}
	if (capabilities.supportsTemperature) Object.assign(body, claudeSamplingFields(model, options, thinking));
	if (tools && tools.length > 0) {
		const encodedTools = encodeAnthropicTools(tools, model.compat?.supportsEagerToolInputStreaming === true);
		markStrictTools(encodedTools, tools, model);
		body.tools = encodedTools;
	}
	if (options.responseFormat) encodeOutputFormat(body, model, options.responseFormat);
	if (options.toolChoice !== undefined) body.tool_choice = encodeAnthropicToolChoice(options.toolChoice);
	const userId = options.metadata?.user_id;
	if (typeof userId === "string") body.metadata = { user_id: userId };
	return body;
}

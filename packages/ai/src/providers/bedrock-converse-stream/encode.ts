import { NonRetryableError } from "../../call/provider-stream.js";
import { resolveCacheRetention } from "../../message/simple-options.js";
import { normalizeAnthropicToolCallId } from "../../message/tool-call-ids.js";
import { transformMessages } from "../../message/transform-messages.js";
import { providerToolSchema } from "../../schema/provider-tool-schema.js";
import type { Context, Model, Tool } from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { foldSystemMessages } from "../../utils/system-messages.js";
import { claudeIdOmitsThinkingByDefault, claudeIdTakesTemperature } from "../anthropic/model-capabilities.js";
import { usesAdaptiveThinking } from "../anthropic/thinking.js";
import { resolveBedrockCompat } from "./compat.js";
import { type DocumentType, encodeBedrockMessages } from "./encode-messages.js";
import type { BedrockOptions, BedrockToolChoice } from "./options.js";
import { bedrockSamplingFields } from "./sampling.js";
import type {
	BedrockTool,
	CachePointBlock,
	ConverseStreamRequest,
	SystemContentBlock,
	ToolChoice,
} from "./wire-types.js";

type BedrockModel = Model<"bedrock-converse-stream">;

/** Claude's smallest accepted thinking budget. */
export const MIN_THINKING_BUDGET_TOKENS = 1024;

/** Claude's beta that lets budget-thinking models think between tool calls, passed as `anthropic_beta`. */
export const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";

/** The cache point for this request, or undefined when caching is off or the model has none. */
function bedrockCachePoint(model: BedrockModel, options: BedrockOptions): CachePointBlock | undefined {
	const retention = resolveCacheRetention(options.cacheRetention);
	if (retention === "none" || !resolveBedrockCompat(model).supportsPromptCache) return undefined;
	return retention === "long" ? { type: "default", ttl: "1h" } : { type: "default" };
}

/** Converse tool specs: the TypeBox schema goes in `inputSchema.json` as it is. */
function encodeBedrockTools(tools: readonly Tool[]): BedrockTool[] {
	return tools.map((tool): BedrockTool => {
		const schema = providerToolSchema(tool, { api: "Bedrock", strict: false });
		return {
			toolSpec: {
				name: tool.name,
				description: tool.description,
				inputSchema: { json: schema as DocumentType },
			},
		};
	});
}

function encodeBedrockToolChoice(choice: Exclude<BedrockToolChoice, "none">): ToolChoice {
	if (choice === "auto") return { auto: {} };
	if (choice === "any") return { any: {} };
	return { tool: { name: choice.tool } };
}

/** Claude's thinking fields, which Converse passes through `additionalModelRequestFields`. */
function claudeThinkingFields(
	model: BedrockModel,
	options: BedrockOptions,
	maxTokens: number,
): Record<string, unknown> {
	if (usesAdaptiveThinking(model)) {
		// Claude Opus 4.7 and later stream empty thinking unless asked for a summary.
		const display = claudeIdOmitsThinkingByDefault(model.id) ? { display: "summarized" } : {};
		return { thinking: { type: "adaptive", ...display }, output_config: { effort: options.effort ?? "high" } };
	}
	const budget = options.thinkingBudgetTokens ?? MIN_THINKING_BUDGET_TOKENS;
	if (!Number.isInteger(budget) || budget < MIN_THINKING_BUDGET_TOKENS) {
		throw new NonRetryableError(
			`thinkingBudgetTokens must be an integer of at least ${MIN_THINKING_BUDGET_TOKENS} (Claude's minimum), got ${budget}; raise maxTokens or lower the thinking level`,
		);
	}
	if (budget >= maxTokens) {
		throw new NonRetryableError(
			`thinkingBudgetTokens (${budget}) must be below maxTokens (${maxTokens}): thinking counts toward maxTokens`,
		);
	}
	const fields: Record<string, unknown> = { thinking: { type: "enabled", budget_tokens: budget } };
	if (options.interleavedThinking !== false) fields.anthropic_beta = [INTERLEAVED_THINKING_BETA];
	return fields;
}

/**
 * The ConverseStream request for a context. Pure: no I/O, no clock, no environment but the cache
 * retention default. `modelId` is the catalogue id: a model id, a cross-region inference profile id
 * (`us.anthropic.claude-…`) or an application inference profile ARN all go there unchanged.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 */
export function encodeBedrockRequest(
	model: BedrockModel,
	context: Context,
	options: BedrockOptions = {},
): ConverseStreamRequest {
	const compat = resolveBedrockCompat(model);
	const cachePoint = bedrockCachePoint(model, options);
	const maxTokens = options.maxTokens ?? Math.floor(model.maxTokens / 3);
	if (!Number.isInteger(maxTokens) || maxTokens < 0) {
		throw new NonRetryableError(`maxTokens must be a non-negative integer, got ${maxTokens}`);
	}
	// Converse messages are user or assistant only: every system message is replayed into the
	// `system` blocks (or, for models without them, the text that opens the first user message).
	// @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html
	const folded = foldSystemMessages(context);
	const tools = folded.tools ?? [];
	const sendsTools = tools.length > 0 && compat.supportsToolUse && options.toolChoice !== "none";
	const messages = transformMessages(folded.messages, model, normalizeAnthropicToolCallId);
	const systemPrompt = folded.systemPrompt && folded.systemPrompt.trim() !== "" ? folded.systemPrompt : undefined;
	const request: ConverseStreamRequest = {
		modelId: model.id,
		messages: encodeBedrockMessages(
			systemPrompt && !compat.supportsSystemPrompt
				? [{ role: "user", content: systemPrompt, timestamp: 0 }, ...messages]
				: messages,
			model,
			// Converse rejects toolUse and toolResult blocks in a request without a toolConfig, so a
			// request that sends no tools carries earlier calls and results as text.
			{ ...compat, supportsToolUse: sendsTools },
			cachePoint,
		),
	};
	if (systemPrompt && compat.supportsSystemPrompt) {
		const system: SystemContentBlock[] = [{ text: sanitizeSurrogates(systemPrompt) }];
		if (cachePoint) system.push({ cachePoint });
		request.system = system;
	}
	const thinking = compat.claudeThinking && model.reasoning && options.thinkingEnabled === true;
	request.inferenceConfig = { maxTokens };
	// Claude accepts only the default temperature together with thinking, and Claude Opus 4.7 and
	// later not at all (see claudeIdTakesTemperature).
	const takesTemperature = !compat.claudeThinking || claudeIdTakesTemperature(model.id);
	if (options.temperature !== undefined && !thinking && takesTemperature) {
		request.inferenceConfig.temperature = options.temperature;
	}
	if (thinking) request.additionalModelRequestFields = claudeThinkingFields(model, options, maxTokens) as never;
	const sampling = bedrockSamplingFields(model, options, {
		takesSampling: takesTemperature,
		thinking,
		claude: compat.claudeThinking === true,
	});
	Object.assign(request.inferenceConfig, sampling.inferenceConfig);
	if (Object.keys(sampling.additional).length > 0) {
		request.additionalModelRequestFields = {
			...(request.additionalModelRequestFields as Record<string, unknown> | undefined),
			...sampling.additional,
		} as never;
	}
	if (sendsTools) {
		request.toolConfig = { tools: encodeBedrockTools(tools) };
		const choice = options.toolChoice;
		if (choice !== undefined && choice !== "none") request.toolConfig.toolChoice = encodeBedrockToolChoice(choice);
	}
	if (options.requestMetadata) request.requestMetadata = options.requestMetadata;
	return request;
}

// The anthropic-messages provider: Claude through the Messages API (POST /v1/messages, stream: true).
import type { Context, Model, SimpleStreamOptions } from "../../types.js";
import type { AssistantMessageEventStream } from "../../utils/event-stream.js";
import { createProviderStream } from "../shared/provider-stream.js";
import { adjustMaxTokensForThinking, buildBaseOptions } from "../shared/simple-options.js";
import { classifyAnthropicError } from "./errors.js";
import type { AnthropicOptions } from "./options.js";
import { effortForThinkingLevel, usesAdaptiveThinking } from "./thinking.js";
import { runAnthropicAttempt } from "./transport.js";

export { AnthropicStreamDecoder, decodeAnthropicStreamEvents } from "./decode.js";
export { encodeAnthropicRequest } from "./encode.js";
export { buildAnthropicHeaders } from "./encode-headers.js";
export type { AnthropicEffort, AnthropicOptions, AnthropicToolChoice } from "./options.js";
export { mapAnthropicStopReason } from "./stop-reason.js";

/** Streams one Claude response with Anthropic-specific options. Never throws; see StreamFunction. */
export function streamAnthropic(
	model: Model<"anthropic-messages">,
	context: Context,
	options: AnthropicOptions = {},
): AssistantMessageEventStream {
	return createProviderStream(model, options, (attempt) => runAnthropicAttempt(attempt, context, options), {
		// An injected client carries its own credentials.
		requiresApiKey: options.client === undefined,
		classifyError: classifyAnthropicError,
	});
}

/**
 * Unified options: `reasoning` becomes adaptive thinking with an effort (Claude 4.6 and later) or a
 * token budget on top of maxTokens (older models). No reasoning level means no thinking parameter.
 */
export function streamSimpleAnthropic(
	model: Model<"anthropic-messages">,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	const base = buildBaseOptions(model, options);
	const level = options?.reasoning;
	if (!level || !model.reasoning) return streamAnthropic(model, context, { ...base, thinkingEnabled: false });
	if (usesAdaptiveThinking(model)) {
		return streamAnthropic(model, context, {
			...base,
			thinkingEnabled: true,
			effort: effortForThinkingLevel(model, level),
		});
	}
	const adjusted = adjustMaxTokensForThinking(
		base.maxTokens ?? model.maxTokens,
		model.maxTokens,
		level,
		options?.thinkingBudgets,
	);
	return streamAnthropic(model, context, {
		...base,
		maxTokens: adjusted.maxTokens,
		thinkingEnabled: true,
		thinkingBudgetTokens: adjusted.thinkingBudget,
	});
}

// The anthropic-messages provider: Claude through the Messages API (POST /v1/messages, stream: true).

import {
	type ProviderDefinition,
	streamSimpleWithDefinition,
	streamWithDefinition,
} from "../../call/provider-definition.js";
import { findEnvKeys } from "../../env-api-keys.js";
import { buildBaseOptions } from "../../message/simple-options.js";
import type { Context, Model, SimpleStreamOptions } from "../../types.js";
import type { AssistantMessageEventStream } from "../../utils/event-stream.js";
import { classifyAnthropicError } from "./errors.js";
import type { AnthropicOptions } from "./options.js";
import { claudeThinkingFields } from "./thinking.js";
import { runAnthropicAttempt } from "./transport.js";

export { AnthropicStreamDecoder, decodeAnthropicStreamEvents } from "./decode.js";
export { encodeAnthropicRequest } from "./encode.js";
export { buildAnthropicHeaders } from "./encode-headers.js";
export type { AnthropicClient, AnthropicEffort, AnthropicOptions, AnthropicToolChoice } from "./options.js";
export {
	type AnthropicContentBlockSignature,
	type AnthropicToolCallerSignature,
	anthropicContentBlock,
	anthropicToolCaller,
} from "./server-blocks.js";
export { mapAnthropicStopReason } from "./stop-reason.js";

/**
 * Unified options: `reasoning` becomes adaptive thinking with an effort (Claude 4.6 and later) or a
 * token budget on top of maxTokens (older models). No reasoning level means no thinking parameter.
 */
export function anthropicOptionsFromSimple(
	model: Model<"anthropic-messages">,
	options: SimpleStreamOptions | undefined,
): AnthropicOptions {
	const base = buildBaseOptions(model, options);
	const level = options?.reasoning;
	if (!level || !model.reasoning) return { ...base, thinkingEnabled: false };
	return { ...base, ...claudeThinkingFields(model, base.maxTokens, level, options?.thinkingBudgets) };
}

export const anthropicMessagesProvider: ProviderDefinition<"anthropic-messages", AnthropicOptions> = {
	api: "anthropic-messages",
	simpleOptions: anthropicOptionsFromSimple,
	// An injected client carries its own credentials. A provider with no key variable (defineModel's
	// "custom": a local or self-hosted Anthropic-compatible server) is called without a key, as the
	// OpenAI-compatible providers are.
	requiresApiKey: (model, options) => options.client === undefined && findEnvKeys(model.provider).length > 0,
	classifyError: classifyAnthropicError,
	runAttempt: runAnthropicAttempt,
};

/** Streams one Claude response with Anthropic-specific options. Never throws; see StreamFunction. */
export function streamAnthropic(
	model: Model<"anthropic-messages">,
	context: Context,
	options?: AnthropicOptions,
): AssistantMessageEventStream {
	return streamWithDefinition(anthropicMessagesProvider, model, context, options);
}

/** Streams one Claude response with unified options. Never throws; see StreamFunction. */
export function streamSimpleAnthropic(
	model: Model<"anthropic-messages">,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	return streamSimpleWithDefinition(anthropicMessagesProvider, model, context, options);
}

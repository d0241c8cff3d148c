// @keel/ai/openai-completions: OpenAI Chat Completions and every vendor that speaks it (Groq,
// Cerebras, xAI, OpenRouter, z.ai, DeepSeek, Mistral-compatible gateways, Ollama, vLLM, LM Studio…).

import {
	type ProviderDefinition,
	streamSimpleWithDefinition,
	streamWithDefinition,
} from "../../call/provider-definition.js";
import { findEnvKeys } from "../../env-api-keys.js";
import { buildBaseOptions } from "../../message/simple-options.js";
import type { Context, Model, SimpleStreamOptions } from "../../types.js";
import type { AssistantMessageEventStream } from "../../utils/event-stream.js";
import { classifyOpenAICompletionsError } from "./errors.js";
import type { OpenAICompletionsOptions } from "./options.js";
import { runOpenAICompletionsAttempt } from "./transport.js";

export { isSelfHostedOpenAICompatible, resolveOpenAICompletionsCompat } from "./compat.js";
export {
	mapOpenAICompletionsStopReason,
	mapOpenAICompletionsUsage,
	OpenAICompletionsStreamDecoder,
} from "./decode.js";
export { buildOpenAICompletionsHeaders, encodeOpenAICompletionsRequest } from "./encode.js";
export type { OpenAICompletionsOptions } from "./options.js";

/** The unified options: `reasoning` becomes the vendor's thinking switch; `toolChoice` passes through. */
export function openAICompletionsOptionsFromSimple(
	model: Model<"openai-completions">,
	options: (SimpleStreamOptions & Pick<OpenAICompletionsOptions, "toolChoice">) | undefined,
): OpenAICompletionsOptions {
	return { ...buildBaseOptions(model, options), reasoningEffort: options?.reasoning, toolChoice: options?.toolChoice };
}

export const openAICompletionsProvider: ProviderDefinition<"openai-completions", OpenAICompletionsOptions> = {
	api: "openai-completions",
	simpleOptions: openAICompletionsOptionsFromSimple,
	// Providers Keel knows no key variable for (local servers) need no key.
	requiresApiKey: (model) => findEnvKeys(model.provider).length > 0,
	classifyError: classifyOpenAICompletionsError,
	runAttempt: runOpenAICompletionsAttempt,
};

/**
 * Streams one Chat Completions response (`stream: true`). Never throws: every failure is one
 * `error` event.
 */
export function streamOpenAICompletions(
	model: Model<"openai-completions">,
	context: Context,
	options?: OpenAICompletionsOptions,
): AssistantMessageEventStream {
	return streamWithDefinition(openAICompletionsProvider, model, context, options);
}

/** The unified entry point: `reasoning` becomes the vendor's thinking switch; `toolChoice` passes through. */
export function streamSimpleOpenAICompletions(
	model: Model<"openai-completions">,
	context: Context,
	options?: SimpleStreamOptions & Pick<OpenAICompletionsOptions, "toolChoice">,
): AssistantMessageEventStream {
	return streamSimpleWithDefinition(openAICompletionsProvider, model, context, options);
}

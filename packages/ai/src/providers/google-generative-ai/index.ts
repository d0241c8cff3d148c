// The google-generative-ai provider: Gemini through the Gemini API
// (POST {baseUrl}/models/{model}:streamGenerateContent?alt=sse). Vertex AI reuses this folder's
// encoder, decoder and errors with its own URL and credentials (providers/google-vertex).

import {
	type ProviderDefinition,
	streamSimpleWithDefinition,
	streamWithDefinition,
} from "../../call/provider-definition.js";
import { buildBaseOptions } from "../../message/simple-options.js";
import type { Api, Context, Model, SimpleStreamOptions } from "../../types.js";
import type { AssistantMessageEventStream } from "../../utils/event-stream.js";
import { classifyGoogleError } from "./errors.js";
import type { GoogleOptions } from "./options.js";
import { geminiThinkingBudget, geminiThinkingLevel, usesThinkingLevels } from "./thinking.js";
import { runGoogleAttempt } from "./transport.js";

export { GeminiStreamDecoder, geminiUsage } from "./decode.js";
export { encodeGeminiRequest } from "./encode.js";
export { SKIP_THOUGHT_SIGNATURE } from "./encode-messages.js";
export type { GoogleOptions, GoogleThinkingLevel, GoogleToolChoice } from "./options.js";
export { mapGeminiFinishReason } from "./stop-reason.js";

/**
 * Unified options: a reasoning level becomes a thinking level (Gemini 3 and later) or a token
 * budget (Gemini 2.5: Pro 128/2048/8192/32768, Flash 128/2048/8192/24576, custom budgets first,
 * other models -1, the model decides). No level sends no thinking configuration: the model's
 * default applies. maxTokens is not raised for thinking (Gemini counts it separately).
 */
export function googleOptionsFromSimple(
	model: Model<Api>,
	options: (SimpleStreamOptions & Pick<GoogleOptions, "toolChoice" | "cachedContent">) | undefined,
): GoogleOptions {
	const base: GoogleOptions = {
		...buildBaseOptions(model, options),
		toolChoice: options?.toolChoice,
		cachedContent: options?.cachedContent,
	};
	const level = options?.reasoning;
	if (!level || !model.reasoning) return { ...base, thinking: { enabled: false } };
	if (usesThinkingLevels(model))
		return { ...base, thinking: { enabled: true, level: geminiThinkingLevel(model, level) } };
	return {
		...base,
		thinking: { enabled: true, budgetTokens: geminiThinkingBudget(model, level, options?.thinkingBudgets) },
	};
}

export const googleGenerativeAIProvider: ProviderDefinition<"google-generative-ai", GoogleOptions> = {
	api: "google-generative-ai",
	simpleOptions: googleOptionsFromSimple,
	classifyError: classifyGoogleError,
	runAttempt: runGoogleAttempt,
};

/** Streams one Gemini response with Gemini options. Never throws; see StreamFunction. */
export function streamGoogle(
	model: Model<"google-generative-ai">,
	context: Context,
	options?: GoogleOptions,
): AssistantMessageEventStream {
	return streamWithDefinition(googleGenerativeAIProvider, model, context, options);
}

/** Streams one Gemini response with unified options. Never throws; see StreamFunction. */
export function streamSimpleGoogle(
	model: Model<"google-generative-ai">,
	context: Context,
	options?: SimpleStreamOptions & Pick<GoogleOptions, "toolChoice" | "cachedContent">,
): AssistantMessageEventStream {
	return streamSimpleWithDefinition(googleGenerativeAIProvider, model, context, options);
}

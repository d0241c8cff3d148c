// The OpenAI Responses API (POST /responses, stream: true). Azure reuses encode, decode and
// transport from this folder with its own URL, credential header and deployment resolution.

import {
	type ProviderDefinition,
	streamSimpleWithDefinition,
	streamWithDefinition,
} from "../../call/provider-definition.js";
import { findEnvKeys } from "../../env-api-keys.js";
import { buildBaseOptions } from "../../message/simple-options.js";
import type { Context, Model } from "../../types.js";
import type { AssistantMessageEventStream } from "../../utils/event-stream.js";
import { classifyOpenAIResponsesError } from "./errors.js";
import type { OpenAIResponsesOptions, OpenAIResponsesSimpleOptions } from "./options.js";
import { runOpenAIResponsesAttempt } from "./transport.js";

export { OpenAIResponsesDecoder } from "./decode.js";
export { buildOpenAIResponsesHeaders, encodeOpenAIResponsesRequest } from "./encode.js";
export type { OpenAIResponsesOptions, OpenAIResponsesSimpleOptions } from "./options.js";

export const openAIResponsesProvider: ProviderDefinition<"openai-responses", OpenAIResponsesOptions> = {
	api: "openai-responses",
	simpleOptions: toResponsesOptions,
	// Providers with a known key variable (openai, github-copilot) need a key; a custom or local
	// server (defineModel, LM Studio's /v1/responses) is called without one.
	requiresApiKey: (model) => findEnvKeys(model.provider).length > 0,
	classifyError: classifyOpenAIResponsesError,
	runAttempt: runOpenAIResponsesAttempt,
};

/** Streams one response from the OpenAI Responses API. Never throws; failures end in an error event. */
export function streamOpenAIResponses(
	model: Model<"openai-responses">,
	context: Context,
	options?: OpenAIResponsesOptions,
): AssistantMessageEventStream {
	return streamWithDefinition(openAIResponsesProvider, model, context, options);
}

/** The unified call: `reasoning` becomes the reasoning effort (thinking off when undefined). */
export function streamSimpleOpenAIResponses(
	model: Model<"openai-responses">,
	context: Context,
	options?: OpenAIResponsesSimpleOptions,
): AssistantMessageEventStream {
	return streamSimpleWithDefinition(openAIResponsesProvider, model, context, options);
}

/** Maps unified options onto Responses options (shared with Azure and Codex). */
export function toResponsesOptions(
	model: Model<"openai-responses" | "azure-openai-responses" | "openai-codex-responses">,
	options: OpenAIResponsesSimpleOptions | undefined,
): OpenAIResponsesOptions {
	return {
		...buildBaseOptions(model, options),
		reasoningEffort: options?.reasoning,
		// A summary style alone must not switch reasoning on in the unified call.
		reasoningSummary: options?.reasoning ? options.reasoningSummary : undefined,
		serviceTier: options?.serviceTier,
	};
}

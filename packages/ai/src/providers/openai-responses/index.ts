// The OpenAI Responses API (`client.responses.create`, stream: true). Azure reuses encode,
// decode and transport from this folder with its own client and URL resolution.
import OpenAI from "openai";
import { findEnvKeys } from "../../env-api-keys.js";
import type { Context, Model } from "../../types.js";
import type { AssistantMessageEventStream } from "../../utils/event-stream.js";
import {
	type ProviderDefinition,
	streamSimpleWithDefinition,
	streamWithDefinition,
} from "../shared/provider-definition.js";
import { openAIClientOptions } from "../shared/sdk-client-options.js";
import { buildBaseOptions } from "../shared/simple-options.js";
import { buildOpenAIResponsesHeaders, encodeOpenAIResponsesRequest } from "./encode.js";
import type { OpenAIResponsesOptions, OpenAIResponsesSimpleOptions } from "./options.js";
import { classifyOpenAIResponsesError, runOpenAIResponsesAttempt } from "./transport.js";

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
	runAttempt: async (attempt, context, options) => {
		const { model } = attempt;
		const client = new OpenAI({
			...openAIClientOptions(model, attempt.apiKey, buildOpenAIResponsesHeaders(model, options, context)),
			baseURL: model.baseUrl,
		});
		const body = encodeOpenAIResponsesRequest(model, context, options);
		await runOpenAIResponsesAttempt(attempt, client, body, "OpenAI");
	},
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

/** Maps unified options onto Responses options (shared with Azure). */
export function toResponsesOptions(
	model: Model<"openai-responses" | "azure-openai-responses">,
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

// Azure OpenAI Responses: the OpenAI Responses wire format with Azure's api-key header and
// api-version query. Encode, decode and the Responses transport are the openai-responses ones.

import {
	type ProviderDefinition,
	streamSimpleWithDefinition,
	streamWithDefinition,
} from "../../call/provider-definition.js";
import type { Context, Model } from "../../types.js";
import type { AssistantMessageEventStream } from "../../utils/event-stream.js";
import { classifyOpenAIResponsesError } from "../openai-responses/errors.js";
import { toResponsesOptions } from "../openai-responses/index.js";
import type { AzureOpenAIResponsesOptions, AzureOpenAIResponsesSimpleOptions } from "./options.js";
import { runAzureOpenAIResponsesAttempt } from "./transport.js";

export type { AzureOpenAIResponsesOptions, AzureOpenAIResponsesSimpleOptions } from "./options.js";
export {
	type AzureTarget,
	type AzureTargetOptions,
	DEFAULT_AZURE_API_VERSION,
	parseDeploymentNameMap,
	resolveAzureTarget,
} from "./resolve-azure-target.js";

/** Unified options: the Responses mapping, plus the Azure target fields. */
export function azureOptionsFromSimple(
	model: Model<"azure-openai-responses">,
	options: AzureOpenAIResponsesSimpleOptions | undefined,
): AzureOpenAIResponsesOptions {
	return {
		...toResponsesOptions(model, options),
		azureBaseUrl: options?.azureBaseUrl,
		azureResourceName: options?.azureResourceName,
		azureApiVersion: options?.azureApiVersion,
		azureDeploymentName: options?.azureDeploymentName,
	};
}

export const azureOpenAIResponsesProvider: ProviderDefinition<"azure-openai-responses", AzureOpenAIResponsesOptions> = {
	api: "azure-openai-responses",
	simpleOptions: azureOptionsFromSimple,
	classifyError: classifyOpenAIResponsesError,
	runAttempt: runAzureOpenAIResponsesAttempt,
};

/** Streams one response from an Azure OpenAI deployment. Never throws; failures end in an error event. */
export function streamAzureOpenAIResponses(
	model: Model<"azure-openai-responses">,
	context: Context,
	options?: AzureOpenAIResponsesOptions,
): AssistantMessageEventStream {
	return streamWithDefinition(azureOpenAIResponsesProvider, model, context, options);
}

/** The unified call: `reasoning` becomes the reasoning effort (thinking off when undefined). */
export function streamSimpleAzureOpenAIResponses(
	model: Model<"azure-openai-responses">,
	context: Context,
	options?: AzureOpenAIResponsesSimpleOptions,
): AssistantMessageEventStream {
	return streamSimpleWithDefinition(azureOpenAIResponsesProvider, model, context, options);
}

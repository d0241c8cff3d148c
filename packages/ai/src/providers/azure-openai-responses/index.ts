// Azure OpenAI Responses: the OpenAI Responses wire format through the SDK's AzureOpenAI client
// (api-key header, api-version query). Encode, decode and transport are the openai-responses ones.
import { AzureOpenAI } from "openai";
import type { Context, Model } from "../../types.js";
import type { AssistantMessageEventStream } from "../../utils/event-stream.js";
import { buildOpenAIResponsesHeaders, encodeOpenAIResponsesRequest } from "../openai-responses/encode.js";
import { toResponsesOptions } from "../openai-responses/index.js";
import { classifyOpenAIResponsesError, runOpenAIResponsesAttempt } from "../openai-responses/transport.js";
import { createProviderStream } from "../shared/provider-stream.js";
import { openAIClientOptions } from "../shared/sdk-client-options.js";
import type { AzureOpenAIResponsesOptions, AzureOpenAIResponsesSimpleOptions } from "./options.js";
import { resolveAzureTarget } from "./resolve-azure-target.js";

export type { AzureOpenAIResponsesOptions, AzureOpenAIResponsesSimpleOptions } from "./options.js";
export {
	type AzureTarget,
	type AzureTargetOptions,
	DEFAULT_AZURE_API_VERSION,
	parseDeploymentNameMap,
	resolveAzureTarget,
} from "./resolve-azure-target.js";

/** Streams one response from an Azure OpenAI deployment. Never throws; failures end in an error event. */
export function streamAzureOpenAIResponses(
	model: Model<"azure-openai-responses">,
	context: Context,
	options?: AzureOpenAIResponsesOptions,
): AssistantMessageEventStream {
	return createProviderStream(
		model,
		options,
		async (attempt) => {
			const target = resolveAzureTarget(model, options);
			const client = new AzureOpenAI({
				...openAIClientOptions(model, attempt.apiKey, buildOpenAIResponsesHeaders(model, options, context)),
				baseURL: target.baseUrl,
				apiVersion: target.apiVersion,
			});
			const body = encodeOpenAIResponsesRequest(model, context, options, { modelName: target.deploymentName });
			await runOpenAIResponsesAttempt(attempt, client, body, "Azure OpenAI");
		},
		{ classifyError: classifyOpenAIResponsesError },
	);
}

/** The unified call: `reasoning` becomes the reasoning effort (thinking off when undefined). */
export function streamSimpleAzureOpenAIResponses(
	model: Model<"azure-openai-responses">,
	context: Context,
	options?: AzureOpenAIResponsesSimpleOptions,
): AssistantMessageEventStream {
	return streamAzureOpenAIResponses(model, context, {
		...toResponsesOptions(model, options),
		azureBaseUrl: options?.azureBaseUrl,
		azureResourceName: options?.azureResourceName,
		azureApiVersion: options?.azureApiVersion,
		azureDeploymentName: options?.azureDeploymentName,
	});
}

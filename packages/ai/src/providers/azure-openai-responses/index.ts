// Azure OpenAI Responses: the OpenAI Responses wire format with Azure's api-key header and
// api-version query. Encode, decode and the Responses transport are the openai-responses ones.
import type { Context, Model } from "../../types.js";
import type { AssistantMessageEventStream } from "../../utils/event-stream.js";
import { classifyOpenAIResponsesError } from "../openai-responses/errors.js";
import { toResponsesOptions } from "../openai-responses/index.js";
import { createProviderStream } from "../shared/provider-stream.js";
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

/** Streams one response from an Azure OpenAI deployment. Never throws; failures end in an error event. */
export function streamAzureOpenAIResponses(
	model: Model<"azure-openai-responses">,
	context: Context,
	options?: AzureOpenAIResponsesOptions,
): AssistantMessageEventStream {
	return createProviderStream(
		model,
		options,
		(attempt) => runAzureOpenAIResponsesAttempt(attempt, context, options ?? {}),
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

import { encodeOrFail, type ProviderAttempt } from "../../call/provider-attempt.js";
import type { Context } from "../../types.js";
import { mergeHeaders } from "../../wire/headers.js";
import { endpointUrl } from "../../wire/http-transport.js";
import { requireBaseUrl } from "../../wire/require-base-url.js";
import { buildOpenAIResponsesHeaders, encodeOpenAIResponsesRequest } from "../openai-responses/encode.js";
import { runResponsesRequest } from "../openai-responses/transport.js";
import type { AzureOpenAIResponsesOptions } from "./options.js";
import { resolveAzureTarget } from "./resolve-azure-target.js";

/**
 * One attempt against an Azure OpenAI deployment: the Responses wire format, POSTed to
 * `{base URL}/responses?api-version=…` with the key in the `api-key` header and the deployment
 * name as `model`. Base URL, version and deployment come from options, then the environment, then
 * the model (see resolveAzureTarget).
 * @see https://learn.microsoft.com/en-us/azure/ai-foundry/openai/reference-preview-latest
 */
export async function runAzureOpenAIResponsesAttempt(
	attempt: ProviderAttempt<"azure-openai-responses">,
	context: Context,
	options: AzureOpenAIResponsesOptions,
): Promise<void> {
	const { model, apiKey } = attempt;
	const target = resolveAzureTarget(model, options);
	await runResponsesRequest(attempt, {
		label: "Azure OpenAI",
		url: endpointUrl(requireBaseUrl(model, target.baseUrl, "Azure base URL"), "/responses", {
			"api-version": target.apiVersion,
		}),
		headers: mergeHeaders(
			{ accept: "application/json", ...(apiKey ? { "api-key": apiKey } : {}) },
			buildOpenAIResponsesHeaders(model, options, context),
		),
		body: encodeOrFail(() =>
			encodeOpenAIResponsesRequest(model, context, options, { modelName: target.deploymentName }),
		),
	});
}

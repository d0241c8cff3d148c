import { NonRetryableError } from "../../call/provider-stream.js";
import type { Api, Model } from "../../types.js";
import { environmentVariables } from "../../wire/environment.js";

/** Where an Azure OpenAI Responses call goes and under which deployment. */
export interface AzureTarget {
	/** Without a trailing slash, e.g. `https://my-resource.openai.azure.com/openai/v1`. */
	baseUrl: string;
	/** Sent as the `api-version` query parameter. */
	apiVersion: string;
	/** Sent as `model` in the body: Azure routes by deployment, not by model id. */
	deploymentName: string;
}

export interface AzureTargetOptions {
	azureBaseUrl?: string;
	azureResourceName?: string;
	azureApiVersion?: string;
	azureDeploymentName?: string;
}

export type Environment = Record<string, string | undefined>;

export const DEFAULT_AZURE_API_VERSION = "v1";

/**
 * Resolves base URL, API version and deployment name, options first, then environment, then the
 * model. Throws a NonRetryableError naming every way to fix it when no base URL can be found.
 */
export function resolveAzureTarget(
	model: Model<Api>,
	options: AzureTargetOptions = {},
	environment: Environment = environmentVariables(),
): AzureTarget {
	return {
		baseUrl: resolveAzureBaseUrl(model, options, environment),
		apiVersion:
			nonEmpty(options.azureApiVersion) ?? nonEmpty(environment.AZURE_OPENAI_API_VERSION) ?? DEFAULT_AZURE_API_VERSION,
		deploymentName: resolveAzureDeploymentName(model, options, environment),
	};
}

/** options.azureBaseUrl → AZURE_OPENAI_BASE_URL → resource name (option, then env) → model.baseUrl. */
export function resolveAzureBaseUrl(model: Model<Api>, options: AzureTargetOptions, environment: Environment): string {
	const explicit = nonEmpty(options.azureBaseUrl) ?? nonEmpty(environment.AZURE_OPENAI_BASE_URL);
	if (explicit) return withoutTrailingSlash(explicit);
	const resource = nonEmpty(options.azureResourceName) ?? nonEmpty(environment.AZURE_OPENAI_RESOURCE_NAME);
	if (resource) {
		if (!/^[A-Za-z0-9-]+$/.test(resource)) {
			throw new NonRetryableError(
				`Azure resource name "${resource}" is not valid: use only letters, digits and hyphens (the <name> in https://<name>.openai.azure.com)`,
			);
		}
		return `https://${resource}.openai.azure.com/openai/v1`;
	}
	const fromModel = nonEmpty(model.baseUrl);
	if (fromModel) return withoutTrailingSlash(fromModel);
	throw new NonRetryableError(
		`No Azure OpenAI endpoint for model "${model.id}": set AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME, or pass options.azureBaseUrl or options.azureResourceName`,
	);
}

/** options.azureDeploymentName → AZURE_OPENAI_DEPLOYMENT_NAME_MAP ("id=deployment,id2=dep2") → model.id. */
export function resolveAzureDeploymentName(
	model: Model<Api>,
	options: AzureTargetOptions,
	environment: Environment,
): string {
	const explicit = nonEmpty(options.azureDeploymentName);
	if (explicit) return explicit;
	const map = nonEmpty(environment.AZURE_OPENAI_DEPLOYMENT_NAME_MAP);
	if (map) {
		const deployment = parseDeploymentNameMap(map).get(model.id);
		if (deployment) return deployment;
	}
	return model.id;
}

/** Parses `id=deployment,id2=dep2`; blank entries are skipped, a malformed entry is a clear error. */
export function parseDeploymentNameMap(text: string): Map<string, string> {
	const map = new Map<string, string>();
	for (const entry of text.split(",")) {
		const trimmed = entry.trim();
		if (trimmed === "") continue;
		const equals = trimmed.indexOf("=");
		const id = equals > 0 ? trimmed.slice(0, equals).trim() : "";
		const deployment = equals > 0 ? trimmed.slice(equals + 1).trim() : "";
		if (id === "" || deployment === "") {
			throw new NonRetryableError(
				`AZURE_OPENAI_DEPLOYMENT_NAME_MAP entry "${trimmed}" is not "modelId=deploymentName" (expected e.g. "gpt-5=my-gpt5,gpt-4o=prod-4o")`,
			);
		}
		map.set(id, deployment);
	}
	return map;
}

function nonEmpty(value: string | undefined): string | undefined {
	const trimmed = value?.trim();
	return trimmed ? trimmed : undefined;
}

function withoutTrailingSlash(url: string): string {
	return url.replace(/\/+$/, "");
}

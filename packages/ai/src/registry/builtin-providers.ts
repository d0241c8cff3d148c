import { findEnvKeys, getEnvApiKey } from "../env-api-keys.js";
import { getModels, getProviders } from "../models/catalogue.js";
import { stream, streamSimple } from "../stream.js";
import type { Api, Model } from "../types.js";
import { createModels } from "./create-models.js";
import { createProvider } from "./create-provider.js";
import { envApiKeyAuth } from "./env-api-key-auth.js";
import type { ApiKeyAuth, CreateModelsOptions, ModelProvider, MutableModels, ProviderStreams } from "./types.js";

/**
 * Keel's built-in wire APIs as one `ProviderStreams`: each call dispatches on `model.api` to the
 * provider code, which loads on its first use. The API table holds code only, never keys, so
 * sharing it between collections shares no state a tenant owns.
 */
export const builtinApiStreams: ProviderStreams = { stream, streamSimple };

/**
 * Auth for a catalogue provider: a stored key, then the provider's env variables, then (Bedrock,
 * Vertex) the ambient cloud credentials, which the provider code reads itself, so no key is passed.
 */
function catalogueAuth(providerId: string): ApiKeyAuth {
	const variables = findEnvKeys(providerId);
	const standard = envApiKeyAuth(`${providerId} API key`, variables);
	const ambient = async () =>
		variables.length === 0 && getEnvApiKey(providerId) ? { auth: {}, source: "ambient credentials" } : undefined;
	return {
		...standard,
		async check(input) {
			return (
				(await standard.check?.(input)) ??
				((await ambient()) ? { type: "api_key", source: "ambient credentials" } : undefined)
			);
		},
		async resolve(input) {
			return (await standard.resolve(input)) ?? ambient();
		},
	};
}

/** One provider of the built-in catalogue ("openai", "anthropic", …); throws for an unknown id. */
export function builtinProvider(providerId: string): ModelProvider {
	const models = getModels(providerId as never) as readonly Model<Api>[];
	if (models.length === 0) {
		throw new Error(`builtinProvider: unknown provider "${providerId}". Known: ${getProviders().join(", ")}`);
	}
	return createProvider({
		id: providerId,
		auth: { apiKey: catalogueAuth(providerId) },
		models,
		api: builtinApiStreams,
	});
}

/** Every provider of the built-in catalogue. */
export function builtinProviders(): ModelProvider[] {
	return getProviders().map((providerId) => builtinProvider(providerId));
}

/** A `Models` collection holding every built-in provider; takes `createModels`' options. */
export function builtinModels(options: CreateModelsOptions = {}): MutableModels {
	const models = createModels(options);
	for (const provider of builtinProviders()) models.setProvider(provider);
	return models;
}

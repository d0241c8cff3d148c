// The instance-based model registry: providers with their own auth, gathered in collections that
// each hold their own credentials.
export {
	builtinApiStreams,
	builtinModels,
	builtinProvider,
	builtinProviders,
} from "./builtin-providers.js";
export { createModels } from "./create-models.js";
export { type CreateProviderOptions, createProvider, hasApi } from "./create-provider.js";
export { defaultProviderAuthContext, envApiKeyAuth, keylessAuth, processEnvAuthContext } from "./env-api-key-auth.js";
export { InMemoryCredentialStore } from "./in-memory-credential-store.js";
export { InMemoryModelsStore } from "./in-memory-models-store.js";
export type * from "./types.js";

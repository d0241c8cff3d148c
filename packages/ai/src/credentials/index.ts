// @keel/ai/credentials: credential stores, key resolution and OAuth flows that run anywhere
// (fetch and Web Crypto only). The file store and the loopback login server are Node-only and live
// at @keel/ai/credentials/node. Nothing here is loaded by `import "@keel/ai"`.
export { CredentialError } from "./credential-error.js";
export { type FoundCredential, type ListCredentialsOptions, listCredentials, maskSecret } from "./list-credentials.js";
export { createMemoryCredentialStore } from "./memory-store.js";
export {
	type AuthorizationRequest,
	buildAuthorizationUrl,
	type CodeExchange,
	exchangeAuthorizationCode,
	readAuthorizationResponse,
} from "./oauth/authorization-code.js";
export {
	DEVICE_CODE_GRANT_TYPE,
	type DeviceAuthorization,
	type DeviceAuthorizationRequest,
	type DevicePolling,
	pollDeviceAuthorization,
	startDeviceAuthorization,
} from "./oauth/device-authorization.js";
export { OAuthError } from "./oauth/oauth-error.js";
export { createOAuthState, createPkceChallenge, createPkcePair, type PkcePair } from "./oauth/pkce.js";
export { canRefresh, type RefreshOptions, refreshOAuthCredential } from "./oauth/refresh-token.js";
export {
	GITHUB_DEVICE_CODE_URL,
	GITHUB_TOKEN_URL,
	type GitHubDeviceLogin,
	loginWithGitHubDeviceFlow,
} from "./providers/github.js";
export {
	buildGoogleAuthorizationUrl,
	GOOGLE_AUTHORIZATION_URL,
	GOOGLE_CLOUD_PLATFORM_SCOPE,
	GOOGLE_TOKEN_URL,
	type GoogleAuthorizationRequest,
} from "./providers/google.js";
export {
	buildOpenRouterAuthorizationUrl,
	exchangeOpenRouterCode,
	OPENROUTER_AUTHORIZATION_URL,
	OPENROUTER_KEY_EXCHANGE_URL,
	type OpenRouterAuthorizationRequest,
	type OpenRouterKeyExchange,
} from "./providers/openrouter.js";
export {
	type ApiKeySource,
	createApiKeyResolver,
	DEFAULT_REFRESH_MARGIN_MS,
	findApiKey,
	type ResolveApiKeyOptions,
	type ResolvedApiKey,
	resolveApiKey,
} from "./resolve-api-key.js";
export { resolveStreamCredentials, type StreamCredentials } from "./stream-credentials.js";
export type { ApiKeyCredential, Credential, CredentialStore, OAuthCredential } from "./types.js";

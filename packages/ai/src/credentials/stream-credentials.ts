// The options a call needs for a provider's credential. Most providers take every credential as
// `apiKey`; Vertex AI takes an OAuth token as `accessToken` (sent as `Authorization: Bearer`),
// since its `apiKey` is an express-mode API key sent as `x-goog-api-key`.
import { findApiKey, type ResolveApiKeyOptions, resolveApiKey } from "./resolve-api-key.js";

/** Providers whose OAuth tokens go in `accessToken` rather than `apiKey`. */
const BEARER_TOKEN_PROVIDERS = new Set(["google-vertex"]);

export interface StreamCredentials {
	apiKey?: string;
	/** A function, so that a long call's retries each get a token refreshed if it is about to expire. */
	accessToken?: () => Promise<string>;
}

/**
 * Options to spread into `stream()` / `streamSimple()` for `provider`, following resolveApiKey's
 * order: `{ apiKey }` for keys and most tokens, `{ accessToken }` for a Vertex AI OAuth token in
 * the store, `{}` when nothing is found (the call then reports the missing key itself).
 */
export async function resolveStreamCredentials(
	provider: string,
	options: ResolveApiKeyOptions = {},
): Promise<StreamCredentials> {
	const found = await findApiKey(provider, options);
	if (!found) return {};
	if (found.source === "store" && found.credentialType === "oauth" && BEARER_TOKEN_PROVIDERS.has(provider)) {
		const storeOnly = { ...options, apiKey: undefined, useEnvironment: false };
		return {
			accessToken: async () => {
				const token = await resolveApiKey(provider, storeOnly);
				if (!token)
					throw new Error(`The stored OAuth credential for provider "${provider}" was removed during the call`);
				return token;
			},
		};
	}
	return { apiKey: found.apiKey };
}

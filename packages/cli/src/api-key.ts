// The credential a command sends: --key, then KEEL_API_KEY, then the credential saved by
// `keel login` (an OAuth token refreshed when it is about to expire), then, left to the provider,
// its own environment variable. Nothing found lets the provider look it up, or, for a custom
// --base-url server, send no key at all.
import type { Api, Model } from "@keel/ai";
import { findApiKey } from "@keel/ai/credentials";
import { openCredentialStore } from "./credential-store.js";

/** Spread into the stream options. */
export interface CallCredentials {
	apiKey?: string;
	/** Vertex AI takes an OAuth token as `accessToken`, not as an API key. */
	accessToken?: string;
}

export async function resolveCallCredentials(
	model: Model<Api>,
	keyFlag: string | undefined,
	env: Record<string, string | undefined>,
): Promise<CallCredentials> {
	if (keyFlag !== undefined && keyFlag !== "") return { apiKey: keyFlag };
	const fromEnvironment = env.KEEL_API_KEY;
	if (fromEnvironment !== undefined && fromEnvironment !== "") return { apiKey: fromEnvironment };
	const stored = await findApiKey(model.provider, { store: openCredentialStore(env), useEnvironment: false });
	if (!stored) return {};
	if (model.api === "google-vertex" && stored.credentialType === "oauth") return { accessToken: stored.apiKey };
	return { apiKey: stored.apiKey };
}

// The API key a command sends: --key, then KEEL_API_KEY, then the key stored by `keel login` (an
// OAuth token refreshed when it is about to expire), then, left to the provider, its own
// environment variable. Undefined lets the provider look it up, or, for a custom --base-url
// server, send no key at all.
import type { Api, Model } from "@keel/ai";
import { findApiKey } from "@keel/ai/credentials";
import { openCredentialStore } from "./credential-store.js";

export async function resolveApiKey(
	model: Model<Api>,
	keyFlag: string | undefined,
	env: Record<string, string | undefined>,
): Promise<string | undefined> {
	if (keyFlag !== undefined && keyFlag !== "") return keyFlag;
	const fromEnvironment = env.KEEL_API_KEY;
	if (fromEnvironment !== undefined && fromEnvironment !== "") return fromEnvironment;
	const stored = await findApiKey(model.provider, { store: openCredentialStore(env), useEnvironment: false });
	return stored?.apiKey;
}

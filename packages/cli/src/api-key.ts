// The API key a command sends: --key, then KEEL_API_KEY, then (left to the provider) the
// provider's own environment variable. Undefined lets the provider look it up, or, for a custom
// --base-url server, send no key at all.
import type { Api, Model } from "@keel/ai";

export async function resolveApiKey(
	_model: Model<Api>,
	keyFlag: string | undefined,
	env: Record<string, string | undefined>,
): Promise<string | undefined> {
	if (keyFlag !== undefined && keyFlag !== "") return keyFlag;
	const fromEnvironment = env.KEEL_API_KEY;
	if (fromEnvironment !== undefined && fromEnvironment !== "") return fromEnvironment;
	return undefined;
}

// The credential a command sends: --key, then KEEL_API_KEY, then the credential saved by
// `keel login` (an OAuth token refreshed when it is about to expire; a Vertex AI token goes as
// `accessToken`), then, left to the provider, its own environment variable. Nothing found lets
// the provider look it up, or, for a custom --base-url server, send no key at all.
import type { Api, Model, StreamOptions } from "@keel/ai";
import { resolveStreamCredentials, type StreamCredentials } from "@keel/ai/credentials";
import { openCredentialStore } from "./credential-store.js";

/** Spread into the stream options; a missing key's error names the command line's ways in. */
export type CallCredentials = StreamCredentials & Pick<StreamOptions, "missingKeyRemedy">;

export async function resolveCallCredentials(
	model: Model<Api>,
	keyFlag: string | undefined,
	env: Record<string, string | undefined>,
): Promise<CallCredentials> {
	if (keyFlag !== undefined && keyFlag !== "") return { apiKey: keyFlag };
	const fromEnvironment = env.KEEL_API_KEY;
	if (fromEnvironment !== undefined && fromEnvironment !== "") return { apiKey: fromEnvironment };
	const stored = await resolveStreamCredentials(model.provider, {
		store: openCredentialStore(env),
		useEnvironment: false,
	});
	return { ...stored, missingKeyRemedy: missingKeyRemedy(model.provider) };
}

/** The command line's ways to give a key, for the library's missing-key error. */
export function missingKeyRemedy(provider: string): string {
	return `save one with \`keel login ${provider}\`, or pass --key, or set KEEL_API_KEY`;
}

import type { ApiKeyAuth, AuthContext } from "./types.js";

/**
 * Standard API-key auth: a key stored in the collection's credential store wins, otherwise the
 * first of `envVariables` that is set. `login` asks for the key as a secret prompt.
 */
export function envApiKeyAuth(name: string, envVariables: readonly string[]): ApiKeyAuth {
	const fromEnvironment = async (context: AuthContext) => {
		for (const variable of envVariables) {
			const value = await context.env(variable);
			if (value) return { variable, value };
		}
		return undefined;
	};
	return {
		name,
		async login(interaction) {
			const key = (
				await interaction.prompt({ type: "secret", message: `Enter ${name}`, signal: interaction.signal })
			).trim();
			if (!key) throw new Error(`${name}: an empty key was entered`);
			return { type: "api_key", key };
		},
		async check({ context, credential }) {
			if (credential?.key) return { type: "api_key", source: "stored credential" };
			const found = await fromEnvironment(context);
			return found ? { type: "api_key", source: found.variable } : undefined;
		},
		async resolve({ context, credential }) {
			if (credential?.key) return { auth: { apiKey: credential.key }, source: "stored credential" };
			const found = await fromEnvironment(context);
			return found ? { auth: { apiKey: found.value }, source: found.variable } : undefined;
		},
	};
}

/** Auth for servers that take no key (a local inference server): always configured, sends nothing. */
export function keylessAuth(name: string): ApiKeyAuth {
	return { name, resolve: async () => ({ auth: {}, source: "keyless" }) };
}

/**
 * Reads `process.env` where the runtime has one (Node, Bun, Deno's compatibility layer) and
 * nothing elsewhere, so browser and Worker code gets "not set" instead of a ReferenceError.
 */
export const processEnvAuthContext: AuthContext = {
	async env(name) {
		const environment = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
		return environment?.[name] || undefined;
	},
};

/** The context a provider's auth reads when the caller gives none: `processEnvAuthContext`. */
export function defaultProviderAuthContext(): AuthContext {
	return processEnvAuthContext;
}

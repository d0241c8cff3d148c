// What `keel keys` shows: every credential that would be found, where, and a masked form of it.
import {
	AMBIENT_CREDENTIALS,
	findEnvKeyVariable,
	getEnvApiKey,
	providersWithEnvironmentKeys,
} from "../env-api-keys.js";
import type { CredentialStore } from "./types.js";

export interface FoundCredential {
	provider: string;
	source: "store" | "environment";
	/** "ambient" is AWS or Google credentials found in the environment, used by their SDK or token code. */
	kind: "api-key" | "oauth" | "ambient";
	/** The environment variable the key came from. */
	variable?: string;
	/** The key with all but its ends hidden ("sk-…f3a9"), safe to print. */
	masked: string;
	/** For OAuth credentials: when the access token expires (milliseconds since 1970). */
	expiresAt?: number;
	/** For OAuth credentials: whether it can be renewed without logging in again. */
	refreshable?: boolean;
	/** False when a credential earlier in the resolution order wins for this provider. */
	used: boolean;
}

export interface ListCredentialsOptions {
	store?: CredentialStore;
	/** Providers to look up in the environment; defaults to every provider with a key variable. */
	providers?: readonly string[];
}

/**
 * Every credential found in the store and the environment, sorted by provider, the store's entry
 * before the environment's (the order resolveApiKey tries them). Keys are masked.
 */
export async function listCredentials(options: ListCredentialsOptions = {}): Promise<FoundCredential[]> {
	const found: FoundCredential[] = [];
	const stored = new Set<string>();
	for (const provider of options.store ? await options.store.list() : []) {
		const credential = await options.store?.get(provider);
		if (!credential) continue;
		stored.add(provider);
		if (credential.type === "api-key") {
			found.push({ provider, source: "store", kind: "api-key", masked: maskSecret(credential.key), used: true });
		} else {
			const entry: FoundCredential = {
				provider,
				source: "store",
				kind: "oauth",
				masked: maskSecret(credential.access),
				refreshable: typeof credential.refresh === "string" && typeof credential.tokenUrl === "string",
				used: true,
			};
			if (credential.expiresAt !== undefined) entry.expiresAt = credential.expiresAt;
			found.push(entry);
		}
	}
	for (const provider of options.providers ?? providersWithEnvironmentKeys()) {
		const key = getEnvApiKey(provider);
		if (!key) continue;
		const used = !stored.has(provider);
		if (key === AMBIENT_CREDENTIALS) {
			found.push({ provider, source: "environment", kind: "ambient", masked: "(ambient credentials)", used });
			continue;
		}
		const entry: FoundCredential = { provider, source: "environment", kind: "api-key", masked: maskSecret(key), used };
		const variable = findEnvKeyVariable(provider);
		if (variable) entry.variable = variable;
		found.push(entry);
	}
	return found.sort((a, b) => (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : 0));
}

/**
 * A secret reduced to what helps a person tell keys apart: the first 3 and last 4 characters of
 * a key of 20 or more, only the last 2 of a key of 8 to 19, nothing of a shorter one.
 */
export function maskSecret(secret: string): string {
	if (secret.length >= 20) return `${secret.slice(0, 3)}…${secret.slice(-4)}`;
	if (secret.length >= 8) return `…${secret.slice(-2)}`;
	return "…";
}

// Which key a provider call uses, in this order:
//   1. `apiKey` given by the caller (options.apiKey),
//   2. the credential store, when one is given: an API key as it is, an OAuth access token
//      refreshed first when it expires within `refreshMarginMs` (60 s by default),
//   3. the environment (getEnvApiKey: ANTHROPIC_API_KEY, OPENROUTER_API_KEY, …).
// The store is opt-in: `stream()` itself looks only at options.apiKey and the environment, so a
// caller that wants the store resolves first (resolveApiKey, or createApiKeyResolver as an
// Agent's getApiKey).
import { getEnvApiKey } from "../env-api-keys.js";
import { CredentialError, credentialProblemMessage } from "./credential-error.js";
import { OAuthError } from "./oauth/oauth-error.js";
import { canRefresh, refreshOAuthCredential } from "./oauth/refresh-token.js";
import type { CredentialStore, OAuthCredential } from "./types.js";

/** OAuth tokens are renewed when they expire within this many milliseconds. */
export const DEFAULT_REFRESH_MARGIN_MS = 60_000;

export type ApiKeySource = "option" | "store" | "environment";

export interface ResolveApiKeyOptions {
	/** The caller's own key (options.apiKey); it wins over everything. */
	apiKey?: string;
	store?: CredentialStore;
	/** Skip the environment (a server that must only use keys it was given). Default true. */
	useEnvironment?: boolean;
	refreshMarginMs?: number;
	/** Renews an OAuth credential; defaults to refreshOAuthCredential (RFC 6749 section 6 at its tokenUrl). */
	refresh?: (credential: OAuthCredential, provider: string) => Promise<OAuthCredential>;
	/** Used by the default refresh; for tests and runtimes with their own fetch. */
	fetch?: typeof fetch;
	signal?: AbortSignal;
	/** The current time in milliseconds; for tests. */
	now?: () => number;
}

export interface ResolvedApiKey {
	apiKey: string;
	source: ApiKeySource;
	/** For a stored credential: its type. */
	credentialType?: "api-key" | "oauth";
}

/**
 * The key to call `provider` with, following the resolution order above, or undefined when there
 * is none. Throws CredentialError when a stored OAuth token has expired and cannot be renewed
 * (no refresh token, or the token endpoint refused); the stored credential is left as it was and
 * the message never holds a token. A refresh that fails while the token has not yet expired
 * returns the current token and is tried again on the next call.
 */
export async function resolveApiKey(provider: string, options: ResolveApiKeyOptions = {}): Promise<string | undefined> {
	return (await findApiKey(provider, options))?.apiKey;
}

/** Like resolveApiKey, and also says where the key came from. */
export async function findApiKey(
	provider: string,
	options: ResolveApiKeyOptions = {},
): Promise<ResolvedApiKey | undefined> {
	if (typeof provider !== "string" || provider === "") {
		throw new TypeError('resolveApiKey needs a provider id such as "openrouter"');
	}
	if (options.apiKey) return { apiKey: options.apiKey, source: "option" };
	if (options.store) {
		const stored = await keyFromStore(provider, options.store, options);
		if (stored) return stored;
	}
	if (options.useEnvironment === false) return undefined;
	const fromEnvironment = getEnvApiKey(provider);
	return fromEnvironment ? { apiKey: fromEnvironment, source: "environment" } : undefined;
}

/**
 * A `(provider) => key` function over a store, for an Agent's `getApiKey` or the proxy server's:
 * `new Agent({ getApiKey: createApiKeyResolver({ store }) })`.
 */
export function createApiKeyResolver(
	options: Omit<ResolveApiKeyOptions, "apiKey">,
): (provider: string) => Promise<string | undefined> {
	return (provider) => resolveApiKey(provider, options);
}

async function keyFromStore(
	provider: string,
	store: CredentialStore,
	options: ResolveApiKeyOptions,
): Promise<ResolvedApiKey | undefined> {
	const credential = await store.get(provider);
	if (!credential) return undefined;
	if (credential.type === "api-key") return { apiKey: credential.key, source: "store", credentialType: "api-key" };
	const now = options.now ?? Date.now;
	const margin = options.refreshMarginMs ?? DEFAULT_REFRESH_MARGIN_MS;
	if (!expiresSoon(credential, now(), margin))
		return { apiKey: credential.access, source: "store", credentialType: "oauth" };
	if (!canRefresh(credential) && !options.refresh) {
		if (credential.expiresAt !== undefined && credential.expiresAt > now()) {
			return { apiKey: credential.access, source: "store", credentialType: "oauth" };
		}
		throw new CredentialError(credentialProblemMessage(provider, "has expired and holds no refresh token"), provider);
	}
	const renewed = await renewUnderLock(provider, store, options, now, margin);
	return { apiKey: renewed.access, source: "store", credentialType: "oauth" };
}

function expiresSoon(credential: OAuthCredential, now: number, margin: number): boolean {
	return credential.expiresAt !== undefined && credential.expiresAt - margin <= now;
}

/**
 * Refreshes inside the store's lock, reading the credential again first: whoever held the lock
 * before may have refreshed it already, and then the new token is used as it is.
 */
async function renewUnderLock(
	provider: string,
	store: CredentialStore,
	options: ResolveApiKeyOptions,
	now: () => number,
	margin: number,
): Promise<OAuthCredential> {
	const task = async (): Promise<OAuthCredential> => {
		const current = await store.get(provider);
		if (current?.type !== "oauth") {
			throw new CredentialError(
				credentialProblemMessage(provider, "was removed while it was being refreshed"),
				provider,
			);
		}
		if (!expiresSoon(current, now(), margin)) return current;
		let renewed: OAuthCredential;
		try {
			renewed = options.refresh
				? await options.refresh(current, provider)
				: await refreshOAuthCredential(current, { fetch: options.fetch, signal: options.signal, now });
		} catch (error) {
			// The token still works for a few seconds: use it, and try the refresh again next time
			// (a token endpoint that is briefly down must not fail calls that can still succeed).
			if (current.expiresAt !== undefined && current.expiresAt > now()) return current;
			const reason = error instanceof OAuthError ? error.message : "the refresh function failed";
			throw new CredentialError(
				credentialProblemMessage(provider, `could not be refreshed (${reason})`),
				provider,
				error instanceof OAuthError ? error.code : undefined,
			);
		}
		await store.set(provider, renewed);
		return renewed;
	};
	return store.withLock ? store.withLock(task) : task();
}

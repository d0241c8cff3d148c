// Google access tokens kept in memory until shortly before they expire, whoever issued them (a
// token endpoint for key files, the metadata server): concurrent calls with the same credentials
// share one request for a new token. Held in memory only, never printed.

/** A token as its issuer answered: the token and how many seconds it lasts. */
export interface IssuedToken {
	token: string;
	lifetimeSeconds: number;
}

/** Tokens are renewed this long before they expire, so none expires during a request. */
const RENEW_BEFORE_EXPIRY_MS = 5 * 60_000;

interface CachedToken {
	token?: string;
	renewAt: number;
	pending?: Promise<string>;
}

const tokens = new Map<string, CachedToken>();

/** Forgets every cached token (tests, or after rotating credentials). */
export function clearCachedAccessTokens(): void {
	tokens.clear();
}

/** The token cached under `key`, or a new one from `request` (one request at a time per key). */
export function reuseOrRequestToken(key: string, request: () => Promise<IssuedToken>): Promise<string> {
	const entry = tokens.get(key) ?? { renewAt: 0 };
	tokens.set(key, entry);
	if (entry.token !== undefined && Date.now() < entry.renewAt) return Promise.resolve(entry.token);
	entry.pending ??= request().then(
		({ token, lifetimeSeconds }) => {
			const lifetimeMs = lifetimeSeconds * 1000;
			entry.token = token;
			entry.renewAt = Date.now() + Math.max(lifetimeMs - RENEW_BEFORE_EXPIRY_MS, lifetimeMs / 2);
			entry.pending = undefined;
			return token;
		},
		(error: unknown) => {
			entry.pending = undefined;
			throw error;
		},
	);
	return entry.pending;
}

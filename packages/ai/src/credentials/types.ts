// The shapes a credential store holds and the interface every store implements. A store is opt-in:
// nothing in @keel/ai reads one unless the caller passes it (see resolve-api-key.ts).

/** A plain API key, sent as the provider's key header. */
export interface ApiKeyCredential {
	type: "api-key";
	key: string;
}

/**
 * An OAuth access token and what is needed to renew it. `access` is what a provider call sends.
 * `tokenUrl`, `clientId` and `clientSecret` name the token endpoint and the client that obtained
 * the token, so any refreshable credential is renewed the same way (RFC 6749 section 6). Providers
 * may keep more fields (an account id, a project); they are stored and returned unchanged.
 */
export interface OAuthCredential {
	type: "oauth";
	access: string;
	refresh?: string;
	/** When `access` stops working, in milliseconds since 1970; absent for tokens that do not expire. */
	expiresAt?: number;
	/** The token endpoint to refresh at. Without it (and `refresh`) the token cannot be renewed. */
	tokenUrl?: string;
	clientId?: string;
	/** Only for clients that have one (Google's installed-application clients do; it is not secret there). */
	clientSecret?: string;
	[extra: string]: unknown;
}

export type Credential = ApiKeyCredential | OAuthCredential;

/**
 * Where credentials live, keyed by provider id ("openrouter", "google-vertex", …). Every method is
 * asynchronous so a store may sit on a file, a keychain or a server.
 */
export interface CredentialStore {
	get(provider: string): Promise<Credential | undefined>;
	set(provider: string, credential: Credential): Promise<void>;
	/** Removes the provider's credential; resolves to whether there was one. */
	delete(provider: string): Promise<boolean>;
	/** The provider ids that have a credential, sorted. */
	list(): Promise<string[]>;
	/**
	 * Runs `task` while no other holder of this store runs one: token refreshes go through it, so a
	 * token is refreshed once even when several callers (or, for the file store, several processes)
	 * find it expiring at the same moment. A store without it refreshes without coordination.
	 */
	withLock?<T>(task: () => Promise<T>): Promise<T>;
}

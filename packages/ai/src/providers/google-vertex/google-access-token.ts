// Access tokens for Google credentials: a service account's signed JWT (jwt-bearer grant) or an
// authorized user's refresh token (refresh_token grant), posted form-encoded to the credentials'
// token_uri. A token is reused until shortly before it expires, and concurrent calls share one
// request for a new one.
// @see https://developers.google.com/identity/protocols/oauth2/service-account#authorizingrequests
// @see https://developers.google.com/identity/protocols/oauth2/web-server#offline
import { NonRetryableError } from "../shared/provider-attempt.js";
import { redactSecrets } from "../shared/secret-redaction.js";
import { DEFAULT_TOKEN_URI, type GoogleCredentials } from "./google-credentials.js";
import { signServiceAccountAssertion } from "./service-account-assertion.js";

const CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";
const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/** Tokens are renewed this long before they expire, so none expires during a request. */
const RENEW_BEFORE_EXPIRY_MS = 5 * 60_000;
/** Google's tokens last an hour; used when a response leaves out expires_in. */
const DEFAULT_LIFETIME_SECONDS = 3600;

interface CachedToken {
	token?: string;
	renewAt: number;
	pending?: Promise<string>;
}

// Keyed by the credentials' identity; held in memory only, never printed.
const tokens = new Map<string, CachedToken>();

function cacheKey(credentials: GoogleCredentials): string {
	const tokenUri = credentials.token_uri ?? DEFAULT_TOKEN_URI;
	return credentials.type === "service_account"
		? `service_account\n${tokenUri}\n${credentials.client_email}\n${credentials.private_key_id ?? credentials.private_key}`
		: `authorized_user\n${tokenUri}\n${credentials.client_id}\n${credentials.refresh_token}`;
}

/** Forgets every cached token (tests, or after rotating credentials). */
export function clearGoogleAccessTokens(): void {
	tokens.clear();
}

/** A bearer token for `credentials`, from the cache or from their token endpoint. `source` names them in errors. */
/** How long a token request may take, body included, before it fails and a later call asks again. */
const TOKEN_REQUEST_TIMEOUT_MS = 30_000;

export function googleAccessToken(credentials: GoogleCredentials, source: string): Promise<string> {
	const key = cacheKey(credentials);
	const entry = tokens.get(key) ?? { renewAt: 0 };
	tokens.set(key, entry);
	if (entry.token !== undefined && Date.now() < entry.renewAt) return Promise.resolve(entry.token);
	entry.pending ??= requestToken(credentials, source).then(
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

async function requestToken(
	credentials: GoogleCredentials,
	source: string,
): Promise<{ token: string; lifetimeSeconds: number }> {
	const tokenUri = credentials.token_uri ?? DEFAULT_TOKEN_URI;
	const form = new URLSearchParams();
	if (credentials.type === "service_account") {
		const nowSeconds = Math.floor(Date.now() / 1000);
		form.set("grant_type", JWT_BEARER_GRANT);
		form.set(
			"assertion",
			await signServiceAccountAssertion(credentials, CLOUD_PLATFORM_SCOPE, tokenUri, source, nowSeconds),
		);
	} else {
		form.set("grant_type", "refresh_token");
		form.set("client_id", credentials.client_id);
		form.set("client_secret", credentials.client_secret);
		form.set("refresh_token", credentials.refresh_token);
	}
	const what = `the Google token endpoint ${tokenUri} (credentials in ${source})`;
	let response: Response;
	try {
		response = await fetch(tokenUri, {
			method: "POST",
			headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
			body: form.toString(),
			// Concurrent calls share this request: one that stalls must not hold every later call with
			// the same credentials (each would wait on it until its own limit ended it).
			signal: AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS),
		});
	} catch (error) {
		// A network failure may pass: the harness retries it.
		throw new Error(`Could not reach ${what}: ${error instanceof Error ? error.message : String(error)}`);
	}
	const text = await response.text();
	let body: Record<string, unknown> = {};
	try {
		const parsed: unknown = JSON.parse(text);
		if (typeof parsed === "object" && parsed !== null) body = parsed as Record<string, unknown>;
	} catch {
		// Not JSON: reported below by status or by the missing access_token.
	}
	if (!response.ok) {
		const code = typeof body.error === "string" ? ` ${body.error}` : "";
		const description = typeof body.error_description === "string" ? `: ${body.error_description}` : "";
		// The endpoint's text may quote what it was sent: the signed assertion (a credential for an
		// hour), the refresh token or the client secret. The call redacts the credentials it was
		// given; the assertion exists only here.
		const sent = [form.get("assertion"), form.get("refresh_token"), form.get("client_secret")];
		const message = redactSecrets(
			`${what} refused the token request (HTTP ${response.status}${code}${description})`,
			sent.filter((value) => value !== null),
		);
		// 4xx means the credentials themselves are wrong or revoked: retrying cannot help.
		throw response.status >= 400 && response.status < 500 && response.status !== 429
			? new NonRetryableError(message)
			: new Error(message);
	}
	if (typeof body.access_token !== "string" || body.access_token === "") {
		throw new NonRetryableError(`${what} answered without an access_token`);
	}
	const lifetime =
		typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in : DEFAULT_LIFETIME_SECONDS;
	return { token: body.access_token, lifetimeSeconds: lifetime };
}

// Access tokens for Google credentials: a service account's signed JWT (jwt-bearer grant) or an
// authorized user's refresh token (refresh_token grant), posted form-encoded to the credentials'
// token_uri. Tokens are cached by access-token-cache.ts.
// @see https://developers.google.com/identity/protocols/oauth2/service-account#authorizingrequests
// @see https://developers.google.com/identity/protocols/oauth2/web-server#offline
import { NonRetryableError } from "../../call/provider-attempt.js";
import { redactSecrets } from "../../call/secret-redaction.js";
import { clearCachedAccessTokens, type IssuedToken, reuseOrRequestToken } from "./access-token-cache.js";
import { DEFAULT_TOKEN_URI, type GoogleCredentials } from "./google-credentials.js";
import { signServiceAccountAssertion } from "./service-account-assertion.js";

const CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";
const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/** Google's tokens last an hour; used when a response leaves out expires_in. */
const DEFAULT_LIFETIME_SECONDS = 3600;
/** How long a token request may take, body included, before it fails and a later call asks again. */
const TOKEN_REQUEST_TIMEOUT_MS = 30_000;

function cacheKey(credentials: GoogleCredentials): string {
	const tokenUri = credentials.token_uri ?? DEFAULT_TOKEN_URI;
	return credentials.type === "service_account"
		? `service_account\n${tokenUri}\n${credentials.client_email}\n${credentials.private_key_id ?? credentials.private_key}`
		: `authorized_user\n${tokenUri}\n${credentials.client_id}\n${credentials.refresh_token}`;
}

/** Forgets every cached token (tests, or after rotating credentials). */
export function clearGoogleAccessTokens(): void {
	clearCachedAccessTokens();
}

/** A bearer token for `credentials`, from the cache or from their token endpoint. `source` names them in errors. */
export function googleAccessToken(credentials: GoogleCredentials, source: string): Promise<string> {
	return reuseOrRequestToken(cacheKey(credentials), () => requestToken(credentials, source));
}

async function requestToken(credentials: GoogleCredentials, source: string): Promise<IssuedToken> {
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

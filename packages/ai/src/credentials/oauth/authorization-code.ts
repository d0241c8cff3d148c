// The authorization code grant (RFC 6749 section 4.1) with PKCE: the URL the user opens, the
// reading of the redirect that comes back, and the exchange of the code for tokens.
import type { OAuthCredential } from "../types.js";
import { OAuthError } from "./oauth-error.js";
import { credentialFromTokenResponse } from "./token-credential.js";
import {
	isErrorResponse,
	postTokenRequest,
	type TokenRequestOptions,
	tokenErrorFromResponse,
} from "./token-endpoint.js";

export interface AuthorizationRequest {
	authorizationUrl: string;
	clientId: string;
	redirectUri: string;
	scope?: string;
	state: string;
	codeChallenge: string;
	/** Provider parameters, e.g. Google's access_type=offline. */
	extraParameters?: Record<string, string>;
}

/** The URL to send the user to. Parameters already in `authorizationUrl` are kept. */
export function buildAuthorizationUrl(request: AuthorizationRequest): string {
	const url = new URL(request.authorizationUrl);
	url.searchParams.set("response_type", "code");
	url.searchParams.set("client_id", request.clientId);
	url.searchParams.set("redirect_uri", request.redirectUri);
	if (request.scope) url.searchParams.set("scope", request.scope);
	url.searchParams.set("state", request.state);
	url.searchParams.set("code_challenge", request.codeChallenge);
	url.searchParams.set("code_challenge_method", "S256");
	for (const [name, value] of Object.entries(request.extraParameters ?? {})) url.searchParams.set(name, value);
	return url.toString();
}

/**
 * The code from the redirect's query. Throws OAuthError when the server reported an error
 * (`access_denied` when the user refused, section 4.1.2.1), when `state` does not match the
 * request's (the callback was not caused by this login), or when there is no code.
 */
export function readAuthorizationResponse(query: URLSearchParams, expectedState: string | undefined): string {
	const error = query.get("error");
	if (error) {
		const description = query.get("error_description");
		const text =
			error === "access_denied"
				? "Authorization was denied: the login was cancelled or refused in the browser"
				: `Authorization failed: the server answered ${error}${description ? `: ${description.slice(0, 300)}` : ""}`;
		throw new OAuthError(text, error);
	}
	if (expectedState !== undefined && query.get("state") !== expectedState) {
		throw new OAuthError(
			"Authorization failed: the callback's state does not match this login's (a stale or forged redirect); start the login again",
			"state_mismatch",
		);
	}
	const code = query.get("code");
	if (!code) throw new OAuthError("Authorization failed: the callback carried no code", "invalid_response");
	return code;
}

export interface CodeExchange extends Pick<TokenRequestOptions, "fetch" | "signal"> {
	tokenUrl: string;
	clientId: string;
	clientSecret?: string;
	code: string;
	codeVerifier: string;
	redirectUri: string;
	now?: () => number;
}

/** Exchanges the code for tokens (section 4.1.3). An expired or used code fails with `invalid_grant`. */
export async function exchangeAuthorizationCode(exchange: CodeExchange): Promise<OAuthCredential> {
	const parameters: Record<string, string> = {
		grant_type: "authorization_code",
		code: exchange.code,
		redirect_uri: exchange.redirectUri,
		client_id: exchange.clientId,
		code_verifier: exchange.codeVerifier,
	};
	if (exchange.clientSecret) parameters.client_secret = exchange.clientSecret;
	const step = "authorization code exchange";
	const { status, body } = await postTokenRequest(exchange.tokenUrl, parameters, step, exchange);
	if (isErrorResponse(status, body)) {
		throw tokenErrorFromResponse(exchange.tokenUrl, status, body, step, [
			exchange.code,
			exchange.codeVerifier,
			exchange.clientSecret,
		]);
	}
	return credentialFromTokenResponse(
		body,
		{ tokenUrl: exchange.tokenUrl, clientId: exchange.clientId, clientSecret: exchange.clientSecret },
		step,
		(exchange.now ?? Date.now)(),
	);
}

// Renewing an access token with its refresh token (RFC 6749 section 6).
import type { OAuthCredential } from "../types.js";
import { OAuthError } from "./oauth-error.js";
import { credentialFromTokenResponse } from "./token-credential.js";
import {
	isErrorResponse,
	postTokenRequest,
	type TokenRequestOptions,
	tokenErrorFromResponse,
} from "./token-endpoint.js";

export interface RefreshOptions extends Pick<TokenRequestOptions, "fetch" | "signal"> {
	/** The current time in milliseconds; for tests. */
	now?: () => number;
}

/** True when the credential carries what a refresh needs: a refresh token and a token endpoint. */
export function canRefresh(credential: OAuthCredential): boolean {
	return typeof credential.refresh === "string" && credential.refresh !== "" && typeof credential.tokenUrl === "string";
}

/**
 * A renewed copy of `credential`: a new access token and expiry, the refresh token the server
 * returned (or the old one), provider fields kept. Throws OAuthError when the server refuses
 * (`invalid_grant` when the refresh token was revoked or has expired); the error never holds a token.
 */
export async function refreshOAuthCredential(
	credential: OAuthCredential,
	options: RefreshOptions = {},
): Promise<OAuthCredential> {
	if (!canRefresh(credential)) {
		throw new OAuthError(
			"OAuth token refresh is not possible: the credential has no refresh token or no tokenUrl",
			"not_refreshable",
		);
	}
	const tokenUrl = credential.tokenUrl as string;
	const parameters: Record<string, string> = {
		grant_type: "refresh_token",
		refresh_token: credential.refresh as string,
	};
	if (credential.clientId) parameters.client_id = credential.clientId;
	if (credential.clientSecret) parameters.client_secret = credential.clientSecret;
	const step = "token refresh";
	const { status, body } = await postTokenRequest(tokenUrl, parameters, step, options);
	if (isErrorResponse(status, body)) {
		throw tokenErrorFromResponse(tokenUrl, status, body, step, [
			credential.access,
			credential.refresh,
			credential.clientSecret,
		]);
	}
	const now = (options.now ?? Date.now)();
	return credentialFromTokenResponse(
		body,
		{ tokenUrl, clientId: credential.clientId, clientSecret: credential.clientSecret },
		step,
		now,
		credential,
	);
}

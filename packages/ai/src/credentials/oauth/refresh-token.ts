// Renewing an access token with its refresh token (RFC 6749 section 6), sent and checked by
// oauth4webapi (protocol-client.ts).
import * as oauth from "oauth4webapi";
import type { OAuthCredential } from "../types.js";
import { OAuthError } from "./oauth-error.js";
import { authorizationServer, clientAuthentication, runProtocolCall } from "./protocol-client.js";
import { credentialFromTokenResponse } from "./token-credential.js";
import type { TokenEndpointResponse, TokenRequestOptions } from "./token-endpoint.js";

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
	const server = authorizationServer({ tokenUrl });
	const client: oauth.Client = { client_id: credential.clientId ?? "" };
	const body = await runProtocolCall(
		{
			url: tokenUrl,
			step: "token refresh",
			secrets: [credential.access, credential.refresh, credential.clientSecret],
			fetch: options.fetch,
			signal: options.signal,
		},
		(requestOptions) =>
			oauth.refreshTokenGrantRequest(
				server,
				client,
				clientAuthentication(credential.clientSecret),
				credential.refresh as string,
				requestOptions,
			),
		(response) => oauth.processRefreshTokenResponse(server, client, response),
	);
	const now = (options.now ?? Date.now)();
	return credentialFromTokenResponse(
		body as TokenEndpointResponse,
		{ tokenUrl, clientId: credential.clientId, clientSecret: credential.clientSecret },
		"token refresh",
		now,
		credential,
	);
}

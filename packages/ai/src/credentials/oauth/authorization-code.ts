// The authorization code grant (RFC 6749 section 4.1) with PKCE: the URL the user opens, the
// reading of the redirect that comes back, and the exchange of the code for tokens (sent and
// checked by oauth4webapi, protocol-client.ts). The redirect is read here rather than by
// oauth4webapi's validateAuthResponse, which checks an `iss` parameter against the issuer, and Keel
// knows endpoints, not issuers (Google's redirect names accounts.google.com, its token endpoint is
// oauth2.googleapis.com).
import * as oauth from "oauth4webapi";
import type { OAuthCredential } from "../types.js";
import { OAuthError } from "./oauth-error.js";
import { authorizationServer, clientAuthentication, runProtocolCall } from "./protocol-client.js";
import { credentialFromTokenResponse } from "./token-credential.js";
import type { TokenEndpointResponse, TokenRequestOptions } from "./token-endpoint.js";

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
	const server = authorizationServer({ tokenUrl: exchange.tokenUrl });
	const client: oauth.Client = { client_id: exchange.clientId };
	const body = await runProtocolCall(
		{
			url: exchange.tokenUrl,
			step: "authorization code exchange",
			secrets: [exchange.code, exchange.codeVerifier, exchange.clientSecret],
			fetch: exchange.fetch,
			signal: exchange.signal,
		},
		(requestOptions) =>
			oauth.authorizationCodeGrantRequest(
				server,
				client,
				clientAuthentication(exchange.clientSecret),
				// The redirect was read by readAuthorizationResponse (state, error); oauth4webapi takes
				// the code only from parameters it validated itself.
				oauth.validateAuthResponse(server, client, new URLSearchParams({ code: exchange.code }), oauth.skipStateCheck),
				exchange.redirectUri,
				exchange.codeVerifier,
				requestOptions,
			),
		(response) => oauth.processAuthorizationCodeResponse(server, client, response),
	);
	return credentialFromTokenResponse(
		body as TokenEndpointResponse,
		{ tokenUrl: exchange.tokenUrl, clientId: exchange.clientId, clientSecret: exchange.clientSecret },
		"authorization code exchange",
		(exchange.now ?? Date.now)(),
	);
}

import { urlForMessages } from "../../utils/url-for-messages.js";
import type { OAuthCredential } from "../types.js";
import { OAuthError } from "./oauth-error.js";
import type { TokenEndpointResponse } from "./token-endpoint.js";

/** Where a credential was issued, kept on it so it can be refreshed later. */
export interface TokenIssuer {
	tokenUrl: string;
	clientId?: string;
	clientSecret?: string;
}

/**
 * The credential a successful token answer describes. `expires_in` (seconds, RFC 6749 section
 * 5.1) becomes an absolute `expiresAt`; a refresh answer without a new refresh token keeps the
 * old one (section 6 lets the server keep it unchanged).
 */
export function credentialFromTokenResponse(
	body: TokenEndpointResponse,
	issuer: TokenIssuer,
	step: string,
	now: number,
	previous?: OAuthCredential,
): OAuthCredential {
	if (typeof body.access_token !== "string" || body.access_token === "") {
		throw new OAuthError(
			`OAuth ${step} failed: ${urlForMessages(issuer.tokenUrl)} answered without an access_token`,
			"invalid_response",
		);
	}
	const credential: OAuthCredential = { ...previous, type: "oauth", access: body.access_token };
	const refresh =
		typeof body.refresh_token === "string" && body.refresh_token !== "" ? body.refresh_token : previous?.refresh;
	if (refresh) credential.refresh = refresh;
	else delete credential.refresh;
	const expiresIn = Number(body.expires_in);
	if (body.expires_in !== undefined && Number.isFinite(expiresIn) && expiresIn > 0) {
		credential.expiresAt = now + expiresIn * 1000;
	} else {
		// No lifetime given: the server documents none, so the token is treated as lasting.
		delete credential.expiresAt;
	}
	credential.tokenUrl = issuer.tokenUrl;
	if (issuer.clientId) credential.clientId = issuer.clientId;
	if (issuer.clientSecret) credential.clientSecret = issuer.clientSecret;
	if (typeof body.scope === "string") credential.scope = body.scope;
	return credential;
}

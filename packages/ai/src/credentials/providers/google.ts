// Google OAuth for Vertex AI with the user's own OAuth client ("Desktop app" type), beside
// Application Default Credentials: authorization code with PKCE and a loopback redirect, then
// refresh with the client id and secret. Google documents the secret of an installed-application
// client as not confidential, so it is kept with the credential for refreshing.
// @see https://developers.google.com/identity/protocols/oauth2/native-app
import { buildAuthorizationUrl } from "../oauth/authorization-code.js";

export const GOOGLE_AUTHORIZATION_URL = "https://accounts.google.com/o/oauth2/v2/auth";
export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
/** Vertex AI accepts tokens with the Cloud Platform scope. */
export const GOOGLE_CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";

export interface GoogleAuthorizationRequest {
	clientId: string;
	redirectUri: string;
	state: string;
	codeChallenge: string;
	scope?: string;
	authorizationUrl?: string;
}

/**
 * The consent URL. access_type=offline asks for a refresh token; prompt=consent makes Google send
 * one again when the user has consented before.
 */
export function buildGoogleAuthorizationUrl(request: GoogleAuthorizationRequest): string {
	return buildAuthorizationUrl({
		authorizationUrl: request.authorizationUrl ?? GOOGLE_AUTHORIZATION_URL,
		clientId: request.clientId,
		redirectUri: request.redirectUri,
		scope: request.scope ?? GOOGLE_CLOUD_PLATFORM_SCOPE,
		state: request.state,
		codeChallenge: request.codeChallenge,
		extraParameters: { access_type: "offline", prompt: "consent" },
	});
}

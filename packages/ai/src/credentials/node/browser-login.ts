// Browser logins for a program on the user's machine: start a loopback server, open the
// authorization page, wait for the redirect, exchange the code.
import { exchangeAuthorizationCode, readAuthorizationResponse } from "../oauth/authorization-code.js";
import { createOAuthState, createPkcePair } from "../oauth/pkce.js";
import { buildGoogleAuthorizationUrl, GOOGLE_TOKEN_URL } from "../providers/google.js";
import { buildOpenRouterAuthorizationUrl, exchangeOpenRouterCode } from "../providers/openrouter.js";
import type { ApiKeyCredential, OAuthCredential } from "../types.js";
import { type LoopbackServerOptions, startLoopbackServer } from "./loopback-server.js";

export interface BrowserLoginOptions {
	/** Opens (or prints) the authorization URL; openInBrowser does both. */
	openUrl: (url: string) => void | Promise<void>;
	signal?: AbortSignal;
	/** How long to wait for the redirect. Default 5 minutes. */
	timeoutMs?: number;
	/** Default 0 (any free port). */
	port?: number;
	fetch?: typeof fetch;
}

export interface OpenRouterLoginOptions extends BrowserLoginOptions {
	/** For tests: other endpoints. */
	authorizationUrl?: string;
	keyExchangeUrl?: string;
}

/** OpenRouter's PKCE login: resolves to the user's OpenRouter API key. */
export async function loginWithOpenRouter(options: OpenRouterLoginOptions): Promise<ApiKeyCredential> {
	const pkce = await createPkcePair();
	const server = await startLoopbackServer({ ...loopbackOptions(options), redirectHost: "localhost" });
	try {
		await options.openUrl(
			buildOpenRouterAuthorizationUrl({
				callbackUrl: server.redirectUri,
				codeChallenge: pkce.challenge,
				authorizationUrl: options.authorizationUrl,
			}),
		);
		const code = readAuthorizationResponse(await server.waitForCallback(), undefined);
		return await exchangeOpenRouterCode({
			code,
			codeVerifier: pkce.verifier,
			keyExchangeUrl: options.keyExchangeUrl,
			fetch: options.fetch,
			signal: options.signal,
		});
	} finally {
		await server.close();
	}
}

export interface GoogleLoginOptions extends BrowserLoginOptions {
	/** Your own OAuth client ("Desktop app") from the Google Cloud console. */
	clientId: string;
	clientSecret?: string;
	/** Default the Cloud Platform scope, which Vertex AI accepts. */
	scope?: string;
	/** For tests: other endpoints. */
	authorizationUrl?: string;
	tokenUrl?: string;
}

/**
 * Google's installed-application login with your own client: PKCE, a loopback redirect and an
 * offline refresh token. Store the result under "google-vertex"; resolveApiKey refreshes it.
 */
export async function loginWithGoogle(options: GoogleLoginOptions): Promise<OAuthCredential> {
	if (typeof options.clientId !== "string" || options.clientId === "") {
		throw new TypeError(
			"Google login needs the client id of your own OAuth client (clientId), from the Google Cloud console",
		);
	}
	const pkce = await createPkcePair();
	const state = createOAuthState();
	const server = await startLoopbackServer({ ...loopbackOptions(options), expectedState: state });
	try {
		await options.openUrl(
			buildGoogleAuthorizationUrl({
				clientId: options.clientId,
				redirectUri: server.redirectUri,
				state,
				codeChallenge: pkce.challenge,
				scope: options.scope,
				authorizationUrl: options.authorizationUrl,
			}),
		);
		const code = readAuthorizationResponse(await server.waitForCallback(), state);
		return await exchangeAuthorizationCode({
			tokenUrl: options.tokenUrl ?? GOOGLE_TOKEN_URL,
			clientId: options.clientId,
			clientSecret: options.clientSecret,
			code,
			codeVerifier: pkce.verifier,
			redirectUri: server.redirectUri,
			fetch: options.fetch,
			signal: options.signal,
		});
	} finally {
		await server.close();
	}
}

function loopbackOptions(options: BrowserLoginOptions): LoopbackServerOptions {
	return { port: options.port, timeoutMs: options.timeoutMs, signal: options.signal };
}

// OpenRouter's PKCE flow gives the user's own API key to a third-party application; no client
// registration is needed. @see https://openrouter.ai/docs/guides/overview/auth/oauth

import { urlForMessages } from "../../utils/url-for-messages.js";
import { OAuthError } from "../oauth/oauth-error.js";
import {
	isErrorResponse,
	postTokenRequest,
	type TokenRequestOptions,
	tokenErrorFromResponse,
} from "../oauth/token-endpoint.js";
import type { ApiKeyCredential } from "../types.js";

export const OPENROUTER_AUTHORIZATION_URL = "https://openrouter.ai/auth";
export const OPENROUTER_KEY_EXCHANGE_URL = "https://openrouter.ai/api/v1/auth/keys";

export interface OpenRouterAuthorizationRequest {
	/** Where OpenRouter sends the user back with `?code=…`; localhost callbacks may use any port. */
	callbackUrl: string;
	codeChallenge: string;
	/** For tests: another authorization page. */
	authorizationUrl?: string;
}

/** The URL to open: OpenRouter's /auth with callback_url and an S256 code challenge. */
export function buildOpenRouterAuthorizationUrl(request: OpenRouterAuthorizationRequest): string {
	const url = new URL(request.authorizationUrl ?? OPENROUTER_AUTHORIZATION_URL);
	url.searchParams.set("callback_url", request.callbackUrl);
	url.searchParams.set("code_challenge", request.codeChallenge);
	url.searchParams.set("code_challenge_method", "S256");
	return url.toString();
}

export interface OpenRouterKeyExchange extends Pick<TokenRequestOptions, "fetch" | "signal"> {
	code: string;
	codeVerifier: string;
	/** For tests: another exchange endpoint. */
	keyExchangeUrl?: string;
}

/**
 * Exchanges the callback's code for the user's API key (POST /api/v1/auth/keys, JSON). OpenRouter
 * answers 403 for a wrong, used or expired code or verifier.
 */
export async function exchangeOpenRouterCode(exchange: OpenRouterKeyExchange): Promise<ApiKeyCredential> {
	const url = exchange.keyExchangeUrl ?? OPENROUTER_KEY_EXCHANGE_URL;
	const parameters = { code: exchange.code, code_verifier: exchange.codeVerifier, code_challenge_method: "S256" };
	const step = "OpenRouter key exchange";
	const { status, body } = await postTokenRequest(url, parameters, step, { ...exchange, json: true });
	if (isErrorResponse(status, body)) {
		// OpenRouter's errors are { error: { code, message } }, not RFC 6749's string.
		const nested = body.error as unknown;
		const message =
			nested && typeof nested === "object" && typeof (nested as { message?: unknown }).message === "string"
				? (nested as { message: string }).message
				: undefined;
		const normalised = message
			? { error: status === 403 ? "invalid_grant" : `http_${status}`, error_description: message }
			: body;
		throw tokenErrorFromResponse(url, status, normalised, step, [exchange.code, exchange.codeVerifier]);
	}
	if (typeof body.key !== "string" || body.key === "") {
		throw new OAuthError(
			`OAuth ${step} failed: ${urlForMessages(url)} answered without a key`,
			"invalid_response",
			status,
		);
	}
	return { type: "api-key", key: body.key };
}

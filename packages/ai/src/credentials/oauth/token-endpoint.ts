// Reading a token endpoint's answers (RFC 6749 section 5), the error OAuthError built from one, and
// `postTokenRequest`: one POST for the exchanges that are not OAuth grants (OpenRouter's key
// exchange). The grants themselves are sent by oauth4webapi (protocol-client.ts).
import { redactSecrets } from "../../call/secret-redaction.js";
import { credentialsInUrl, urlForMessages, withUrlForMessages } from "../../utils/url-for-messages.js";
import { OAuthError } from "./oauth-error.js";

/** Token requests that hang are abandoned after this long. */
export const TOKEN_REQUEST_TIMEOUT_MS = 30_000;

export interface TokenEndpointResponse {
	access_token?: string;
	refresh_token?: string;
	expires_in?: number;
	token_type?: string;
	scope?: string;
	error?: string;
	error_description?: string;
	interval?: number;
	[field: string]: unknown;
}

export interface TokenRequestOptions {
	/** For tests and runtimes with their own fetch; defaults to the global fetch. */
	fetch?: typeof fetch;
	signal?: AbortSignal;
	/** Sent as a JSON body instead of a form (OpenRouter's key exchange takes JSON). */
	json?: boolean;
}

/**
 * Posts `parameters` to `url` and returns the parsed answer, error answers included (the caller
 * decides what `authorization_pending` means). Throws OAuthError for a network failure or a body
 * that is neither JSON nor a form. `step` names the request in messages ("refreshing the token").
 * Values in `parameters` are redacted from every message, and `url` shows without its user info
 * and query string (see url-for-messages.ts).
 */
export async function postTokenRequest(
	url: string,
	parameters: Record<string, string>,
	step: string,
	options: TokenRequestOptions = {},
): Promise<{ status: number; body: TokenEndpointResponse }> {
	const secrets = [...Object.values(parameters), ...credentialsInUrl(url)];
	const fetchFunction = options.fetch ?? globalThis.fetch;
	const timeout = AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS);
	const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
	let response: Response;
	try {
		response = await fetchFunction(url, {
			method: "POST",
			headers: {
				accept: "application/json",
				"content-type": options.json ? "application/json" : "application/x-www-form-urlencoded",
			},
			body: options.json ? JSON.stringify(parameters) : new URLSearchParams(parameters).toString(),
			signal,
		});
	} catch (error) {
		const reason = error instanceof Error ? error.message || error.name : String(error);
		const cause = timeout.aborted ? `no answer within ${TOKEN_REQUEST_TIMEOUT_MS / 1000} s` : reason;
		throw new OAuthError(
			redactSecrets(
				`OAuth ${step} failed: could not reach ${urlForMessages(url)}: ${withUrlForMessages(cause, url)}`,
				secrets,
			),
			"network_error",
		);
	}
	const text = await response.text();
	const body = parseTokenBody(text);
	if (!body) {
		const excerpt = redactSecrets(text.slice(0, 200), secrets);
		throw new OAuthError(
			`OAuth ${step} failed: ${urlForMessages(url)} answered ${response.status} with a body that is not JSON: ${excerpt}`,
			response.ok ? "invalid_response" : `http_${response.status}`,
			response.status,
		);
	}
	return { status: response.status, body };
}

/** The OAuthError for an error answer: the server's code and description, secrets redacted. */
export function tokenErrorFromResponse(
	url: string,
	status: number,
	body: TokenEndpointResponse,
	step: string,
	secrets: readonly (string | undefined)[],
): OAuthError {
	const code = typeof body.error === "string" && body.error !== "" ? body.error : `http_${status}`;
	const description = typeof body.error_description === "string" ? `: ${body.error_description}` : "";
	const text = `OAuth ${step} failed: ${urlForMessages(url)} answered ${status} ${code}${description}`;
	return new OAuthError(redactSecrets(text, [...secrets, ...credentialsInUrl(url)]).slice(0, 1000), code, status);
}

/** True when the answer is an error: an `error` field (GitHub sends it with status 200) or a non-2xx status. */
export function isErrorResponse(status: number, body: TokenEndpointResponse): boolean {
	return typeof body.error === "string" || status < 200 || status > 299;
}

/** A token endpoint's body, JSON or form-encoded (GitHub without an Accept header); undefined for anything else. */
export function parseTokenBody(text: string): TokenEndpointResponse | undefined {
	const trimmed = text.trim();
	if (trimmed.startsWith("{")) {
		try {
			const parsed: unknown = JSON.parse(trimmed);
			return parsed && typeof parsed === "object" && !Array.isArray(parsed)
				? (parsed as TokenEndpointResponse)
				: undefined;
		} catch {
			return undefined;
		}
	}
	if (/^[\w.~%+-]+=[^\s]*$/.test(trimmed)) {
		const form = Object.fromEntries(new URLSearchParams(trimmed));
		const body: TokenEndpointResponse = form;
		if (typeof form.expires_in === "string") body.expires_in = Number(form.expires_in);
		if (typeof form.interval === "string") body.interval = Number(form.interval);
		return body;
	}
	return undefined;
}

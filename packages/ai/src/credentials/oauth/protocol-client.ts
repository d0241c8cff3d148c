// The bridge between Keel's OAuth steps and oauth4webapi, which builds the requests (grant
// parameters, client authentication) and checks the answers (status, content type, the token
// response's fields) as RFC 6749 and RFC 8628 say. What stays here: the endpoints Keel was given
// (no discovery), the timeout, and the servers' quirks, undone in one `fetch` wrapper before
// oauth4webapi reads an answer: GitHub answers errors with status 200 (and form-encoded bodies
// without an Accept header), Google names the device flow's `verification_url`. Every failure
// becomes an OAuthError that names the step and the endpoint, with secrets and URL credentials redacted.
// @see https://github.com/panva/oauth4webapi/blob/main/docs/README.md
import * as oauth from "oauth4webapi";
import { redactSecrets } from "../../call/secret-redaction.js";
import { credentialsInUrl, urlForMessages, withUrlForMessages } from "../../utils/url-for-messages.js";
import { OAuthError } from "./oauth-error.js";
import {
	parseTokenBody,
	TOKEN_REQUEST_TIMEOUT_MS,
	type TokenEndpointResponse,
	type TokenRequestOptions,
	tokenErrorFromResponse,
} from "./token-endpoint.js";

/** One request of an OAuth step: where it goes, what it is called in messages, what must never show. */
export interface ProtocolCall extends Pick<TokenRequestOptions, "fetch" | "signal"> {
	url: string;
	/** "token refresh", "device login" …: names the step in messages. */
	step: string;
	/** Values redacted from every message (codes, verifiers, tokens, the client secret). */
	secrets: readonly (string | undefined)[];
}

/** The authorization server as oauth4webapi sees it: the endpoints Keel was given, nothing discovered. */
export function authorizationServer(endpoints: {
	tokenUrl?: string;
	deviceAuthorizationUrl?: string;
}): oauth.AuthorizationServer {
	const known = endpoints.tokenUrl ?? endpoints.deviceAuthorizationUrl ?? "";
	let issuer: string;
	try {
		issuer = new URL(known).origin;
	} catch {
		throw new OAuthError(`OAuth failed: the endpoint ${urlForMessages(known)} is not a URL`, "invalid_request");
	}
	return {
		issuer,
		token_endpoint: endpoints.tokenUrl,
		device_authorization_endpoint: endpoints.deviceAuthorizationUrl,
	};
}

/** A public client sends its id only; a client with a secret sends both in the body (client_secret_post). */
export function clientAuthentication(clientSecret: string | undefined): oauth.ClientAuth {
	return clientSecret ? oauth.ClientSecretPost(clientSecret) : oauth.None();
}

// oauth4webapi refuses plain http, rightly for real servers; a loopback address (a local test
// server, a development proxy) never leaves the machine.
function isLoopbackHttp(url: string): boolean {
	try {
		const { protocol, hostname } = new URL(url);
		return protocol === "http:" && (hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]");
	} catch {
		return false;
	}
}

/**
 * Runs one request (`send`, given the options to pass to oauth4webapi) and reads its answer
 * (`read`); any failure comes out as an OAuthError.
 */
export async function runProtocolCall<T>(
	call: ProtocolCall,
	send: (options: oauth.TokenEndpointRequestOptions) => Promise<Response>,
	read: (response: Response) => Promise<T>,
): Promise<T> {
	const timeout = AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS);
	const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
	const secrets = [...call.secrets, ...credentialsInUrl(call.url)];
	let status = 0;
	const normalizingFetch = async (url: string, init: oauth.CustomFetchOptions<string, unknown>): Promise<Response> => {
		let response: Response;
		try {
			response = await (call.fetch ?? globalThis.fetch)(url, init as RequestInit);
		} catch (error) {
			const reason = error instanceof Error ? error.message || error.name : String(error);
			const cause = timeout.aborted ? `no answer within ${TOKEN_REQUEST_TIMEOUT_MS / 1000} s` : reason;
			throw new OAuthError(
				redactSecrets(
					`OAuth ${call.step} failed: could not reach ${urlForMessages(call.url)}: ${withUrlForMessages(cause, call.url)}`,
					secrets,
				),
				"network_error",
			);
		}
		status = response.status;
		const text = await response.text();
		const body = parseTokenBody(text);
		if (!body) {
			const excerpt = redactSecrets(text.slice(0, 200), secrets);
			throw new OAuthError(
				`OAuth ${call.step} failed: ${urlForMessages(call.url)} answered ${response.status} with a body that is not JSON: ${excerpt}`,
				response.ok ? "invalid_response" : `http_${response.status}`,
				response.status,
			);
		}
		if (body.verification_uri === undefined && typeof body.verification_url === "string") {
			body.verification_uri = body.verification_url;
		}
		// An `error` field is an error answer whatever the status (GitHub sends 200).
		const answeredStatus = typeof body.error === "string" && response.ok ? 400 : response.status;
		return new Response(JSON.stringify(body), {
			status: answeredStatus,
			headers: { "content-type": "application/json" },
		});
	};
	const options: oauth.TokenEndpointRequestOptions = {
		signal,
		[oauth.customFetch]: normalizingFetch,
		[oauth.allowInsecureRequests]: isLoopbackHttp(call.url),
	};
	try {
		return await read(await send(options));
	} catch (error) {
		throw protocolError(error, call, status, secrets);
	}
}

function protocolError(
	error: unknown,
	call: ProtocolCall,
	status: number,
	secrets: readonly (string | undefined)[],
): OAuthError {
	if (error instanceof OAuthError) return error;
	if (error instanceof oauth.ResponseBodyError) {
		const body: TokenEndpointResponse = { ...error.cause, error: error.error };
		if (error.error_description !== undefined) body.error_description = error.error_description;
		return tokenErrorFromResponse(call.url, status || error.status, body, call.step, secrets);
	}
	const reason = error instanceof Error ? error.message : String(error);
	const where = status
		? `${urlForMessages(call.url)} answered ${status} with an invalid response`
		: urlForMessages(call.url);
	return new OAuthError(
		redactSecrets(`OAuth ${call.step} failed: ${where}: ${withUrlForMessages(reason, call.url)}`, secrets),
		"invalid_response",
		status || undefined,
	);
}

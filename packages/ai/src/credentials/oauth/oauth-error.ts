/**
 * A failed OAuth step. `code` is the server's `error` value when it sent one ("invalid_grant",
 * "access_denied", "expired_token", … from RFC 6749 section 5.2 and RFC 8628 section 3.5), else
 * "http_<status>", "invalid_response" or "network_error". The message says which step failed
 * and never holds a token, a code or a verifier: they are redacted from anything a server wrote.
 */
export class OAuthError extends Error {
	readonly code: string;
	readonly status: number | undefined;

	constructor(message: string, code: string, status?: number) {
		super(message);
		this.name = "OAuthError";
		this.code = code;
		this.status = status;
	}
}

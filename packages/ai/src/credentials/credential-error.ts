/**
 * A stored credential that cannot be used: expired without a refresh token, or refused by the
 * token endpoint. `code` is the OAuth error code when the server gave one ("invalid_grant").
 */
export class CredentialError extends Error {
	readonly provider: string;
	readonly code: string | undefined;

	constructor(message: string, provider: string, code?: string) {
		super(message);
		this.name = "CredentialError";
		this.provider = provider;
		this.code = code;
	}
}

/** The one wording of a stored-credential problem: what failed, and what to do about it. */
export function credentialProblemMessage(provider: string, problem: string): string {
	return `The stored OAuth credential for provider "${provider}" ${problem}; the stored credential was left unchanged. Log in again (keel login ${provider}) or store a new credential`;
}

// Proof Key for Code Exchange (RFC 7636) with the S256 method, from oauth4webapi (Web Crypto, so
// it runs in browsers, Workers and Node alike).
import * as oauth from "oauth4webapi";

export interface PkcePair {
	/** Sent with the token request; kept secret until then. */
	verifier: string;
	/** BASE64URL(SHA-256(verifier)), sent with the authorization request. */
	challenge: string;
	method: "S256";
}

/** A fresh verifier of 43 characters (32 random bytes, the RFC's recommendation) and its challenge. */
export async function createPkcePair(): Promise<PkcePair> {
	const verifier = oauth.generateRandomCodeVerifier();
	return { verifier, challenge: await createPkceChallenge(verifier), method: "S256" };
}

export async function createPkceChallenge(verifier: string): Promise<string> {
	return oauth.calculatePKCECodeChallenge(verifier);
}

/** A random value for the `state` parameter, which ties a callback to the request that caused it. */
export function createOAuthState(): string {
	return oauth.generateRandomState();
}

// Proof Key for Code Exchange (RFC 7636) with the S256 method, on Web Crypto so it runs in
// browsers, Workers and Node alike.

export interface PkcePair {
	/** Sent with the token request; kept secret until then. */
	verifier: string;
	/** BASE64URL(SHA-256(verifier)), sent with the authorization request. */
	challenge: string;
	method: "S256";
}

/** A fresh verifier of 43 characters (32 random bytes, the RFC's recommendation) and its challenge. */
export async function createPkcePair(): Promise<PkcePair> {
	const verifier = base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)));
	return { verifier, challenge: await createPkceChallenge(verifier), method: "S256" };
}

export async function createPkceChallenge(verifier: string): Promise<string> {
	const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
	return base64UrlEncode(new Uint8Array(digest));
}

/** A random value for the `state` parameter, which ties a callback to the request that caused it. */
export function createOAuthState(): string {
	return base64UrlEncode(crypto.getRandomValues(new Uint8Array(16)));
}

/** Base64 with the URL-safe alphabet and no padding (RFC 4648 section 5), without Buffer. */
export function base64UrlEncode(bytes: Uint8Array): string {
	let binary = "";
	for (const byte of bytes) binary += String.fromCharCode(byte);
	return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

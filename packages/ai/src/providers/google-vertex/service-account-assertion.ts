// The signed JWT a service account exchanges for an access token: RS256 over
// `base64url(header).base64url(claims)`, signed with the key file's PKCS#8 private key through the
// platform's WebCrypto (globalThis.crypto.subtle: Node 20, browsers, Workers), so no Node module
// is needed.
// @see https://developers.google.com/identity/protocols/oauth2/service-account#authorizingrequests
import { NonRetryableError } from "../../call/provider-attempt.js";
import type { GoogleServiceAccountCredentials } from "./google-credentials.js";

/** Google's tokens for a signed assertion are valid for at most an hour. */
const ASSERTION_LIFETIME_SECONDS = 3600;

function base64UrlFromBytes(bytes: Uint8Array): string {
	let binary = "";
	for (const byte of bytes) binary += String.fromCharCode(byte);
	return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function base64UrlFromJson(value: unknown): string {
	return base64UrlFromBytes(new TextEncoder().encode(JSON.stringify(value)));
}

function pkcs8FromPem(pem: string, source: string): Uint8Array<ArrayBuffer> {
	const body = pem
		.replace(/-----BEGIN PRIVATE KEY-----/, "")
		.replace(/-----END PRIVATE KEY-----/, "")
		.replace(/\s+/g, "");
	try {
		const binary = atob(body);
		return Uint8Array.from(binary, (character) => character.charCodeAt(0));
	} catch {
		throw new NonRetryableError(
			`Google credentials in ${source}: field "private_key" is not a PEM-encoded PKCS#8 private key`,
		);
	}
}

/** A JWT asserting the service account's identity, for `scope`, addressed to `audience` (the token URI). */
export async function signServiceAccountAssertion(
	credentials: GoogleServiceAccountCredentials,
	scope: string,
	audience: string,
	source: string,
	nowSeconds: number,
): Promise<string> {
	const subtle = globalThis.crypto?.subtle;
	if (!subtle) {
		throw new NonRetryableError(
			"Signing a Google service-account assertion needs WebCrypto (globalThis.crypto.subtle), which this runtime lacks",
		);
	}
	let key: CryptoKey;
	try {
		key = await subtle.importKey(
			"pkcs8",
			pkcs8FromPem(credentials.private_key, source),
			{ name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
			false,
			["sign"],
		);
	} catch (error) {
		if (error instanceof NonRetryableError) throw error;
		throw new NonRetryableError(
			`Google credentials in ${source}: field "private_key" is not an RSA private key in PKCS#8 form`,
		);
	}
	const header = {
		alg: "RS256",
		typ: "JWT",
		...(credentials.private_key_id ? { kid: credentials.private_key_id } : {}),
	};
	const claims = {
		iss: credentials.client_email,
		scope,
		aud: audience,
		iat: nowSeconds,
		exp: nowSeconds + ASSERTION_LIFETIME_SECONDS,
	};
	const unsigned = `${base64UrlFromJson(header)}.${base64UrlFromJson(claims)}`;
	const signature = await subtle.sign("RSASSA-PKCS1-v1_5", key, new TextEncoder().encode(unsigned));
	return `${unsigned}.${base64UrlFromBytes(new Uint8Array(signature))}`;
}

// Vertex AI's credentials: a caller's OAuth token, an API key (express mode), Google credentials
// the caller passes (options.credentials), or Application Default Credentials (files, then the
// metadata server of a Google Cloud machine). Keel turns credentials into tokens itself
// (google-access-token.ts, metadata-server-token.ts); the Application Default Credentials lookup is
// Node-only and imported on the first call that needs it, never when Keel loads.
// @see https://cloud.google.com/docs/authentication/application-default-credentials

import { NonRetryableError } from "../../call/provider-attempt.js";
import { AMBIENT_CREDENTIALS } from "../../env-api-keys.js";
import { googleAccessToken } from "./google-access-token.js";
import { type GoogleCredentials, validateGoogleCredentials } from "./google-credentials.js";
import type { GoogleVertexOptions } from "./options.js";

const NO_CREDENTIALS =
	"Vertex AI found no credentials: pass options.accessToken, options.credentials (a service-account key) or an API key (options.apiKey or GOOGLE_CLOUD_API_KEY), set GOOGLE_APPLICATION_CREDENTIALS to a service-account key file, run `gcloud auth application-default login`, or run on Google Cloud with a service account attached";

/** An API key the caller or the environment gave, not the "use ambient credentials" sentinel. */
export function vertexApiKey(apiKey: string | undefined): string | undefined {
	return apiKey && apiKey !== AMBIENT_CREDENTIALS ? apiKey : undefined;
}

function isNode(): boolean {
	return typeof process !== "undefined" && typeof process.versions?.node === "string";
}

/** Registers a value that must never appear in the call's events, messages or errors. */
export type RegisterSecret = (secret: string) => void;

/**
 * The values of credentials that are secret: a service account's private key (its base64 body, so
 * that a quote of any of its lines is caught, not the PEM armour every key shares), an authorized
 * user's refresh token and client secret.
 */
export function credentialSecrets(credentials: GoogleCredentials): string[] {
	if (credentials.type === "service_account") {
		return [credentials.private_key.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "")];
	}
	return [credentials.refresh_token, credentials.client_secret];
}

/**
 * The Authorization header's bearer token: options.accessToken, options.credentials, else
 * Application Default Credentials. The token, and the credentials that obtained it, are registered
 * with `registerSecret` before they are sent anywhere.
 */
export async function vertexAccessToken(options: GoogleVertexOptions, registerSecret: RegisterSecret): Promise<string> {
	const given = options.accessToken;
	if (given !== undefined) {
		const token = typeof given === "function" ? await given() : given;
		if (typeof token !== "string" || token === "") {
			throw new NonRetryableError("options.accessToken gave no token: expected a non-empty string");
		}
		registerSecret(token);
		return token;
	}
	if (options.credentials !== undefined) {
		const source = "options.credentials";
		return tokenFor(validateGoogleCredentials(options.credentials, source), source, registerSecret);
	}
	if (!isNode()) {
		throw new NonRetryableError(
			"Vertex AI Application Default Credentials are read from files, which needs Node.js; in a browser or a Worker pass options.accessToken, options.credentials or an API key (options.apiKey)",
		);
	}
	const { findApplicationDefaultCredentials } = await import("./application-default-credentials.js");
	const located = findApplicationDefaultCredentials();
	if (located) return tokenFor(located.credentials, located.source, registerSecret);
	// The last step of the chain: the metadata server of a Google Cloud machine.
	const { metadataServerToken } = await import("./metadata-server-token.js");
	const token = await metadataServerToken(NO_CREDENTIALS);
	registerSecret(token);
	return token;
}

async function tokenFor(
	credentials: GoogleCredentials,
	source: string,
	registerSecret: RegisterSecret,
): Promise<string> {
	for (const secret of credentialSecrets(credentials)) registerSecret(secret);
	const token = await googleAccessToken(credentials, source);
	registerSecret(token);
	return token;
}

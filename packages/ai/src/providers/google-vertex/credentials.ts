// Vertex AI's credentials: an API key (express mode), a caller's OAuth token, or Application
// Default Credentials read by Google's `google-auth-library`. That library is Node-only and
// optional: it is imported on the first call that needs it, never when Keel loads.
// @see https://cloud.google.com/docs/authentication/application-default-credentials
import { AMBIENT_CREDENTIALS } from "../../env-api-keys.js";
import { formatThrownValue } from "../../utils/error-message.js";
import { NonRetryableError } from "../shared/provider-attempt.js";
import type { GoogleVertexOptions } from "./options.js";

const CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";
// A variable, so bundlers and tsc leave the optional package alone.
const AUTH_LIBRARY = "google-auth-library";

interface GoogleAuthClient {
	getAccessToken(): Promise<string | null | undefined>;
}

let applicationDefaultAuth: Promise<GoogleAuthClient> | undefined;

/** An API key the caller or the environment gave, not the "use ambient credentials" sentinel. */
export function vertexApiKey(apiKey: string | undefined): string | undefined {
	return apiKey && apiKey !== AMBIENT_CREDENTIALS ? apiKey : undefined;
}

async function loadApplicationDefaultAuth(): Promise<GoogleAuthClient> {
	if (typeof process === "undefined" || !process.versions?.node) {
		throw new NonRetryableError(
			"Vertex AI Application Default Credentials need Node.js; in a browser or a Worker pass options.accessToken or an API key (options.apiKey)",
		);
	}
	let library: { GoogleAuth: new (options: { scopes: string[] }) => GoogleAuthClient };
	try {
		library = await import(/* @vite-ignore */ AUTH_LIBRARY);
	} catch (error) {
		throw new NonRetryableError(
			`Vertex AI without an API key or options.accessToken uses Application Default Credentials, which needs the google-auth-library package: install it (npm install google-auth-library) or pass a credential (${formatThrownValue(error)})`,
		);
	}
	return new library.GoogleAuth({ scopes: [CLOUD_PLATFORM_SCOPE] });
}

/** The Authorization header's bearer token, from options.accessToken or Application Default Credentials. */
export async function vertexAccessToken(options: GoogleVertexOptions): Promise<string> {
	const given = options.accessToken;
	if (given !== undefined) {
		const token = typeof given === "function" ? await given() : given;
		if (typeof token !== "string" || token === "") {
			throw new NonRetryableError("options.accessToken gave no token: expected a non-empty string");
		}
		return token;
	}
	applicationDefaultAuth ??= loadApplicationDefaultAuth();
	let auth: GoogleAuthClient;
	try {
		auth = await applicationDefaultAuth;
	} catch (error) {
		applicationDefaultAuth = undefined;
		throw error;
	}
	const token = await auth.getAccessToken();
	if (!token) {
		throw new NonRetryableError(
			"Application Default Credentials gave no access token: run `gcloud auth application-default login` or set GOOGLE_APPLICATION_CREDENTIALS",
		);
	}
	return token;
}

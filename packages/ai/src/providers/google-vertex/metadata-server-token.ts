// The last step of Application Default Credentials: on Compute Engine, Cloud Run, Cloud Functions
// and GKE, the metadata server gives the attached service account's access token to any request
// carrying `Metadata-Flavor: Google`. GCE_METADATA_HOST overrides the host (an emulator, a test
// server). Elsewhere the host does not resolve or does not answer, so the request has a short time
// limit and its failure ends the call with a message listing what to set instead.
// @see https://cloud.google.com/compute/docs/access/authenticate-workloads#applications
// @see https://cloud.google.com/docs/authentication/application-default-credentials#search_order

import { NonRetryableError } from "../../call/provider-attempt.js";
import { formatThrownValue } from "../../utils/error-message.js";
import { environmentVariable } from "../../wire/environment.js";
import { type IssuedToken, reuseOrRequestToken } from "./access-token-cache.js";

const DEFAULT_METADATA_HOST = "metadata.google.internal";
const TOKEN_PATH = "/computeMetadata/v1/instance/service-accounts/default/token";
/**
 * The metadata server answers within milliseconds on Google Cloud; off it, this is how long a
 * call waits before it says no credentials were found.
 */
export const METADATA_TIMEOUT_MS = 3000;
/** Used when the answer leaves out expires_in. */
const DEFAULT_LIFETIME_SECONDS = 3600;

/** The metadata server's host (and port): GCE_METADATA_HOST, else metadata.google.internal. */
export function metadataHost(): string {
	return environmentVariable("GCE_METADATA_HOST") ?? DEFAULT_METADATA_HOST;
}

/**
 * An access token of the service account attached to the Google Cloud machine, cached until
 * shortly before it expires. `noCredentials` is the message for a machine that is not on Google
 * Cloud (no metadata server answered): the call cannot succeed there, so it is not retried.
 */
export function metadataServerToken(noCredentials: string): Promise<string> {
	const host = metadataHost();
	return reuseOrRequestToken(`metadata\n${host}`, () => requestToken(host, noCredentials));
}

async function requestToken(host: string, noCredentials: string): Promise<IssuedToken> {
	const url = `http://${host}${TOKEN_PATH}`;
	let response: Response;
	let text: string;
	try {
		response = await fetch(url, {
			headers: { "Metadata-Flavor": "Google" },
			signal: AbortSignal.timeout(METADATA_TIMEOUT_MS),
		});
		text = await response.text();
	} catch (error) {
		const cause =
			error instanceof DOMException && error.name === "TimeoutError"
				? `no answer within ${METADATA_TIMEOUT_MS} ms`
				: describeFailure(error);
		throw new NonRetryableError(`${noCredentials} (the Google Cloud metadata server at ${host} was tried: ${cause})`);
	}
	const what = `The Google Cloud metadata server at ${host}`;
	if (response.status >= 500) {
		// A server error may pass: the status lets the harness retry it like a provider's.
		const detail = text.trim().slice(0, 200) || response.statusText;
		throw Object.assign(new Error(`${what} failed${detail ? ` (${detail})` : ""}`), { status: response.status });
	}
	if (!response.ok) {
		// No service account attached (404), a proxy in the way: asking again cannot help.
		const detail = text.trim().slice(0, 200);
		throw new NonRetryableError(
			`${what} refused the token request (HTTP ${response.status}${detail ? `: ${detail}` : ""})${
				response.status === 404 ? "; is a service account attached to this machine?" : ""
			}`,
		);
	}
	let body: { access_token?: unknown; expires_in?: unknown } = {};
	try {
		body = JSON.parse(text) as typeof body;
	} catch {
		// Reported below as a missing access_token.
	}
	if (typeof body?.access_token !== "string" || body.access_token === "") {
		throw new NonRetryableError(`${what} answered without an access_token`);
	}
	const lifetime =
		typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in : DEFAULT_LIFETIME_SECONDS;
	return { token: body.access_token, lifetimeSeconds: lifetime };
}

/** fetch's "fetch failed" with its system cause (ENOTFOUND, ECONNREFUSED …), which says more. */
function describeFailure(error: unknown): string {
	const cause = (error as { cause?: unknown } | null)?.cause;
	return cause ? formatThrownValue(cause) : formatThrownValue(error);
}

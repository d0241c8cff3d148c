// The metadata server in @keel/ai's build for browsers and Workers (the package's "browser"
// condition, see package.json "imports"): only a Google Cloud machine has one, so the call ends
// with the message that lists the credentials a browser or a Worker can pass.
// @see https://cloud.google.com/compute/docs/access/authenticate-workloads#applications

import { NonRetryableError } from "../../call/provider-attempt.js";

/** Fails with `noCredentials`: a browser or a Worker is no Google Cloud machine. */
export async function metadataServerToken(noCredentials: string): Promise<string> {
	throw new NonRetryableError(noCredentials);
}

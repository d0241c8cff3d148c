// Application Default Credentials in @keel/ai's build for browsers and Workers (the package's
// "browser" condition, see package.json "imports"): there are no credential files to read, so
// there are none to find, and the chain goes on to the metadata server, which is not there either
// (metadata-server-token.browser.ts). Node, Deno and Bun load application-default-credentials.ts.
// @see https://cloud.google.com/docs/authentication/application-default-credentials#search_order

import type { LocatedCredentials } from "./application-default-credentials.js";

/** No credentials files in a browser or a Worker. */
export function findApplicationDefaultCredentials(): LocatedCredentials | undefined {
	return undefined;
}

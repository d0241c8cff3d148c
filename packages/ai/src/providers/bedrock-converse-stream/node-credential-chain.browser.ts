// The AWS credential chain in @keel/ai's build for browsers and Workers (the package's "browser"
// condition, see package.json "imports"): the chain reads files, runs processes and asks instance
// metadata, none of which a browser or a Worker has, so the call fails saying what to pass instead.
// Node, Deno and Bun load node-credential-chain.ts.
// @see https://docs.aws.amazon.com/sdkref/latest/guide/standardized-credentials.html

import { NonRetryableError } from "../../call/provider-attempt.js";
import type { AwsCredentials } from "./options.js";

/** Fails: there is no AWS credential chain here. */
export async function loadNodeCredentials(_profile: string | undefined): Promise<AwsCredentials> {
	throw new NonRetryableError(
		"No AWS credentials for bedrock-converse-stream: the AWS credential chain (profiles, SSO, container and instance roles) runs on Node only; pass accessKeyId and secretAccessKey (or a credentials function, or a Bedrock API key as bearerToken) in the options",
	);
}

// Where SigV4 credentials come from, first match wins: the `credentials` function, the
// `accessKeyId`/`secretAccessKey` options, the AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY environment
// variables (where there is a `process.env`, and unless a profile is named, as the AWS SDK does),
// and on Node the AWS SDK's full credential chain (node-credential-chain.ts).
// @see https://docs.aws.amazon.com/sdkref/latest/guide/standardized-credentials.html

import { NonRetryableError } from "../../call/provider-attempt.js";
import { environmentVariable } from "../../wire/environment.js";
import { loadNodeCredentials } from "./node-credential-chain.js";
import type { AwsCredentials, BedrockOptions } from "./options.js";

function isNode(): boolean {
	return typeof process !== "undefined" && typeof process.versions?.node === "string";
}

/** The profile named by the option or AWS_PROFILE, if any. */
export function bedrockProfile(options: BedrockOptions): string | undefined {
	return options.profile || environmentVariable("AWS_PROFILE");
}

/** The credentials to sign one attempt with; a clear error when there are none to be found. */
export async function resolveSigningCredentials(options: BedrockOptions): Promise<AwsCredentials> {
	if (options.credentials) return checked(await options.credentials(), "the credentials function");
	if (options.accessKeyId || options.secretAccessKey) {
		return checked(
			{
				accessKeyId: options.accessKeyId ?? "",
				secretAccessKey: options.secretAccessKey ?? "",
				sessionToken: options.sessionToken,
			},
			"the accessKeyId and secretAccessKey options",
		);
	}
	const profile = bedrockProfile(options);
	const accessKeyId = environmentVariable("AWS_ACCESS_KEY_ID");
	const secretAccessKey = environmentVariable("AWS_SECRET_ACCESS_KEY");
	if (!profile && accessKeyId && secretAccessKey) {
		return { accessKeyId, secretAccessKey, sessionToken: environmentVariable("AWS_SESSION_TOKEN") };
	}
	if (!isNode()) {
		throw new NonRetryableError(
			"No AWS credentials for bedrock-converse-stream: outside Node pass accessKeyId and secretAccessKey (or a credentials function, or a Bedrock API key as bearerToken) in the options",
		);
	}
	return checked(await loadNodeCredentials(profile), "the AWS credential chain");
}

function checked(credentials: AwsCredentials | undefined, source: string): AwsCredentials {
	if (!credentials?.accessKeyId || !credentials.secretAccessKey) {
		throw new NonRetryableError(`AWS credentials from ${source} need both an access key id and a secret access key`);
	}
	return credentials;
}

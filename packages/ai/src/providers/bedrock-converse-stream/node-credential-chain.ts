// On Node, the AWS SDK's full credential chain: environment, shared config and credentials files
// with their profiles (SSO, assumed roles, credential_process), web identity, container (ECS, EKS
// Pod Identity) and instance metadata. It comes from the optional peer `@aws-sdk/credential-providers`,
// imported only when a call finds no explicit credentials, so no other call and no bundle pays for it.
// @see https://docs.aws.amazon.com/AWSJavaScriptSDK/v3/latest/Package/-aws-sdk-credential-providers/#fromnodeproviderchain

import { NonRetryableError } from "../../call/provider-attempt.js";
import type { AwsCredentials } from "./options.js";

// The module name sits in a variable so that bundlers do not follow the import: the chain brings
// node:fs, node:http and node:child_process, which browser and Worker builds must not see.
const CREDENTIAL_PROVIDERS_MODULE = "@aws-sdk/credential-providers";

type CredentialProvider = () => Promise<AwsCredentials>;
interface CredentialProvidersModule {
	fromNodeProviderChain(init?: { profile?: string }): CredentialProvider;
}

/** How many profiles keep a chain. */
const MAX_KEPT_CHAINS = 8;

// One chain per profile, kept: the SDK's chain caches what it resolved (a profile's files, an SSO
// token, an instance role's metadata call) and refreshes it before it expires, so later calls do
// not fetch credentials again.
const keptChains = new Map<string, CredentialProvider>();

async function loadCredentialProviders(): Promise<CredentialProvidersModule> {
	try {
		return await import(/* @vite-ignore */ /* webpackIgnore: true */ CREDENTIAL_PROVIDERS_MODULE);
	} catch (error) {
		const missing = error as { code?: unknown; message?: unknown } | undefined;
		const isMissing =
			missing?.code === "ERR_MODULE_NOT_FOUND" && String(missing.message).includes(`'${CREDENTIAL_PROVIDERS_MODULE}'`);
		if (!isMissing) throw error;
		throw new NonRetryableError(
			`No AWS credentials for bedrock-converse-stream in the options or the environment, and the AWS credential chain (profiles, SSO, container and instance roles) needs ${CREDENTIAL_PROVIDERS_MODULE}, which is not installed: run \`npm install ${CREDENTIAL_PROVIDERS_MODULE}\`, or pass accessKeyId and secretAccessKey (or a Bedrock API key as bearerToken)`,
		);
	}
}

/** Credentials from the AWS credential chain, for `profile` (or the default one). */
export async function loadNodeCredentials(profile: string | undefined): Promise<AwsCredentials> {
	const key = profile ?? "";
	let chain = keptChains.get(key);
	if (!chain) {
		const providers = await loadCredentialProviders();
		chain = keptChains.get(key) ?? providers.fromNodeProviderChain(profile ? { profile } : {});
		if (keptChains.size >= MAX_KEPT_CHAINS && !keptChains.has(key)) {
			const oldest = keptChains.keys().next().value;
			if (oldest !== undefined) keptChains.delete(oldest);
		}
		keptChains.set(key, chain);
	}
	return chain();
}

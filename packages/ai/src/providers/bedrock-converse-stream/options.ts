import type { StreamOptions } from "../../types.js";

/** Bedrock's `toolChoice`: a string is shorthand; `{ tool: name }` forces one tool. "none" sends no tools. */
export type BedrockToolChoice = "auto" | "any" | "none" | { tool: string };

/** Effort for Claude models with adaptive thinking (Claude 4.6 and later), sent in `output_config`. */
export type BedrockEffort = "low" | "medium" | "high" | "xhigh" | "max";

/** AWS credentials for SigV4 signing. */
export interface AwsCredentials {
	accessKeyId: string;
	secretAccessKey: string;
	/** Present with temporary credentials (an assumed role, SSO, a container or instance role). */
	sessionToken?: string;
	/** When temporary credentials expire; a provider's credentials are fetched again before then. */
	expiration?: Date;
}

export interface BedrockOptions extends StreamOptions {
	/** AWS region. Default: AWS_REGION, then AWS_DEFAULT_REGION, then the profile's region, then us-east-1. */
	region?: string;
	/**
	 * A profile of the shared AWS config and credentials files, for credentials (through the AWS
	 * credential chain, Node only) and region.
	 */
	profile?: string;
	/** SigV4 access key id; with `secretAccessKey` (and `sessionToken` for temporary credentials). */
	accessKeyId?: string;
	secretAccessKey?: string;
	sessionToken?: string;
	/**
	 * SigV4 credentials from a function, called on every attempt (cache in it if fetching is slow):
	 * for example `fromCognitoIdentityPool(…)` of `@aws-sdk/credential-providers` in a browser.
	 */
	credentials?: () => Promise<AwsCredentials>;
	/**
	 * A Bedrock API key, sent as a bearer token instead of a SigV4 signature. Default: `apiKey`,
	 * then AWS_BEARER_TOKEN_BEDROCK; without one the request is signed with SigV4.
	 */
	bearerToken?: string;
	toolChoice?: BedrockToolChoice;
	/** Sends Claude's thinking configuration; only honoured when `model.reasoning` is true. */
	thinkingEnabled?: boolean;
	/** Budget for Claude models with budget-based thinking. Default 1024. */
	thinkingBudgetTokens?: number;
	/** Effort for Claude models with adaptive thinking. Default "high". */
	effort?: BedrockEffort;
	/** Adds Claude's interleaved-thinking beta for budget-thinking models. Default true. */
	interleavedThinking?: boolean;
	/** Key-value pairs Bedrock records with the invocation (`requestMetadata`). */
	requestMetadata?: Record<string, string>;
}

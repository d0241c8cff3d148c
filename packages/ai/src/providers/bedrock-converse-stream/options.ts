import type { StreamOptions } from "../../types.js";

/** Bedrock's `toolChoice`: a string is shorthand; `{ tool: name }` forces one tool. "none" sends no tools. */
export type BedrockToolChoice = "auto" | "any" | "none" | { tool: string };

/** Effort for Claude models with adaptive thinking (Claude 4.6 and later), sent in `output_config`. */
export type BedrockEffort = "low" | "medium" | "high" | "xhigh" | "max";

export interface BedrockOptions extends StreamOptions {
	/** AWS region. Default: AWS_REGION, then AWS_DEFAULT_REGION, then the profile's region, then us-east-1. */
	region?: string;
	/** A profile of the shared AWS config and credentials files, for credentials and region. */
	profile?: string;
	/**
	 * A Bedrock API key, sent as a bearer token instead of a SigV4 signature. Default: `apiKey`,
	 * then AWS_BEARER_TOKEN_BEDROCK; without one the SDK's credential chain signs the request.
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

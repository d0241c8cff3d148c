import type { Context, Model } from "../../types.js";
import { buildGitHubCopilotHeaders } from "../../wire/github-copilot-headers.js";
import { mergeHeaders } from "../../wire/headers.js";
import type { AnthropicOptions } from "./options.js";
import { isThinkingEnabled, usesAdaptiveThinking } from "./thinking.js";

export const FINE_GRAINED_TOOL_STREAMING_BETA = "fine-grained-tool-streaming-2025-05-14";
export const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";
export const OAUTH_BETA = "oauth-2025-04-20";

/**
 * The Messages API version Keel speaks: the request and event formats the encoder and decoder follow.
 * @see https://docs.anthropic.com/en/api/versioning
 */
export const ANTHROPIC_VERSION = "2023-06-01";

/**
 * What kind of credential the key is. An API key goes in `x-api-key`; an OAuth access token and a
 * GitHub Copilot token go in `Authorization: Bearer`. They also differ in the betas they need (OAuth
 * needs the oauth beta, Copilot's endpoint rejects fine-grained tool streaming).
 */
export type AnthropicAuthMode = "apiKey" | "oauth" | "copilot";

export function anthropicAuthMode(model: Model<"anthropic-messages">, apiKey: string | undefined): AnthropicAuthMode {
	if (model.provider === "github-copilot") return "copilot";
	// Claude subscription tokens (sk-ant-oat01-…) are OAuth access tokens: Bearer, plus the oauth beta.
	if (apiKey?.includes("sk-ant-oat")) return "oauth";
	return "apiKey";
}

/** The `anthropic-beta` values for a request. */
export function anthropicBetas(
	model: Model<"anthropic-messages">,
	context: Context,
	options: AnthropicOptions,
	authMode: AnthropicAuthMode,
): string[] {
	const betas: string[] = [];
	if (authMode === "oauth") betas.push(OAUTH_BETA);
	// Without this beta, tool arguments arrive in one piece at the end; models that support the
	// per-tool `eager_input_streaming` field get that instead. Copilot's endpoint rejects the beta.
	const hasTools = (context.tools?.length ?? 0) > 0;
	if (hasTools && authMode !== "copilot" && model.compat?.supportsEagerToolInputStreaming !== true) {
		betas.push(FINE_GRAINED_TOOL_STREAMING_BETA);
	}
	// Adaptive-thinking models interleave thinking and tool calls without a beta.
	if (isThinkingEnabled(model, options) && options.interleavedThinking !== false && !usesAdaptiveThinking(model)) {
		betas.push(INTERLEAVED_THINKING_BETA);
	}
	return betas;
}

/**
 * The credential header for a key: `x-api-key` for an API key, `Authorization: Bearer` for an OAuth
 * or Copilot token; none without a key (an injected client sets its own).
 * @see https://docs.anthropic.com/en/api/overview#authentication
 */
export function anthropicCredentialHeaders(
	authMode: AnthropicAuthMode,
	apiKey: string | undefined,
): Record<string, string> {
	if (!apiKey) return {};
	return authMode === "apiKey" ? { "x-api-key": apiKey } : { authorization: `Bearer ${apiKey}` };
}

/**
 * Request headers but the credential, merged in this order: Keel's defaults, then `model.headers`,
 * then (GitHub Copilot) the per-request headers, then `options.headers` (the caller always wins).
 * Keys come out lower-cased.
 */
export function buildAnthropicHeaders(
	model: Model<"anthropic-messages">,
	context: Context,
	options: AnthropicOptions,
	authMode: AnthropicAuthMode,
): Record<string, string> {
	const defaults: Record<string, string> = {
		"anthropic-version": ANTHROPIC_VERSION,
		// The SDKs send this for streaming requests too; the body is still an event stream.
		accept: "application/json",
		// Keel runs in browsers too; the caller decides whether a key may live there.
		"anthropic-dangerous-direct-browser-access": "true",
	};
	const betas = anthropicBetas(model, context, options, authMode);
	if (betas.length > 0) defaults["anthropic-beta"] = betas.join(",");
	const copilot = authMode === "copilot" ? buildGitHubCopilotHeaders(context) : undefined;
	return mergeHeaders(defaults, model.headers, copilot, options.headers);
}

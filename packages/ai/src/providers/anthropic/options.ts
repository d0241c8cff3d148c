import type { ResponseFormat, StreamOptions } from "../../types.js";

/** Anthropic's `output_config.effort` values; `xhigh` exists on Opus 4.7, `max` on Opus 4.6 and later. */
export type AnthropicEffort = "low" | "medium" | "high" | "xhigh" | "max";

/** A string is shorthand for `{ type }`; an object is sent unchanged. */
export type AnthropicToolChoice =
	| "auto"
	| "any"
	| "none"
	| { type: "auto" | "any" | "none"; disable_parallel_tool_use?: boolean }
	| { type: "tool"; name: string; disable_parallel_tool_use?: boolean };

/**
 * What Keel calls on an injected Anthropic SDK client (`new Anthropic()` from `@anthropic-ai/sdk`
 * satisfies it). Described here rather than imported from the SDK so that @keel/ai's types, like its
 * code, need no SDK installed.
 * @see https://github.com/anthropics/anthropic-sdk-typescript#accessing-raw-response-data-eg-headers
 */
export interface AnthropicClient {
	messages: {
		create(
			body: object,
			options: { signal: AbortSignal; headers: Record<string, string> },
		): { asResponse(): Promise<Response> };
	};
}

export interface AnthropicOptions extends StreamOptions {
	toolChoice?: AnthropicToolChoice;
	/** Sends a thinking configuration; only honoured when `model.reasoning` is true. */
	thinkingEnabled?: boolean;
	/** Budget for models with budget-based thinking. Default 1024 (Anthropic's minimum). */
	thinkingBudgetTokens?: number;
	/** Effort for models with adaptive thinking (Claude 4.6 and later). Default "high". */
	effort?: AnthropicEffort;
	/** Adds the interleaved-thinking beta for budget-thinking models. Default true. */
	interleavedThinking?: boolean;
	/** "omitted" returns an empty thinking block with a signature (still replayable). */
	thinkingDisplay?: "summarized" | "omitted";
	/**
	 * A ready client (for proxies, custom fetch, tests). Its own retries and timeout stay as the
	 * caller configured them; Keel still passes its signal and headers per request.
	 */
	client?: AnthropicClient;
	/**
	 * Sent as `output_config.format: {type: "json_schema", schema}` (JSON outputs), for models with
	 * structured outputs (`compat.supportsStructuredOutputs`); other models end the call with an error.
	 */
	responseFormat?: ResponseFormat;
}

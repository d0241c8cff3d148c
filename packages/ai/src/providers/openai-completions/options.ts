import type { ResponseFormat, StreamOptions, ThinkingLevel } from "../../types.js";
import type { ChatToolChoice } from "./wire-types.js";

/** Options of `streamOpenAICompletions`: the common StreamOptions plus Chat Completions' own. */
export interface OpenAICompletionsOptions extends StreamOptions {
	/** `tool_choice`: "auto" (the API default), "none", "required" or one named function. */
	toolChoice?: ChatToolChoice;
	/**
	 * How hard a reasoning model thinks. Sent in the vendor's format (`reasoning_effort`, z.ai and
	 * DeepSeek `thinking`, Qwen `enable_thinking`, OpenRouter `reasoning`); undefined leaves the
	 * model's default. Ignored for models with `reasoning: false`.
	 */
	reasoningEffort?: ThinkingLevel;
	/** Sent as `response_format: {type: "json_schema", json_schema}`; `strict` only where the vendor knows it. */
	responseFormat?: ResponseFormat;
}

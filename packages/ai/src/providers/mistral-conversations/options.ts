import type { ResponseFormat, StreamOptions, ThinkingLevel } from "../../types.js";
import type { MistralToolChoice } from "./wire-types.js";

/** Options of `streamMistral`: the common StreamOptions plus Mistral chat completions' own. */
export interface MistralOptions extends StreamOptions {
	/**
	 * `tool_choice`: "auto" (the API default), "none", "any" or "required" (a tool must be called),
	 * or one named function.
	 */
	toolChoice?: MistralToolChoice;
	/** `parallel_tool_calls`: false asks for at most one tool call per answer. Unset: the API default (true). */
	parallelToolCalls?: boolean;
	/**
	 * `prompt_mode: "reasoning"`: Magistral models use their reasoning system prompt. Sent only to
	 * models with `reasoning: true`.
	 */
	promptMode?: "reasoning";
	/**
	 * `reasoning_effort` for models with adjustable reasoning. A level goes through the model's
	 * `thinkingLevelMap` (a level mapped to null moves to the nearest supported one); "none" is sent
	 * as is. Sent only to models with `reasoning: true`.
	 */
	reasoningEffort?: ThinkingLevel | "none";
	/** Sent as `response_format: {type: "json_schema", json_schema: {name, schema, strict}}`. */
	responseFormat?: ResponseFormat;
}

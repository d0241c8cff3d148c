import type { ResponseFormat, SimpleStreamOptions, StreamOptions, ThinkingLevel } from "../../types.js";

/** Options for the OpenAI Responses API (also accepted by the Azure provider). */
export interface OpenAIResponsesOptions extends StreamOptions {
	/** Sent as `text.format: {type: "json_schema", name, schema, strict}`. */
	responseFormat?: ResponseFormat;
	/**
	 * Reasoning effort for reasoning models. A ThinkingLevel goes through the model's
	 * `thinkingLevelMap` (xhigh becomes high unless the model declares it); "none" is sent as is.
	 */
	reasoningEffort?: ThinkingLevel | "none";
	/** Reasoning summary style; default "auto" whenever reasoning is requested. */
	reasoningSummary?: "auto" | "concise" | "detailed";
	/** Processing tier. The cost is scaled by the tier the response reports (flex ×0.5, priority ×2). */
	serviceTier?: "auto" | "default" | "flex" | "scale" | "priority";
}

/** Options of the unified call, plus the Responses settings that have no unified form. */
export type OpenAIResponsesSimpleOptions = SimpleStreamOptions &
	Pick<OpenAIResponsesOptions, "serviceTier" | "reasoningSummary">;

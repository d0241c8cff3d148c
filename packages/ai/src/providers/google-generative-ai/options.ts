import type { ResponseFormat, StreamOptions } from "../../types.js";

/** Gemini 3's thinking levels (`generationConfig.thinkingConfig.thinkingLevel`). */
export type GoogleThinkingLevel = "MINIMAL" | "LOW" | "MEDIUM" | "HIGH";

/** How the model may call tools: `functionCallingConfig.mode` AUTO, NONE or ANY. */
export type GoogleToolChoice = "auto" | "none" | "any";

/** Options of the Gemini API (google-generative-ai); Vertex AI accepts them too. */
export interface GoogleOptions extends StreamOptions {
	/** Sent only with tools. */
	toolChoice?: GoogleToolChoice;
	/**
	 * Thinking, only sent to reasoning models when `enabled`; thoughts are then always included in
	 * the stream. `level` is for Gemini 3 and later, `budgetTokens` for Gemini 2.5 (-1: the model
	 * decides). With neither, the model's default thinking applies. Disabled or absent sends no
	 * thinking configuration at all: the model's default applies, thinking is not forced off.
	 */
	thinking?: { enabled: boolean; budgetTokens?: number; level?: GoogleThinkingLevel };
	/** Sent as `generationConfig.responseMimeType: "application/json"` and `responseJsonSchema` (name and strict unused). */
	responseFormat?: ResponseFormat;
	/**
	 * Explicit caching: the name of a cache you created (`cachedContents/abc123`, or just its id),
	 * sent as the request's `cachedContent`. The cache holds the system instruction and tools, so
	 * neither is sent with it (Gemini rejects a request that sets them beside a cache); the context's
	 * tools still validate the model's tool calls. On Vertex AI a short name is completed to
	 * `projects/{project}/locations/{location}/cachedContents/{id}`.
	 * @see https://ai.google.dev/gemini-api/docs/caching
	 */
	cachedContent?: string;
}

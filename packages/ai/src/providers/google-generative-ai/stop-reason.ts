import type { StopReason } from "../../types.js";

type SuccessfulStop = Extract<StopReason, "stop" | "length">;

/**
 * Our stop reason for a Gemini `finishReason`, or undefined for one that ends the answer as a
 * failure: SAFETY, RECITATION, LANGUAGE, BLOCKLIST, PROHIBITED_CONTENT, SPII,
 * MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL, TOO_MANY_TOOL_CALLS, MISSING_THOUGHT_SIGNATURE,
 * the IMAGE_* reasons, OTHER, FINISH_REASON_UNSPECIFIED and any reason added later. The decoder
 * then ends with an error that keeps the raw reason. A stop with function calls becomes toolUse.
 * @see https://ai.google.dev/api/generate-content#FinishReason
 */
export function mapGeminiFinishReason(reason: string): SuccessfulStop | undefined {
	if (reason === "STOP") return "stop";
	if (reason === "MAX_TOKENS") return "length";
	return undefined;
}

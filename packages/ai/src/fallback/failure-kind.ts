// Why a model in a fallback chain gave no answer, read from its final message.
import type { Api, AssistantMessage, Model } from "../types.js";
import { isContextOverflow } from "../utils/overflow.js";

/**
 * - `error`: the call failed after its retries (HTTP error, network, timeout, a broken stream);
 * - `context_overflow`: the prompt did not fit the model's context window;
 * - `refusal`: the model declined, or the provider's safety filter stopped it;
 * - `aborted`: the caller aborted; a chain never moves on from that.
 */
export type FallbackFailureKind = "error" | "context_overflow" | "refusal" | "aborted";

// The raw stop reasons that mean a refusal or a safety stop, per API: Anthropic `refusal`, z.ai
// and Anthropic `sensitive`, OpenAI `content_filter`, Bedrock `content_filtered` and
// `guardrail_intervened`, Gemini SAFETY, PROHIBITED_CONTENT, BLOCKLIST, SPII, RECITATION and
// IMAGE_SAFETY. Decoders keep them in `rawStopReason` when they end the message as an error.
const REFUSAL_STOP_REASONS: ReadonlySet<string> = new Set([
	"refusal",
	"sensitive",
	"content_filter",
	"content_filtered",
	"guardrail_intervened",
	"safety",
	"prohibited_content",
	"blocklist",
	"spii",
	"recitation",
	"image_safety",
]);

/** The kind of failure a final message shows, or undefined when it is an answer. */
export function classifyFallbackFailure(message: AssistantMessage, model: Model<Api>): FallbackFailureKind | undefined {
	if (message.stopReason === "aborted") return "aborted";
	if (isContextOverflow(message, model.contextWindow)) return "context_overflow";
	if (message.stopReason !== "error") return undefined;
	const raw = message.rawStopReason?.toLowerCase();
	if (raw !== undefined && REFUSAL_STOP_REASONS.has(raw)) return "refusal";
	return "error";
}

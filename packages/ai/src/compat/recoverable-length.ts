import type { AssistantMessage } from "../types.js";

/**
 * A `length` stop that produced fewer output tokens than the caller asked for: the provider cut the
 * answer short (a full context, a gateway limit), not the caller's own limit. Worth one compaction
 * and a retry. `desiredMaxOutput` is the limit before any clamping to the context window.
 */
export function isRecoverableLength(message: AssistantMessage, desiredMaxOutput: number): boolean {
	return message.stopReason === "length" && desiredMaxOutput > 0 && message.usage.output < desiredMaxOutput;
}

import type { StopReason } from "../../types.js";

type SuccessfulStop = Extract<StopReason, "stop" | "length" | "toolUse">;

// Anthropic's stop reasons that end a turn normally. `pause_turn` (a long server-tool turn paused)
// is a normal end: the caller continues by sending the conversation back.
const SUCCESSFUL_STOPS: Readonly<Record<string, SuccessfulStop>> = {
	end_turn: "stop",
	stop_sequence: "stop",
	pause_turn: "stop",
	tool_use: "toolUse",
	max_tokens: "length",
	model_context_window_exceeded: "length",
};

/**
 * Our stop reason for Anthropic's, or undefined for a failure (`refusal`, `sensitive`, and any
 * reason we do not know yet): the decoder then ends with an error that keeps the raw reason.
 */
export function mapAnthropicStopReason(reason: string): SuccessfulStop | undefined {
	return Object.hasOwn(SUCCESSFUL_STOPS, reason) ? SUCCESSFUL_STOPS[reason] : undefined;
}

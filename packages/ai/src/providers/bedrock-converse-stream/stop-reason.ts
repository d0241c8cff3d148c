import type { StopReason } from "../../types.js";

type SuccessfulStop = Extract<StopReason, "stop" | "length" | "toolUse">;

// Converse's stop reasons that end a turn normally. The others (`guardrail_intervened`,
// `content_filtered`, `malformed_model_output`, `malformed_tool_use`, and any added later) mean the
// answer was blocked or broken: the call ends with an error that keeps the raw reason.
// @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_MessageStopEvent.html
const SUCCESSFUL_STOPS: Readonly<Record<string, SuccessfulStop>> = {
	end_turn: "stop",
	stop_sequence: "stop",
	tool_use: "toolUse",
	max_tokens: "length",
	model_context_window_exceeded: "length",
};

/** Our stop reason for Bedrock's, or undefined for a failure. */
export function mapBedrockStopReason(reason: string): SuccessfulStop | undefined {
	return Object.hasOwn(SUCCESSFUL_STOPS, reason) ? SUCCESSFUL_STOPS[reason] : undefined;
}

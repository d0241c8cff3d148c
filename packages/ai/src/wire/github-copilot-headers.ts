import type { Context } from "../types.js";

/**
 * The per-request headers GitHub Copilot reads, whichever wire API the model uses (Chat Completions,
 * Responses, Messages). Copilot bills a premium request when the user starts a turn, not for the
 * agent's own follow-ups (`X-Initiator`), and must be told when a request carries images.
 */
export function buildGitHubCopilotHeaders(context: Context): Record<string, string> {
	const last = context.messages[context.messages.length - 1];
	const hasImage = context.messages.some(
		(message) =>
			(message.role === "user" || message.role === "toolResult") &&
			typeof message.content !== "string" &&
			message.content.some((block) => block.type === "image"),
	);
	return {
		"X-Initiator": last?.role === "user" ? "user" : "agent",
		"Openai-Intent": "conversation-edits",
		...(hasImage ? { "Copilot-Vision-Request": "true" } : {}),
	};
}

// Readers for any message a session holds, extending @keel/ai's getMessageText / getToolCalls /
// getThinking / getImages (which know the three LLM roles) to the session's own kinds.

import { getImages, getMessageText, getThinking, getToolCalls, type ImageContent, type ToolCall } from "@keel/ai";
import type { AgentMessage } from "../types.js";

const LLM_ROLES = new Set(["system", "user", "assistant", "toolResult"]);

type LlmMessage = Parameters<typeof getMessageText>[0];

function isLlmMessage(message: AgentMessage): message is LlmMessage {
	return LLM_ROLES.has((message as { role: string }).role);
}

/**
 * The readable text of a message: the text blocks of an LLM message or an attachment, a
 * notification's text, a summary, a progress line. Empty for kinds without text (a compact
 * boundary, a tombstone, an application's own kind).
 */
export function getAgentMessageText(message: AgentMessage, separator = ""): string {
	if (isLlmMessage(message)) return getMessageText(message, separator);
	const session = message as { role: string; content?: unknown; text?: unknown; summary?: unknown };
	switch (session.role) {
		case "attachment":
			return (session.content as { type: string; text?: string }[])
				.filter((block) => block.type === "text")
				.map((block) => block.text)
				.join(separator);
		case "notification":
		case "progress":
			return typeof session.text === "string" ? session.text : "";
		case "summary":
			return typeof session.summary === "string" ? session.summary : "";
		default:
			return "";
	}
}

/** The tool calls of an assistant message, in order; empty for every other kind. */
export function getAgentMessageToolCalls(message: AgentMessage): ToolCall[] {
	return isLlmMessage(message) ? getToolCalls(message) : [];
}

/** The readable thinking of an assistant message; empty for every other kind. */
export function getAgentMessageThinking(message: AgentMessage, separator = "\n\n"): string {
	return isLlmMessage(message) ? getThinking(message, separator) : "";
}

/** The images of a user message, a tool result or an attachment, in order. */
export function getAgentMessageImages(message: AgentMessage): ImageContent[] {
	if (isLlmMessage(message)) return getImages(message);
	const session = message as { role: string; content?: { type: string }[] };
	if (session.role !== "attachment" || !Array.isArray(session.content)) return [];
	return session.content.filter((block): block is ImageContent => block.type === "image");
}

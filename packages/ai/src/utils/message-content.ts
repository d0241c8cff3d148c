// Small readers for messages, so callers do not repeat `content.filter(block => block.type === …)`.

import type { ImageContent, Message, ThinkingContent, ToolCall } from "../types.js";

/**
 * The text of any message: a user string as is, otherwise its text blocks joined with
 * `separator` (default "", because providers split one answer into several blocks, for example
 * around citations). Thinking, tool calls and images are left out.
 */
export function getMessageText(message: Message, separator = ""): string {
	if (typeof message.content === "string") return message.content;
	const parts: string[] = [];
	for (const block of message.content) if (block.type === "text") parts.push(block.text);
	return parts.join(separator);
}

/** The tool calls of an assistant message, in order; an empty array for other messages. */
export function getToolCalls(message: Message): ToolCall[] {
	if (message.role !== "assistant") return [];
	return message.content.filter((block): block is ToolCall => block.type === "toolCall");
}

/** The readable thinking of an assistant message, joined with `separator` (default "\n\n"); redacted blocks are skipped. */
export function getThinking(message: Message, separator = "\n\n"): string {
	if (message.role !== "assistant") return "";
	return message.content
		.filter((block): block is ThinkingContent => block.type === "thinking" && !block.redacted && block.thinking !== "")
		.map((block) => block.thinking)
		.join(separator);
}

/** The images of a user or tool-result message, in order; an empty array for other messages. */
export function getImages(message: Message): ImageContent[] {
	if (message.role === "assistant" || message.role === "system" || typeof message.content === "string") return [];
	const images: ImageContent[] = [];
	for (const block of message.content) if (block.type === "image") images.push(block);
	return images;
}

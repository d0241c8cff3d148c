import type { ImageContent, TextContent, ThinkingContent, ToolCall } from "../types.js";

/** The text blocks of a message's content joined by `separator`; a string content is returned as is. */
export function contentText(
	content: string | readonly (TextContent | ImageContent | ThinkingContent | ToolCall)[],
	separator = "\n",
): string {
	if (typeof content === "string") return content;
	const texts: string[] = [];
	for (const block of content) if (block.type === "text") texts.push(block.text);
	return texts.join(separator);
}

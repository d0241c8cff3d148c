// Maps an MCP tool result to Keel content. Keel content is text and images, so every other MCP
// block (audio, resource links, embedded binary resources) becomes a line of text that says what
// it was. https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool-result

import type { ImageContent, TextContent } from "@keel/ai";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

type McpContentBlock = CallToolResult["content"][number];
type KeelContent = TextContent | ImageContent;

/** Turns one MCP content block into Keel content. */
export function mapContentBlock(block: McpContentBlock): KeelContent {
	switch (block.type) {
		case "text":
			return { type: "text", text: block.text };
		case "image":
			return { type: "image", data: block.data, mimeType: block.mimeType };
		case "audio":
			return { type: "text", text: `[audio (${block.mimeType}) not shown: ${block.data.length} base64 characters]` };
		case "resource_link":
			return { type: "text", text: describeResourceLink(block) };
		case "resource":
			return mapEmbeddedResource(block.resource);
		default:
			return { type: "text", text: `[unsupported content of type "${(block as { type: string }).type}"]` };
	}
}

function describeResourceLink(link: Extract<McpContentBlock, { type: "resource_link" }>): string {
	const parts = [`Resource: ${link.uri}`];
	if (link.name) parts.push(`name: ${link.name}`);
	if (link.mimeType) parts.push(`type: ${link.mimeType}`);
	if (link.description) parts.push(link.description);
	return parts.join("\n");
}

function mapEmbeddedResource(resource: Extract<McpContentBlock, { type: "resource" }>["resource"]): KeelContent {
	if ("text" in resource && typeof resource.text === "string") {
		return { type: "text", text: `Resource ${resource.uri}:\n${resource.text}` };
	}
	const blob = "blob" in resource && typeof resource.blob === "string" ? resource.blob : "";
	if (resource.mimeType?.startsWith("image/")) return { type: "image", data: blob, mimeType: resource.mimeType };
	const kind = resource.mimeType ?? "binary";
	return { type: "text", text: `[resource ${resource.uri} (${kind}) not shown: ${blob.length} base64 characters]` };
}

/**
 * The result's content as Keel content. `structuredContent` is added as JSON text unless a text
 * block already carries the same JSON (the spec asks servers to send it both ways, and the model
 * should read it once).
 */
export function mapResultContent(result: CallToolResult): KeelContent[] {
	const content = (result.content ?? []).map(mapContentBlock);
	if (result.structuredContent !== undefined && !hasJsonText(content, result.structuredContent)) {
		content.push({ type: "text", text: JSON.stringify(result.structuredContent) });
	}
	return content;
}

function hasJsonText(content: readonly KeelContent[], value: unknown): boolean {
	const expected = JSON.stringify(value);
	return content.some((block) => {
		if (block.type !== "text") return false;
		try {
			return JSON.stringify(JSON.parse(block.text)) === expected;
		} catch {
			return false;
		}
	});
}

/**
 * Cuts text so the whole result stays within `maxCharacters`, ending the last kept block with a
 * note the model can read. Images are kept: a model's image budget is not counted in characters.
 */
export function truncateText(
	content: readonly KeelContent[],
	maxCharacters: number,
): { content: KeelContent[]; truncated: boolean } {
	let remaining = maxCharacters;
	let omitted = 0;
	const kept: KeelContent[] = [];
	for (const block of content) {
		if (block.type !== "text") {
			kept.push(block);
			continue;
		}
		if (block.text.length <= remaining) {
			kept.push(block);
			remaining -= block.text.length;
			continue;
		}
		omitted += block.text.length - remaining;
		if (remaining > 0) kept.push({ type: "text", text: block.text.slice(0, remaining) });
		remaining = 0;
	}
	if (omitted === 0) return { content: kept, truncated: false };
	kept.push({
		type: "text",
		text: `[result truncated: ${omitted} of ${maxCharacters + omitted} characters omitted]`,
	});
	return { content: kept, truncated: true };
}

/** The text of an error result, for the error the loop shows the model. */
export function errorResultText(content: readonly KeelContent[]): string {
	const text = content
		.filter((block): block is TextContent => block.type === "text")
		.map((block) => block.text)
		.join("\n");
	return text || "The tool reported an error without a message.";
}

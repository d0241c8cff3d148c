// Maps an MCP tool result to Keel content: text, images, and file blocks for the documents a Keel
// tool result carries (PDFs, Word, Excel, PowerPoint, RTF, OpenDocument text). Keel tool results
// hold no audio, so audio, resource links and other binary resources become a line of text that says
// what they were. https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool-result

import {
	documentFormatOf,
	type FileContent,
	isPdfFile,
	isTextFile,
	type TextContent,
	type ToolResultContent,
} from "@keel/ai";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

type McpContentBlock = CallToolResult["content"][number];
type KeelContent = ToolResultContent;

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
	if ("text" in resource && typeof resource.text === "string") return resourceText(resource.uri, resource.text);
	const blob = "blob" in resource && typeof resource.blob === "string" ? resource.blob : "";
	const mimeType = resource.mimeType;
	if (mimeType?.toLowerCase().startsWith("image/")) return { type: "image", data: blob, mimeType };
	// @keel/ai's own rules: what a file block carries (a PDF or an office document; each provider's
	// encoder sends it or leaves a note) and which types are text.
	const file: FileContent | undefined = mimeType ? { type: "file", mimeType, data: blob } : undefined;
	if (file && (isPdfFile(file) || documentFormatOf(file) !== undefined)) {
		const filename = filenameOf(resource.uri);
		return filename ? { ...file, filename } : file;
	}
	// A text file sent as bytes reads like a text resource (each API's text document is plain text anyway).
	const text = file && isTextFile(file) ? decodeUtf8(blob) : undefined;
	if (text !== undefined) return resourceText(resource.uri, text);
	const kind = resource.mimeType ?? "binary";
	return { type: "text", text: `[resource ${resource.uri} (${kind}) not shown: ${blob.length} base64 characters]` };
}

function resourceText(uri: string, text: string): TextContent {
	return { type: "text", text: `Resource ${uri}:\n${text}` };
}

/** UTF-8 text from base64, or undefined when the bytes are not valid base64 and UTF-8. */
function decodeUtf8(base64: string): string | undefined {
	try {
		const binary = atob(base64);
		const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0));
		return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
	} catch {
		return undefined;
	}
}

/** The last segment of the URI's path (`file:///reports/q3.pdf` → `q3.pdf`), if it has one. */
function filenameOf(uri: string): string | undefined {
	const path = uri.split(/[?#]/)[0];
	const segment = path.slice(path.lastIndexOf("/") + 1);
	if (segment === "" || segment.includes(":")) return undefined;
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
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
 * note the model can read. Images and files are kept: a model's budget for them is not counted in
 * characters.
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

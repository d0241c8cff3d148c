// Content rules every provider's message encoder shares: what stands in for an image a model cannot
// read or for a tool result that holds only images, and how images and tool-result text are taken
// apart. The wire shapes differ per API; these decisions must not.
import type { Api, FileContent, ImageContent, Model, TextContent, ToolResultMessage } from "../types.js";

/** Put in place of an image the model cannot read, so the loss is visible to the model and the reader. */
export const IMAGE_OMITTED_NOTE = "(image omitted: this model does not accept images)";

/** Sent as a tool result's text when the result holds only images (APIs reject an empty text). */
export const IMAGE_ONLY_TOOL_RESULT_TEXT = "(see attached image)";

/** Sent as a tool result's text when the result holds only files, or files and images. */
export const FILE_ONLY_TOOL_RESULT_TEXT = "(see attached file)";

export function modelAcceptsImages(model: Model<Api>): boolean {
	return model.input.includes("image");
}

/** An image as a `data:` URL (the OpenAI APIs take images this way). */
export function imageDataUrl(image: ImageContent): string {
	return `data:${image.mimeType};base64,${image.data}`;
}

export interface ToolResultParts {
	texts: TextContent[];
	/** The texts joined with "\n" (not yet sanitised). */
	text: string;
	images: ImageContent[];
	/** File blocks (PDFs, text files, documents), already checked readable by transformMessages. */
	files: FileContent[];
}

/** A tool result's text blocks, images and files, each kept in their order. */
export function splitToolResultContent(message: ToolResultMessage): ToolResultParts {
	const texts: TextContent[] = [];
	const images: ImageContent[] = [];
	const files: FileContent[] = [];
	for (const block of message.content) {
		if (block.type === "text") texts.push(block);
		else if (block.type === "file") files.push(block);
		else images.push(block);
	}
	return { texts, text: texts.map((block) => block.text).join("\n"), images, files };
}

/** The text a tool result with no text of its own is sent with: what is attached. */
export function attachmentOnlyText(parts: ToolResultParts): string {
	return parts.files.length > 0
		? FILE_ONLY_TOOL_RESULT_TEXT
		: parts.images.length > 0
			? IMAGE_ONLY_TOOL_RESULT_TEXT
			: "";
}

/** A signature that holds a JSON object (a stored reasoning item or detail); undefined for anything else. */
export function parseJsonSignature(signature: string | undefined): Record<string, unknown> | undefined {
	if (!signature?.startsWith("{")) return undefined;
	try {
		const parsed: unknown = JSON.parse(signature);
		return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

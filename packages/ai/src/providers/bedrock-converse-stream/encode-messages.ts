import {
	attachmentOnlyText,
	IMAGE_OMITTED_NOTE,
	modelAcceptsImages,
	splitToolResultContent,
} from "../../message/encode-content.js";
import { baseMimeType, documentFormatOf, fileNameOf } from "../../message/file-content.js";
import type {
	AssistantMessage,
	BedrockConverseCompat,
	FileContent,
	ImageContent,
	Message,
	Model,
	ToolResultMessage,
	UserMessage,
} from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import type {
	BedrockMessage,
	CachePointBlock,
	ContentBlock,
	DocumentBlock,
	DocumentFormat,
	DocumentType,
	ImageBlock,
	ToolResultContentBlock,
} from "./wire-types.js";

type Compat = Required<BedrockConverseCompat>;

export type { DocumentType } from "./wire-types.js";

type BedrockModel = Model<"bedrock-converse-stream">;

// Converse takes the image bytes (base64 in the JSON body, as Keel holds them) and a format name, not a media type.
// @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ImageBlock.html
const IMAGE_FORMATS: Record<string, ImageBlock["format"]> = {
	"image/jpeg": "jpeg",
	"image/jpg": "jpeg",
	"image/png": "png",
	"image/gif": "gif",
	"image/webp": "webp",
};

function isBlank(text: string): boolean {
	return text.trim() === "";
}

function encodeImage(image: ImageContent, model: BedrockModel): ContentBlock {
	if (!modelAcceptsImages(model)) return { text: IMAGE_OMITTED_NOTE };
	const format = IMAGE_FORMATS[image.mimeType];
	if (!format) {
		throw new Error(
			`Bedrock accepts image/jpeg, image/png, image/gif and image/webp images, got "${image.mimeType}"; convert the image first`,
		);
	}
	return { image: { format, source: { bytes: image.data } } };
}

// Converse names a document's format, not its media type; formats per
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_DocumentBlock.html
const TEXT_DOCUMENT_FORMATS: Record<string, DocumentFormat> = {
	"application/pdf": "pdf",
	"text/plain": "txt",
	"text/markdown": "md",
	"text/csv": "csv",
	"text/html": "html",
};

/** A file's Converse document format: PDF, Word and Excel by their own, other text types as txt. */
function documentFormat(file: FileContent): DocumentFormat {
	const format = documentFormatOf(file);
	// Only the formats file-support.ts lists for Bedrock reach here (the rest are refused before the call).
	if (format === "doc" || format === "docx" || format === "xls" || format === "xlsx") return format;
	if (format !== undefined) {
		throw new Error(`Bedrock Converse takes no ${format} documents; convert "${fileNameOf(file)}" to PDF first`);
	}
	return TEXT_DOCUMENT_FORMATS[baseMimeType(file.mimeType)] ?? "txt";
}

/**
 * A document name Converse accepts: it allows only alphanumerics, single whitespace characters,
 * hyphens, parentheses and square brackets (DocumentBlock `name`, see the page above), so the
 * extension's dot and anything else become spaces. Names must differ within a message.
 */
function documentName(file: FileContent, used: Set<string>): string {
	const base =
		fileNameOf(file)
			.replace(/[^A-Za-z0-9\s\-()[\]]/g, " ")
			.replace(/\s+/g, " ")
			.trim() || "document";
	let name = base;
	for (let count = 2; used.has(name); count++) name = `${base} (${count})`;
	used.add(name);
	return name;
}

/** A file as a `document` block of bytes; text types other than the listed ones go as txt. */
function encodeFile(file: FileContent, usedNames: Set<string>): { document: DocumentBlock } {
	if (file.data === undefined) {
		throw new Error(`Bedrock Converse cannot fetch "${fileNameOf(file)}" from a URL; pass its bytes as data (base64)`);
	}
	return {
		document: { format: documentFormat(file), name: documentName(file, usedNames), source: { bytes: file.data } },
	};
}

function encodeUserContent(message: UserMessage, model: BedrockModel, documentNames: Set<string>): ContentBlock[] {
	if (typeof message.content === "string") {
		return isBlank(message.content) ? [] : [{ text: sanitizeSurrogates(message.content) }];
	}
	const blocks: ContentBlock[] = [];
	for (const part of message.content) {
		if (part.type === "text") {
			if (!isBlank(part.text)) blocks.push({ text: sanitizeSurrogates(part.text) });
		} else if (part.type === "image") {
			blocks.push(encodeImage(part, model));
		} else if (part.type === "file") {
			blocks.push(encodeFile(part, documentNames));
		} else {
			// Checked before the call (input-support.ts); reached only when the encoder is used directly.
			throw new Error(`Bedrock Converse takes no audio (${model.id}); send a transcript`);
		}
	}
	return blocks;
}

function encodeAssistantContent(message: AssistantMessage, compat: Compat): ContentBlock[] {
	const blocks: ContentBlock[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (!isBlank(block.text)) blocks.push({ text: sanitizeSurrogates(block.text) });
		} else if (block.type === "thinking") {
			// Signed reasoning goes back byte for byte to Claude, which checks the signature; anything
			// else (another model's reasoning, models without signed reasoning) becomes text.
			if (block.redacted) {
				if (compat.claudeThinking && block.thinkingSignature) {
					blocks.push({ reasoningContent: { redactedContent: block.thinkingSignature } });
				}
			} else if (compat.claudeThinking && block.thinkingSignature) {
				blocks.push({
					reasoningContent: { reasoningText: { text: block.thinking, signature: block.thinkingSignature } },
				});
			} else if (!isBlank(block.thinking)) {
				blocks.push({ text: sanitizeSurrogates(block.thinking) });
			}
		} else if (compat.supportsToolUse) {
			blocks.push({
				toolUse: { toolUseId: block.id, name: block.name, input: (block.arguments ?? {}) as DocumentType },
			});
		} else {
			// A model without tool use cannot read toolUse blocks; the call is kept as text.
			blocks.push({ text: `[Tool call ${block.name}: ${JSON.stringify(block.arguments ?? {})}]` });
		}
	}
	return blocks;
}

/**
 * A tool result as a `toolResult` block: its text, images and files, which Converse takes as
 * `document` blocks inside the result (ToolResultContentBlock, see wire-types.ts).
 */
function encodeToolResult(
	message: ToolResultMessage,
	model: BedrockModel,
	compat: Compat,
	documentNames: Set<string>,
): ContentBlock[] {
	const parts = splitToolResultContent(message);
	const { texts, text, images, files } = parts;
	if (!compat.supportsToolUse) {
		const label = message.isError ? "Tool error" : "Tool result";
		const names = files.map((file) => ` (file "${fileNameOf(file)}" omitted: this model does not accept it)`).join("");
		return [{ text: `[${label} ${message.toolName}: ${sanitizeSurrogates(text)}${names}]` }];
	}
	const content: ToolResultContentBlock[] = texts
		.filter((part) => !isBlank(part.text))
		.map((part) => ({ text: sanitizeSurrogates(part.text) }));
	if (content.length === 0) content.push({ text: attachmentOnlyText(parts) });
	for (const image of images) content.push(encodeImage(image, model) as ToolResultContentBlock);
	for (const file of files) content.push(encodeFile(file, documentNames));
	return [{ toolResult: { toolUseId: message.toolCallId, content, status: message.isError ? "error" : "success" } }];
}

/**
 * Our messages as Converse `messages`. Blank text and empty messages are dropped, consecutive
 * messages of one role are joined (Converse wants user and assistant turns to alternate, and all
 * results of one assistant turn in the next user message), and with a cache point the last user
 * message ends with it.
 *
 * Expects messages already prepared for this model (see transformMessages).
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html
 */
export function encodeBedrockMessages(
	messages: readonly Message[],
	model: BedrockModel,
	compat: Compat,
	cachePoint?: CachePointBlock,
): BedrockMessage[] {
	const encoded: BedrockMessage[] = [];
	const append = (role: "user" | "assistant", content: ContentBlock[]) => {
		if (content.length === 0) return;
		const last = encoded[encoded.length - 1];
		if (last && last.role === role) last.content = [...(last.content ?? []), ...content];
		else encoded.push({ role, content });
	};
	// Document names must differ within one Converse message, which may join several of ours.
	let documentNames = new Set<string>();
	const namesFor = (role: "user" | "assistant") => {
		if (encoded[encoded.length - 1]?.role !== role) documentNames = new Set<string>();
		return documentNames;
	};
	for (const message of messages) {
		// System messages were folded into the `system` blocks by the caller (foldSystemMessages).
		if (message.role === "system") continue;
		if (message.role === "user") append("user", encodeUserContent(message, model, namesFor("user")));
		else if (message.role === "assistant") append("assistant", encodeAssistantContent(message, compat));
		else append("user", encodeToolResult(message, model, compat, namesFor("user")));
	}
	if (cachePoint) {
		for (let index = encoded.length - 1; index >= 0; index--) {
			if (encoded[index].role !== "user") continue;
			encoded[index].content = [...(encoded[index].content ?? []), { cachePoint }];
			break;
		}
	}
	return encoded;
}

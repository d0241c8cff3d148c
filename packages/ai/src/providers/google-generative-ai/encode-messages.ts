// Keel's messages as Gemini `contents`: user turns, "model" turns, and function responses.
// @see https://ai.google.dev/api/caching#Content
// @see https://ai.google.dev/gemini-api/docs/thought-signatures

import {
	attachmentOnlyText,
	IMAGE_OMITTED_NOTE,
	modelAcceptsImages,
	splitToolResultContent,
} from "../../message/encode-content.js";
import { baseMimeType, isPdfFile, isTextFile, textFileAsText } from "../../message/file-content.js";
import { sanitizeToolCallIdCharacters } from "../../message/tool-call-ids.js";
import type {
	Api,
	AssistantMessage,
	FileContent,
	ImageContent,
	Message,
	Model,
	ToolResultMessage,
	UserMessage,
} from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { usesThinkingLevels } from "./thinking.js";
import type { GeminiContent, GeminiPart } from "./wire-types.js";

/**
 * What Gemini documents for a function call that has no signature of its own, for example one
 * another model made: it tells Gemini 3 not to validate the missing signature.
 */
export const SKIP_THOUGHT_SIGNATURE = "skip_thought_signature_validator";

/** Introduces the images of tool results for models that take no images inside a function response. */
export const TOOL_RESULT_IMAGE_TEXT = "Tool result image:";

/** Introduces the files (and any images) of tool results sent in a user turn. */
export const TOOL_RESULT_FILE_TEXT = "Tool result file:";

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** A signature Gemini can take back: base64 text. Anything else (another API's data) is left out. */
function replayableSignature(signature: string | undefined): string | undefined {
	if (!signature || signature.length % 4 !== 0 || !BASE64.test(signature)) return undefined;
	return signature;
}

/**
 * Gemini's own models match a function response to its call by name and order and take no ids;
 * the partner models Vertex serves through the same API (Claude, gpt-oss) need them.
 */
export function sendsToolCallIds(model: Model<Api>): boolean {
	return model.id.startsWith("claude-") || model.id.startsWith("gpt-oss-");
}

/** Tool-call ids from other APIs, made acceptable for the models that take ids. */
export function normalizeGeminiToolCallId(id: string, model: Model<Api>): string {
	if (!sendsToolCallIds(model)) return id;
	const normalized = sanitizeToolCallIdCharacters(id).slice(0, 64);
	return normalized === "" ? "_" : normalized;
}

function imagePart(image: ImageContent): GeminiPart {
	return { inlineData: { mimeType: image.mimeType, data: image.data } };
}

/**
 * A file as a part (https://ai.google.dev/gemini-api/docs/document-processing): bytes as
 * `inlineData`, a URL or Files API URI as `fileData`. A text file given as bytes goes as text,
 * which every Gemini model reads.
 */
function filePart(file: FileContent): GeminiPart {
	const mimeType = baseMimeType(file.mimeType);
	if (file.url !== undefined) return { fileData: { mimeType, fileUri: file.url } };
	if (!isPdfFile(file)) return { text: sanitizeSurrogates(textFileAsText(file).text) };
	return { inlineData: { mimeType, data: file.data ?? "" } };
}

function encodeUserParts(message: UserMessage, model: Model<Api>): GeminiPart[] {
	if (typeof message.content === "string") {
		return message.content.trim() === "" ? [] : [{ text: sanitizeSurrogates(message.content) }];
	}
	const parts: GeminiPart[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text.trim() !== "") parts.push({ text: sanitizeSurrogates(block.text) });
		} else if (block.type === "image") {
			parts.push(modelAcceptsImages(model) ? imagePart(block) : { text: IMAGE_OMITTED_NOTE });
		} else if (block.type === "file") {
			parts.push(filePart(block));
		} else {
			// Audio as inline data (https://ai.google.dev/gemini-api/docs/audio).
			parts.push({ inlineData: { mimeType: baseMimeType(block.mimeType), data: block.data } });
		}
	}
	return parts;
}

function encodeModelParts(message: AssistantMessage, model: Model<Api>): GeminiPart[] {
	const parts: GeminiPart[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text.trim() === "") continue;
			const part: GeminiPart = { text: sanitizeSurrogates(block.text) };
			const signature = replayableSignature(block.textSignature);
			if (signature) part.thoughtSignature = signature;
			parts.push(part);
		} else if (block.type === "thinking") {
			// Only this model's thinking arrives here (transformMessages turns other models' into text).
			if (block.thinking.trim() === "") continue;
			const part: GeminiPart = { text: sanitizeSurrogates(block.thinking), thought: true };
			const signature = replayableSignature(block.thinkingSignature);
			if (signature) part.thoughtSignature = signature;
			parts.push(part);
		} else {
			const part: GeminiPart = { functionCall: { name: block.name, args: block.arguments ?? {} } };
			if (sendsToolCallIds(model)) part.functionCall!.id = block.id;
			const signature =
				replayableSignature(block.thoughtSignature) ?? (usesThinkingLevels(model) ? SKIP_THOUGHT_SIGNATURE : undefined);
			if (signature) part.thoughtSignature = signature;
			parts.push(part);
		}
	}
	return parts;
}

/**
 * One tool result as a function response part, plus the attachments to send in a user turn after
 * the responses. A text file goes into the response's text. Gemini 3 takes images and PDFs inside
 * the function response (https://ai.google.dev/gemini-api/docs/function-calling, "Multimodal
 * function responses"); older models, and files given by URL (the Gemini API takes no `fileData`
 * there), read them from the user turn.
 */
function encodeToolResult(
	message: ToolResultMessage,
	model: Model<Api>,
): { part: GeminiPart; attachments: GeminiPart[] } {
	const parts = splitToolResultContent(message);
	const { images } = parts;
	const acceptsImages = modelAcceptsImages(model);
	const textFiles = parts.files.filter((file) => isTextFile(file) && file.data !== undefined);
	const documents = parts.files.filter((file) => !textFiles.includes(file));
	const notes = images.length > 0 && !acceptsImages ? [IMAGE_OMITTED_NOTE] : [];
	let output = [parts.text, ...textFiles.map((file) => textFileAsText(file).text), ...notes]
		.filter((part) => part !== "")
		.join("\n");
	if (output === "") output = attachmentOnlyText({ ...parts, images: acceptsImages ? images : [] });
	output = sanitizeSurrogates(output);
	const part: GeminiPart = {
		functionResponse: { name: message.toolName, response: message.isError ? { error: output } : { output } },
	};
	if (sendsToolCallIds(model)) part.functionResponse!.id = message.toolCallId;
	const sentImages = acceptsImages ? images.map(imagePart) : [];
	const sentDocuments = documents.map(filePart);
	if (usesThinkingLevels(model)) {
		// Inline data nests in the response; a file URI still goes in the user turn.
		const nested = [...sentImages, ...sentDocuments].filter((item) => item.inlineData !== undefined);
		if (nested.length > 0) part.functionResponse!.parts = nested.map((item) => ({ inlineData: item.inlineData! }));
		return { part, attachments: sentDocuments.filter((item) => item.inlineData === undefined) };
	}
	return { part, attachments: [...sentImages, ...sentDocuments] };
}

/**
 * Our messages as Gemini contents. Expects messages already prepared for this model
 * (transformMessages): other models' thinking is text, their tool calls carry no signature.
 * Consecutive tool results become one user turn of function responses, as Gemini wants every
 * response to one model turn together.
 */
export function encodeGeminiContents(messages: readonly Message[], model: Model<Api>): GeminiContent[] {
	const contents: GeminiContent[] = [];
	for (let index = 0; index < messages.length; index++) {
		const message = messages[index];
		// System messages were folded into `systemInstruction` by the caller (foldSystemMessages).
		if (message.role === "system") continue;
		if (message.role === "user") {
			const parts = encodeUserParts(message, model);
			if (parts.length > 0) contents.push({ role: "user", parts });
		} else if (message.role === "assistant") {
			const parts = encodeModelParts(message, model);
			if (parts.length > 0) contents.push({ role: "model", parts });
		} else {
			const responses: GeminiPart[] = [];
			const attachments: GeminiPart[] = [];
			while (index < messages.length && messages[index].role === "toolResult") {
				const encoded = encodeToolResult(messages[index] as ToolResultMessage, model);
				responses.push(encoded.part);
				attachments.push(...encoded.attachments);
				index++;
			}
			index--;
			contents.push({ role: "user", parts: responses });
			if (attachments.length > 0) {
				const intro = attachments.some((item) => item.fileData || item.inlineData?.mimeType === "application/pdf")
					? TOOL_RESULT_FILE_TEXT
					: TOOL_RESULT_IMAGE_TEXT;
				contents.push({ role: "user", parts: [{ text: intro }, ...attachments] });
			}
		}
	}
	return contents;
}

import {
	attachmentOnlyText,
	IMAGE_OMITTED_NOTE,
	imageDataUrl,
	modelAcceptsImages,
	splitToolResultContent,
} from "../../message/encode-content.js";
import { fileDataUrl, fileNameOf, isPdfFile, textFileAsText } from "../../message/file-content.js";
import { transformMessages } from "../../message/transform-messages.js";
import type {
	Api,
	AssistantMessage,
	FileContent,
	ImageContent,
	Message,
	Model,
	ToolResultMessage,
	UserContent,
	UserMessage,
} from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { normalizeMistralToolCallId } from "./tool-call-id.js";
import type {
	MistralAssistantMessage,
	MistralDocumentChunk,
	MistralImageChunk,
	MistralMessage,
	MistralTextChunk,
	MistralThinkingChunk,
	MistralToolMessage,
	MistralUserChunk,
	MistralUserMessage,
} from "./wire-types.js";

/** Sent as a tool result's text when the tool returned nothing (the API rejects empty content). */
export const EMPTY_TOOL_RESULT_TEXT = "(no tool output)";

/**
 * Keel messages as Mistral chat messages: the system prompt first, then the conversation after
 * `transformMessages` made it safe for this model (foreign thinking as text, tool-call ids reduced
 * to Mistral's 9 alphanumeric characters with results rewritten to match, orphaned calls answered,
 * failed turns dropped).
 */
export function encodeMistralMessages(
	model: Model<"mistral-conversations">,
	systemPrompt: string | undefined,
	messages: readonly Message[],
): MistralMessage[] {
	const acceptsImages = modelAcceptsImages(model as Model<Api>);
	const output: MistralMessage[] = [];
	if (systemPrompt) output.push({ role: "system", content: sanitizeSurrogates(systemPrompt) });
	for (const message of transformMessages(messages, model as Model<Api>, normalizeMistralToolCallId)) {
		// System messages were folded into the first message by the caller (foldSystemMessages).
		if (message.role === "system") continue;
		if (message.role === "user") output.push(encodeUserMessage(message, acceptsImages));
		else if (message.role === "toolResult") output.push(encodeToolResult(message, acceptsImages));
		else {
			const encoded = encodeAssistantMessage(message);
			if (encoded) output.push(encoded);
		}
	}
	return output;
}

function encodeUserMessage(message: UserMessage, acceptsImages: boolean): MistralUserMessage {
	if (typeof message.content === "string") return { role: "user", content: sanitizeSurrogates(message.content) };
	const chunks = message.content.map((block) => encodeUserBlock(block, acceptsImages));
	// A user message of images only, for a model that reads none, still says what was there.
	return { role: "user", content: chunks.length > 0 ? chunks : [{ type: "text", text: IMAGE_OMITTED_NOTE }] };
}

function encodeUserBlock(block: UserContent, acceptsImages: boolean): MistralUserChunk {
	if (block.type === "text") return { type: "text", text: sanitizeSurrogates(block.text) };
	if (block.type === "file") return encodeFile(block);
	if (block.type === "audio") return { type: "input_audio", input_audio: block.data };
	if (!acceptsImages) return { type: "text", text: IMAGE_OMITTED_NOTE };
	return imageChunk(block);
}

/** A PDF as document_url (a URL or a data: URL); a text file as text, which every model reads. */
function encodeFile(file: FileContent): MistralTextChunk | MistralDocumentChunk {
	if (!isPdfFile(file)) return { type: "text", text: sanitizeSurrogates(textFileAsText(file).text) };
	const url = file.url ?? fileDataUrl({ ...file, data: file.data ?? "" });
	return { type: "document_url", document_url: url, document_name: fileNameOf(file) };
}

function imageChunk(image: ImageContent): MistralImageChunk {
	return { type: "image_url", image_url: imageDataUrl(image) };
}

/**
 * Thinking of this model goes back as a `thinking` chunk before the text, as Mistral documents for
 * multi-turn reasoning (https://docs.mistral.ai/capabilities/reasoning/); without thinking the
 * content is a plain string.
 */
function encodeAssistantMessage(message: AssistantMessage): MistralAssistantMessage | undefined {
	const chunks: (MistralTextChunk | MistralThinkingChunk)[] = [];
	let hasThinking = false;
	const toolCalls: MistralAssistantMessage["tool_calls"] = [];
	for (const block of message.content) {
		if (block.type === "thinking") {
			if (block.thinking.trim() === "") continue;
			hasThinking = true;
			chunks.push({ type: "thinking", thinking: [{ type: "text", text: sanitizeSurrogates(block.thinking) }] });
		} else if (block.type === "text") {
			if (block.text !== "") chunks.push({ type: "text", text: sanitizeSurrogates(block.text) });
		} else {
			toolCalls.push({
				id: block.id,
				type: "function",
				function: { name: block.name, arguments: JSON.stringify(block.arguments ?? {}) },
			});
		}
	}
	if (chunks.length === 0 && toolCalls.length === 0) return undefined;
	const encoded: MistralAssistantMessage = { role: "assistant" };
	if (hasThinking) encoded.content = chunks;
	else if (chunks.length > 0) encoded.content = chunks.map((chunk) => (chunk as MistralTextChunk).text).join("");
	if (toolCalls.length > 0) encoded.tool_calls = toolCalls;
	return encoded;
}

/**
 * A tool result is one `tool` message naming its call and its tool. Errors are marked in the text
 * (the API has no error flag); images and files go with the text as chunks (the tool message takes
 * the user message's chunk types, https://docs.mistral.ai/api/#tag/chat), images becoming a note
 * for a model that reads none.
 */
function encodeToolResult(message: ToolResultMessage, acceptsImages: boolean): MistralToolMessage {
	const parts = splitToolResultContent(message);
	const { text, images, files } = parts;
	const sentImages = acceptsImages ? images : [];
	let body = text;
	if (images.length > 0 && !acceptsImages) body = text ? `${text}\n${IMAGE_OMITTED_NOTE}` : IMAGE_OMITTED_NOTE;
	else if (!text) body = attachmentOnlyText(parts) || EMPTY_TOOL_RESULT_TEXT;
	if (message.isError) body = `[tool error] ${body}`;
	const base = { role: "tool" as const, tool_call_id: message.toolCallId, name: message.toolName };
	if (sentImages.length === 0 && files.length === 0) return { ...base, content: sanitizeSurrogates(body) };
	return {
		...base,
		content: [
			{ type: "text", text: sanitizeSurrogates(body) },
			...sentImages.map(imageChunk),
			...files.map(encodeFile),
		],
	};
}

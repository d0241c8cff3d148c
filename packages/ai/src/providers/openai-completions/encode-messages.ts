import {
	FILE_ONLY_TOOL_RESULT_TEXT,
	IMAGE_OMITTED_NOTE,
	IMAGE_ONLY_TOOL_RESULT_TEXT,
	imageDataUrl,
	modelAcceptsImages,
	parseJsonSignature,
	splitToolResultContent,
} from "../../message/encode-content.js";
import {
	audioFormatOf,
	fileDataUrl,
	fileNameOf,
	isPdfFile,
	isTextFile,
	textFileAsText,
} from "../../message/file-content.js";
import { normalizeOpenAICompletionsToolCallId } from "../../message/tool-call-ids.js";
import { transformMessages } from "../../message/transform-messages.js";
import type {
	Api,
	AssistantMessage,
	FileContent,
	ImageContent,
	Message,
	Model,
	TextContent,
	ThinkingContent,
	ToolResultMessage,
	UserContent,
	UserMessage,
} from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { renderSystemMessageUpdate } from "../../utils/system-messages.js";
import type { ResolvedOpenAICompletionsCompat } from "./compat.js";
import {
	type ChatAssistantMessage,
	type ChatContentPart,
	type ChatMessage,
	type ChatTextPart,
	type ChatToolMessage,
	type ChatUserMessage,
	REASONING_FIELDS,
	type ReasoningField,
} from "./wire-types.js";

export const TOOL_RESULT_IMAGES_INTRO = "Attached image(s) from tool result:";
export const TOOL_RESULT_FILES_INTRO = "Attached file(s) from tool result:";
export const ASSISTANT_AFTER_TOOL_RESULT_TEXT = "I have processed the tool results.";

interface EncodeMessagesInput {
	model: Model<"openai-completions">;
	compat: ResolvedOpenAICompletionsCompat;
	systemPrompt: string | undefined;
	messages: readonly Message[];
}

/**
 * Converts Keel messages to Chat Completions messages for one model: the system prompt first
 * (as `developer` for reasoning models that accept it), then the conversation after
 * `transformMessages` has made it safe for this model (foreign thinking as text, ids normalised,
 * orphaned tool calls answered, failed turns dropped).
 */
export function encodeOpenAICompletionsMessages(input: EncodeMessagesInput): ChatMessage[] {
	const { model, compat } = input;
	const acceptsImages = modelAcceptsImages(model as Model<Api>);
	const output: ChatMessage[] = [];
	const systemRole = model.reasoning && compat.supportsDeveloperRole ? "developer" : "system";
	if (input.systemPrompt) {
		output.push({ role: systemRole, content: sanitizeSurrogates(input.systemPrompt) });
	}

	const messages = transformMessages(input.messages, model as Model<Api>, (id) =>
		normalizeOpenAICompletionsToolCallId(id),
	);
	let index = 0;
	while (index < messages.length) {
		const message = messages[index];
		if (message.role === "system") {
			// In place, in the same role as the system prompt (see keepSystemMessagesInPlace).
			const text = renderSystemMessageUpdate(message);
			if (text.trim() !== "") output.push({ role: systemRole, content: sanitizeSurrogates(text) });
			index++;
		} else if (message.role === "user") {
			output.push(encodeUserMessage(message, acceptsImages));
			index++;
		} else if (message.role === "assistant") {
			const encoded = encodeAssistantMessage(message, model, compat);
			if (encoded) output.push(encoded);
			index++;
		} else {
			// A run of consecutive tool results: one `tool` message each, then their images together.
			const run: ToolResultMessage[] = [];
			while (index < messages.length && messages[index].role === "toolResult") {
				run.push(messages[index] as ToolResultMessage);
				index++;
			}
			const { toolMessages, imagesMessage } = encodeToolResults(run, acceptsImages, compat);
			output.push(...toolMessages);
			const userFollows = imagesMessage !== undefined || messages[index]?.role === "user";
			if (compat.requiresAssistantAfterToolResult && userFollows) {
				output.push({ role: "assistant", content: ASSISTANT_AFTER_TOOL_RESULT_TEXT });
			}
			if (imagesMessage) output.push(imagesMessage);
		}
	}
	return output;
}

function encodeUserMessage(message: UserMessage, acceptsImages: boolean): ChatUserMessage {
	if (typeof message.content === "string") return { role: "user", content: sanitizeSurrogates(message.content) };
	const parts: ChatContentPart[] = message.content.map((block) => encodeUserBlock(block, acceptsImages));
	return { role: "user", content: parts };
}

function encodeUserBlock(block: UserContent, acceptsImages: boolean): ChatContentPart {
	if (block.type === "text") return { type: "text", text: sanitizeSurrogates(block.text) };
	if (block.type === "file") return encodeFile(block);
	if (block.type === "audio") {
		// Only wav and mp3 are accepted; input-support.ts refuses other formats before the call.
		return { type: "input_audio", input_audio: { data: block.data, format: audioFormatOf(block) ?? "wav" } };
	}
	if (!acceptsImages) return { type: "text", text: IMAGE_OMITTED_NOTE };
	return imagePart(block);
}

/**
 * A PDF as a `file` part holding a data URL and its name; a text file as text, since the API's
 * file part is for PDFs (https://platform.openai.com/docs/guides/pdf-files).
 */
function encodeFile(file: FileContent): ChatContentPart {
	if (!isPdfFile(file)) return { type: "text", text: sanitizeSurrogates(textFileAsText(file).text) };
	if (file.data === undefined) {
		throw new Error(`Chat Completions cannot fetch "${fileNameOf(file)}" from a URL; pass its bytes as data (base64)`);
	}
	return { type: "file", file: { file_data: fileDataUrl({ ...file, data: file.data }), filename: fileNameOf(file) } };
}

function imagePart(image: ImageContent): ChatContentPart {
	return { type: "image_url", image_url: { url: imageDataUrl(image) } };
}

function encodeAssistantMessage(
	message: AssistantMessage,
	model: Model<"openai-completions">,
	compat: ResolvedOpenAICompletionsCompat,
): ChatAssistantMessage | undefined {
	const thinking = message.content.filter((block): block is ThinkingContent => block.type === "thinking");
	const texts = message.content.filter((block): block is TextContent => block.type === "text");
	const toolCalls = message.content.filter((block) => block.type === "toolCall");

	let text = texts.map((block) => block.text).join("");
	const reasoningText = thinking.map((block) => block.thinking).join("\n\n");
	if (compat.requiresThinkingAsText && reasoningText) text = text ? `${reasoningText}\n\n${text}` : reasoningText;
	text = sanitizeSurrogates(text);

	const encoded: ChatAssistantMessage = { role: "assistant", content: text };
	if (!compat.requiresThinkingAsText && reasoningText) {
		// Replayed under the field it streamed in (the block's signature records which).
		encoded[reasoningFieldOf(thinking[0])] = sanitizeSurrogates(reasoningText);
	}
	if (
		compat.requiresReasoningContentOnAssistantMessages &&
		model.reasoning &&
		encoded.reasoning_content === undefined
	) {
		// DeepSeek rejects an assistant turn in thinking mode that lacks the field, even when empty.
		encoded.reasoning_content = compat.requiresThinkingAsText ? "" : sanitizeSurrogates(reasoningText);
	}

	const reasoningDetails: unknown[] = [];
	if (toolCalls.length > 0) {
		encoded.tool_calls = toolCalls.map((call) => {
			// OpenRouter's encrypted reasoning entries are stored as JSON in `thoughtSignature`.
			const detail = parseJsonSignature(call.thoughtSignature);
			if (detail !== undefined) reasoningDetails.push(detail);
			return {
				id: call.id,
				type: "function" as const,
				function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
			};
		});
	}
	if (reasoningDetails.length > 0) encoded.reasoning_details = reasoningDetails;

	const hasReasoning = REASONING_FIELDS.some((field) => encoded[field]);
	if (!text && toolCalls.length === 0 && !hasReasoning) return undefined;
	// OpenAI wants null content next to tool calls; vendors that need an assistant turn want "".
	if (!text && toolCalls.length > 0 && !compat.requiresAssistantAfterToolResult) encoded.content = null;
	return encoded;
}

function reasoningFieldOf(block: ThinkingContent): ReasoningField {
	const signature = block.thinkingSignature;
	return REASONING_FIELDS.find((field) => field === signature) ?? "reasoning_content";
}

/**
 * Chat Completions tool messages hold text only (https://platform.openai.com/docs/api-reference/chat/create,
 * tool message `content`), so a text file a tool returned goes into its text, and images and PDFs
 * from a run of results are collected into one user message after the run, as images are
 * (for models that accept images; otherwise a note stands in for each image).
 */
function encodeToolResults(
	results: readonly ToolResultMessage[],
	acceptsImages: boolean,
	compat: ResolvedOpenAICompletionsCompat,
): { toolMessages: ChatToolMessage[]; imagesMessage?: ChatUserMessage } {
	const toolMessages: ChatToolMessage[] = [];
	const images: ImageContent[] = [];
	const documents: FileContent[] = [];
	for (const result of results) {
		const parts = splitToolResultContent(result);
		const { images: resultImages } = parts;
		const textFiles = parts.files.filter(isTextFile).map((file) => textFileAsText(file).text);
		const attached = parts.files.filter((file) => !isTextFile(file));
		const notes = resultImages.length > 0 && !acceptsImages ? [IMAGE_OMITTED_NOTE] : [];
		let content = [parts.text, ...textFiles, ...notes].filter((part) => part !== "").join("\n");
		if (content === "") {
			content =
				attached.length > 0 ? FILE_ONLY_TOOL_RESULT_TEXT : resultImages.length > 0 ? IMAGE_ONLY_TOOL_RESULT_TEXT : "";
		}
		const message: ChatToolMessage = {
			role: "tool",
			tool_call_id: result.toolCallId,
			content: sanitizeSurrogates(content),
		};
		if (compat.requiresToolResultName) message.name = result.toolName;
		toolMessages.push(message);
		if (acceptsImages) images.push(...resultImages);
		documents.push(...attached);
	}
	if (images.length === 0 && documents.length === 0) return { toolMessages };
	const intro = documents.length > 0 ? TOOL_RESULT_FILES_INTRO : TOOL_RESULT_IMAGES_INTRO;
	const parts: ChatContentPart[] = [{ type: "text", text: intro } satisfies ChatTextPart];
	for (const image of images) parts.push(imagePart(image));
	for (const document of documents) parts.push(encodeFile(document));
	return { toolMessages, imagesMessage: { role: "user", content: parts } };
}

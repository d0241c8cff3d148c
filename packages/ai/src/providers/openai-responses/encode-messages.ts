import type {
	ResponseFunctionCallOutputItemList,
	ResponseInputContent,
	ResponseInputFile,
	ResponseInputItem,
	ResponseInputText,
	ResponseReasoningItem,
} from "openai/resources/responses/responses";
import {
	attachmentOnlyText,
	IMAGE_OMITTED_NOTE,
	imageDataUrl,
	modelAcceptsImages,
	parseJsonSignature,
	splitToolResultContent,
} from "../../message/encode-content.js";
import { fileDataUrl, fileNameOf, isTextFile, textFileAsText } from "../../message/file-content.js";
import { hashToAlphanumeric, parseResponsesToolCallId } from "../../message/tool-call-ids.js";
import type {
	Api,
	AssistantMessage,
	FileContent,
	Message,
	Model,
	ToolResultMessage,
	UserMessage,
} from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { renderSystemMessageUpdate } from "../../utils/system-messages.js";
import { parseTextSignature } from "./text-signature.js";

/**
 * Encodes already-transformed messages (see transformMessages) as Responses `input` items:
 * user content as input_text / input_image, assistant text as output `message` items carrying
 * their id and phase, signed reasoning as the stored reasoning item, tool calls as
 * `function_call` and tool results as `function_call_output`. A system message becomes a message
 * item in the `developer` role (reasoning models) or `system` role, where it stands.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input
 */
export function encodeResponsesInput(messages: readonly Message[], model: Model<Api>): ResponseInputItem[] {
	const items: ResponseInputItem[] = [];
	let assistantIndex = 0;
	for (const message of messages) {
		if (message.role === "system") {
			const text = renderSystemMessageUpdate(message);
			if (text.trim() !== "") {
				items.push({ role: model.reasoning ? "developer" : "system", content: sanitizeSurrogates(text) });
			}
		} else if (message.role === "user") {
			const item = encodeUserMessage(message, model);
			if (item) items.push(item);
		} else if (message.role === "assistant") {
			items.push(...encodeAssistantMessage(message, model, assistantIndex++));
		} else {
			items.push(encodeToolResult(message, model));
		}
	}
	return items;
}

function encodeUserMessage(message: UserMessage, model: Model<Api>): ResponseInputItem | undefined {
	if (typeof message.content === "string") {
		if (message.content === "") return undefined;
		return { role: "user", content: [{ type: "input_text", text: sanitizeSurrogates(message.content) }] };
	}
	const content: ResponseInputContent[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text.trim() !== "") content.push({ type: "input_text", text: sanitizeSurrogates(block.text) });
		} else if (block.type === "file") {
			content.push(encodeFile(block));
		} else if (block.type === "audio") {
			// Checked before the call (input-support.ts); reached only when the encoder is used directly.
			throw new Error(`The Responses API takes no audio input (${model.provider}/${model.id}); send a transcript`);
		} else if (modelAcceptsImages(model)) {
			content.push({ type: "input_image", detail: "auto", image_url: imageDataUrl(block) });
		} else {
			content.push({ type: "input_text", text: IMAGE_OMITTED_NOTE });
		}
	}
	return content.length > 0 ? { role: "user", content } : undefined;
}

/**
 * A PDF or document (Word, Excel, PowerPoint, …) as `input_file` with inline `file_data` (a data
 * URL) and its name, or with `file_url` (https://developers.openai.com/api/docs/guides/file-inputs);
 * a text file as `input_text`, the decoded text in a `<file>` tag.
 */
function encodeFile(file: FileContent): ResponseInputText | ResponseInputFile {
	if (isTextFile(file)) return { type: "input_text", text: sanitizeSurrogates(textFileAsText(file).text) };
	if (file.url !== undefined) return { type: "input_file", file_url: file.url };
	return { type: "input_file", file_data: fileDataUrl({ ...file, data: file.data ?? "" }), filename: fileNameOf(file) };
}

function encodeAssistantMessage(
	message: AssistantMessage,
	model: Model<Api>,
	assistantIndex: number,
): ResponseInputItem[] {
	const items: ResponseInputItem[] = [];
	// A different model of the same API cannot resolve another model's `fc_` item ids (its reasoning
	// items are not replayed to it), so those ids are left out and only call_id pairs the result.
	const dropFunctionItemIds =
		message.provider === model.provider && message.api === model.api && message.model !== model.id;
	// With store:false a reasoning item can only be replayed with its encrypted content; one without
	// it (reasoning asked off, a proxy that strips it) would be looked up by id and fail. It is left
	// out, and so are the item ids of this turn, which the API would otherwise pair with it.
	const reasoningItems = message.content.map((block) =>
		block.type === "thinking" ? parseReasoningItem(block.thinkingSignature) : undefined,
	);
	const dropAllItemIds = reasoningItems.some((item) => item !== undefined && !item.encrypted_content);
	message.content.forEach((block, blockIndex) => {
		if (block.type === "thinking") {
			const reasoning = reasoningItems[blockIndex];
			if (reasoning?.encrypted_content) items.push(reasoning);
		} else if (block.type === "text") {
			if (block.text === "") return;
			const signature = parseTextSignature(block.textSignature);
			const text = sanitizeSurrogates(block.text);
			const phase = signature?.phase ? { phase: signature.phase } : {};
			if (dropAllItemIds) {
				items.push({ type: "message", role: "assistant", content: text, ...phase });
				return;
			}
			items.push({
				type: "message",
				role: "assistant",
				id: outputMessageId(signature?.id, assistantIndex, blockIndex),
				status: "completed",
				content: [{ type: "output_text", text, annotations: [] }],
				...phase,
			});
		} else {
			const { callId, itemId } = parseResponsesToolCallId(block.id);
			const keepItemId = !!itemId && !dropAllItemIds && !(dropFunctionItemIds && itemId.startsWith("fc_"));
			items.push({
				type: "function_call",
				call_id: callId,
				...(keepItemId ? { id: itemId } : {}),
				name: block.name,
				arguments: JSON.stringify(block.arguments ?? {}),
			});
		}
	});
	return items;
}

/** The stored reasoning item (the signature is its JSON); undefined for anything else. */
function parseReasoningItem(signature: string | undefined): ResponseReasoningItem | undefined {
	const parsed = parseJsonSignature(signature);
	return parsed?.type === "reasoning" ? (parsed as unknown as ResponseReasoningItem) : undefined;
}

// The API limits item ids to 64 characters; longer ids (from other tools) are replaced by a
// stable hash so replays of the same history send the same id.
function outputMessageId(id: string | undefined, assistantIndex: number, blockIndex: number): string {
	if (!id) return `msg_${assistantIndex}_${blockIndex}`;
	return id.length > 64 ? `msg_${hashToAlphanumeric(id, 16)}` : id;
}

/**
 * A tool result as `function_call_output`: its text as a string, or with images and files as an
 * output list of `input_text`, `input_image` and `input_file` items, which the output field takes
 * (https://platform.openai.com/docs/api-reference/responses/create, function_call_output.output).
 */
function encodeToolResult(message: ToolResultMessage, model: Model<Api>): ResponseInputItem {
	const callId = parseResponsesToolCallId(message.toolCallId).callId;
	const parts = splitToolResultContent(message);
	const { images, files } = parts;
	const text = sanitizeSurrogates(parts.text);
	const sendImages = images.length > 0 && modelAcceptsImages(model);
	const notes = sendImages ? [] : images.map(() => IMAGE_OMITTED_NOTE);
	if (sendImages || files.length > 0) {
		const output: ResponseFunctionCallOutputItemList = [];
		const intro = [text, ...notes].filter((part) => part !== "").join("\n");
		output.push({ type: "input_text", text: intro === "" ? attachmentOnlyText(parts) : intro });
		if (sendImages) {
			for (const image of images) output.push({ type: "input_image", detail: "auto", image_url: imageDataUrl(image) });
		}
		for (const file of files) output.push(encodeFile(file));
		return { type: "function_call_output", call_id: callId, output };
	}
	const output = [text, ...notes].filter((part) => part !== "").join("\n");
	return { type: "function_call_output", call_id: callId, output };
}

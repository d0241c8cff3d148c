import type Anthropic from "@anthropic-ai/sdk";
import {
	attachmentOnlyText,
	IMAGE_OMITTED_NOTE,
	modelAcceptsImages,
	splitToolResultContent,
} from "../../message/encode-content.js";
import { decodeTextFile, fileNameOf, isPdfFile, isTextFile } from "../../message/file-content.js";
import type {
	Api,
	AssistantMessage,
	FileContent,
	ImageContent,
	Message,
	Model,
	SystemMessage,
	ToolResultMessage,
	UserMessage,
} from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { renderSystemMessageUpdate } from "../../utils/system-messages.js";
import { anthropicContentBlock, anthropicToolCaller } from "./server-blocks.js";

type MessageParam = Anthropic.Messages.MessageParam;
type ContentBlockParam = Anthropic.Messages.ContentBlockParam;
type TextBlockParam = Anthropic.Messages.TextBlockParam;
type ImageBlockParam = Anthropic.Messages.ImageBlockParam;
type DocumentBlockParam = Anthropic.Messages.DocumentBlockParam;
type ToolResultBlockParam = Anthropic.Messages.ToolResultBlockParam;
export type CacheControl = Anthropic.Messages.CacheControlEphemeral;

const IMAGE_MEDIA_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

function isBlank(text: string): boolean {
	return text.trim() === "";
}

function encodeImage(image: ImageContent, model: Model<Api>): ImageBlockParam | TextBlockParam {
	if (!modelAcceptsImages(model)) return { type: "text", text: IMAGE_OMITTED_NOTE };
	if (!IMAGE_MEDIA_TYPES.has(image.mimeType)) {
		throw new Error(
			`Anthropic accepts image/jpeg, image/png, image/gif and image/webp images, got "${image.mimeType}"; convert the image first`,
		);
	}
	return {
		type: "image",
		source: { type: "base64", media_type: image.mimeType as "image/png", data: image.data },
	};
}

/**
 * A file as a `document` block (https://docs.claude.com/en/docs/build-with-claude/pdf-support and
 * https://docs.claude.com/en/api/messages): a PDF as a base64 or url source, a text file as a
 * `text` source holding the decoded text. The file name goes in `title`.
 */
function encodeFile(file: FileContent): DocumentBlockParam {
	const title = fileNameOf(file);
	if (!isPdfFile(file) && !isTextFile(file)) {
		// Checked before the call (input-support.ts); reached only when the encoder is used directly.
		throw new Error(`Anthropic documents hold PDFs and text only; convert "${title}" (${file.mimeType}) first`);
	}
	if (!isPdfFile(file)) {
		return {
			type: "document",
			source: { type: "text", media_type: "text/plain", data: sanitizeSurrogates(decodeTextFile(file)) },
			title,
		};
	}
	if (file.url !== undefined) return { type: "document", source: { type: "url", url: file.url }, title };
	return {
		type: "document",
		source: { type: "base64", media_type: "application/pdf", data: file.data ?? "" },
		title,
	};
}

function encodeUserContent(message: UserMessage, model: Model<Api>): ContentBlockParam[] {
	if (typeof message.content === "string") {
		return isBlank(message.content) ? [] : [{ type: "text", text: sanitizeSurrogates(message.content) }];
	}
	const blocks: ContentBlockParam[] = [];
	for (const part of message.content) {
		if (part.type === "text") {
			if (!isBlank(part.text)) blocks.push({ type: "text", text: sanitizeSurrogates(part.text) });
		} else if (part.type === "image") {
			blocks.push(encodeImage(part, model));
		} else if (part.type === "file") {
			blocks.push(encodeFile(part));
		} else {
			// Checked before the call (input-support.ts); reached only when the encoder is used directly.
			throw new Error(`The Anthropic Messages API takes no audio (${model.provider}/${model.id}); send a transcript`);
		}
	}
	return blocks;
}

function encodeAssistantContent(message: AssistantMessage): ContentBlockParam[] {
	const blocks: ContentBlockParam[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			// A server tool's block from this same model (server-blocks.ts) goes back exactly as received.
			const serverBlock = anthropicContentBlock(block);
			if (serverBlock) blocks.push(serverBlock as unknown as ContentBlockParam);
			else if (!isBlank(block.text)) blocks.push({ type: "text", text: sanitizeSurrogates(block.text) });
		} else if (block.type === "thinking") {
			if (block.redacted) {
				if (block.thinkingSignature) blocks.push({ type: "redacted_thinking", data: block.thinkingSignature });
			} else if (block.thinkingSignature) {
				// Kept even when the text is empty: with thinkingDisplay "omitted" the signature alone
				// carries the reasoning, and the API wants it back on the next turn. Signed text is
				// sent byte for byte (not sanitised): any change breaks the signature.
				blocks.push({ type: "thinking", thinking: block.thinking, signature: block.thinkingSignature });
			} else if (!isBlank(block.thinking)) {
				// Unsigned thinking (another model's, or an interrupted block) cannot be replayed as
				// thinking; it becomes plain text so the content is not lost.
				blocks.push({ type: "text", text: sanitizeSurrogates(block.thinking) });
			}
		} else {
			const toolUse: Anthropic.Messages.ToolUseBlockParam = {
				type: "tool_use",
				id: block.id,
				name: block.name,
				input: block.arguments ?? {},
			};
			const caller = anthropicToolCaller(block);
			if (caller) toolUse.caller = caller as Anthropic.Messages.ToolUseBlockParam["caller"];
			blocks.push(toolUse);
		}
	}
	return blocks;
}

/**
 * A tool result: its text alone as a string, or with images and files as blocks. `tool_result`
 * content takes text, image and document blocks (https://docs.claude.com/en/api/messages), so a
 * PDF or text file a tool returned goes as a `document` the same way a user's would.
 */
function encodeToolResult(message: ToolResultMessage, model: Model<Api>): ToolResultBlockParam {
	const parts = splitToolResultContent(message);
	const { texts, text, images, files } = parts;
	const result: ToolResultBlockParam = { type: "tool_result", tool_use_id: message.toolCallId };
	if (images.length === 0 && files.length === 0) {
		// An empty result is sent without `content` (the field is optional), never as an empty text.
		if (text !== "") result.content = sanitizeSurrogates(text);
	} else {
		const blocks: (TextBlockParam | ImageBlockParam | DocumentBlockParam)[] = texts.map((part) => ({
			type: "text",
			text: sanitizeSurrogates(part.text),
		}));
		if (blocks.length === 0) blocks.push({ type: "text", text: attachmentOnlyText(parts) });
		for (const image of images) blocks.push(encodeImage(image, model));
		for (const file of files) blocks.push(encodeFile(file));
		result.content = blocks;
	}
	if (message.isError) result.is_error = true;
	return result;
}

/**
 * Our messages as Anthropic `messages`. Blank text and empty messages are dropped (the API
 * rejects them), consecutive tool results become one user message of `tool_result` blocks (the
 * API wants every result for one assistant turn in the next user message), and with a cache
 * control the last block of the last user message becomes a cache breakpoint.
 *
 * System messages inside the conversation: see `placeSystemMessages`.
 *
 * Expects messages already prepared for this model (see transformMessages): thinking from other
 * models turned into text, tool-call ids normalised.
 */
export function encodeAnthropicMessages(
	messages: readonly Message[],
	model: Model<Api>,
	cacheControl?: CacheControl,
	systemRoleInMessages = false,
): MessageParam[] {
	const encoded: MessageParam[] = [];
	for (let index = 0; index < messages.length; index++) {
		const message = messages[index];
		if (message.role === "system") {
			const text = renderSystemMessageUpdate(message as SystemMessage);
			if (!isBlank(text)) encoded.push({ role: "system", content: sanitizeSurrogates(text) });
		} else if (message.role === "user") {
			const content = encodeUserContent(message, model);
			if (content.length > 0) encoded.push({ role: "user", content });
		} else if (message.role === "assistant") {
			const content = encodeAssistantContent(message);
			if (content.length > 0) encoded.push({ role: "assistant", content });
		} else {
			const results: ToolResultBlockParam[] = [];
			while (index < messages.length && messages[index].role === "toolResult") {
				results.push(encodeToolResult(messages[index] as ToolResultMessage, model));
				index++;
			}
			index--;
			encoded.push({ role: "user", content: results });
		}
	}
	const placed = placeSystemMessages(encoded, systemRoleInMessages);
	if (cacheControl) markLastUserBlock(placed, cacheControl);
	return placed;
}

// How a system message inside the conversation reaches Claude. Opus 4.8 on the Claude API takes a
// `{role: "system"}` entry where it stands, under placement rules: not first, right after a user
// turn, followed by an assistant turn or nothing, never next to another one. One that stands
// between an answer and the next question moves to just after the question.
// @see https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages
// Every other model has only the top-level `system`, and changing it would invalidate the prompt
// cache for the whole conversation; so there, and wherever the placement rules forbid an entry,
// the instructions go into the user turn as text marked as system instructions, at their place in
// the conversation (the convention Anthropic's own agents use for reminders). Adjacent system
// messages become one.
export const SYSTEM_TEXT_OPEN = "<system-instructions>";
export const SYSTEM_TEXT_CLOSE = "</system-instructions>";

function placeSystemMessages(messages: MessageParam[], systemRoleInMessages: boolean): MessageParam[] {
	if (!messages.some((message) => (message.role as string) === "system")) return messages;
	const merged: MessageParam[] = [];
	for (const message of messages) {
		const previous = merged[merged.length - 1];
		if ((message.role as string) === "system" && previous && (previous.role as string) === "system") {
			previous.content = `${previous.content as string}\n\n${message.content as string}`;
		} else {
			merged.push({ ...message });
		}
	}
	const placed: MessageParam[] = [];
	for (let index = 0; index < merged.length; index++) {
		const message = merged[index];
		if ((message.role as string) !== "system") {
			placed.push(message);
			continue;
		}
		const previous = placed[placed.length - 1];
		const next = merged[index + 1];
		const nativeAllowed =
			systemRoleInMessages && previous?.role === "user" && (next === undefined || next.role === "assistant");
		if (nativeAllowed) {
			placed.push(message);
			continue;
		}
		// The common case, instructions between an answer and the next question: the entry goes
		// right after that question, the nearest place the rules allow, still before the answer.
		const afterNext = merged[index + 2];
		if (
			systemRoleInMessages &&
			previous?.role === "assistant" &&
			next?.role === "user" &&
			(afterNext === undefined || afterNext.role === "assistant")
		) {
			placed.push(next, message);
			index++;
			continue;
		}
		const block: TextBlockParam = {
			type: "text",
			text: `${SYSTEM_TEXT_OPEN}\n${message.content as string}\n${SYSTEM_TEXT_CLOSE}`,
		};
		if (previous?.role === "user") {
			// After the turn's tool results and text, so `tool_result` blocks still come first.
			previous.content = [...asBlocks(previous.content), block];
		} else if (next?.role === "user") {
			// Before the next turn's own words, but after any tool results it opens with.
			const blocks = asBlocks(next.content);
			let at = 0;
			while (at < blocks.length && blocks[at].type === "tool_result") at++;
			next.content = [...blocks.slice(0, at), block, ...blocks.slice(at)];
		} else {
			placed.push({ role: "user", content: [block] });
		}
	}
	return placed;
}

function asBlocks(content: MessageParam["content"]): ContentBlockParam[] {
	return typeof content === "string" ? [{ type: "text", text: content }] : [...content];
}

function markLastUserBlock(messages: MessageParam[], cacheControl: CacheControl): void {
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index];
		if (message.role !== "user" || !Array.isArray(message.content) || message.content.length === 0) continue;
		const last = message.content[message.content.length - 1];
		if (last.type === "text" || last.type === "image" || last.type === "tool_result") {
			last.cache_control = { ...cacheControl };
		}
		return;
	}
}

// Which file and audio blocks a model can be sent, decided once for every API from the model's
// `input` flags and its API's row in file-support.ts. A block the model cannot read in the turn
// being asked about is an error before any request (silently dropping the file the user is asking
// about would get a confident wrong answer); in earlier turns, after a switch of model, and in tool
// results, transformMessages puts a visible note in its place (see omittedBlockNote). The
// providers' size, count and page limits are checked after (input-limits.ts).
import type { Api, AudioContent, Context, FileContent, Message, Model } from "../types.js";
import {
	audioFormatOf,
	documentFormatOf,
	documentKindName,
	fileNameOf,
	isPdfFile,
	isTextFile,
} from "./file-content.js";
import { apisTakingDocument, fileSupportOf } from "./file-support.js";
import { limitProblem, type SentBlock } from "./input-limits.js";

/** Where a problem sits, for error messages: "message 3, block 2". */
function place(messageIndex: number, blockIndex: number): string {
	return `message ${messageIndex + 1}, block ${blockIndex + 1}`;
}

function modelName(model: Model<Api>): string {
	return `${model.provider}/${model.id}`;
}

/** Why the model cannot be sent this file, or undefined when it can. */
export function fileProblem(file: FileContent, model: Model<Api>): string | undefined {
	// A block built by hand may miss a field (validateContext reports these for untrusted input).
	if (typeof file.mimeType !== "string") return 'a file block needs a mimeType such as "application/pdf"';
	if ((typeof file.data === "string") === (typeof file.url === "string")) {
		return "a file block needs exactly one of data (base64) and url";
	}
	const name = fileNameOf(file);
	const support = fileSupportOf(model.api);
	if (isPdfFile(file)) {
		if (!model.input.includes("pdf")) {
			return `${modelName(model)} does not read PDF files ("${name}"): choose a model whose input includes "pdf", or extract the document's text and send that`;
		}
		if (file.url !== undefined && !support.fileUrls) {
			return `the ${model.api} API cannot fetch a PDF from a URL ("${name}"): download it and pass its bytes as data (base64)`;
		}
		return undefined;
	}
	if (isTextFile(file)) {
		if (file.data === undefined && !support.textUrls) {
			return `the ${model.api} API cannot fetch a text file from a URL ("${name}"): download it and pass its bytes as data (base64)`;
		}
		return undefined;
	}
	const format = documentFormatOf(file);
	if (format === undefined) {
		return `"${name}" is ${file.mimeType}, which no API takes as a file: convert it to PDF or text first`;
	}
	const kind = documentKindName(format);
	if (!support.documents.includes(format)) {
		const others = apisTakingDocument(format);
		const instead = others.length > 0 ? `, or use an API that takes it (${others.join(", ")})` : "";
		return `"${name}" is ${kind}, which the ${model.api} API does not take: convert it to PDF or extract its text${instead}`;
	}
	if (!model.input.includes("pdf")) {
		return `${modelName(model)} does not read documents ("${name}" is ${kind}): choose a model whose input includes "pdf", or extract the document's text and send that`;
	}
	if (file.url !== undefined && !support.fileUrls) {
		return `the ${model.api} API cannot fetch a document from a URL ("${name}"): download it and pass its bytes as data (base64)`;
	}
	return undefined;
}

/** Why the model cannot be sent this audio, or undefined when it can. */
export function audioProblem(audio: AudioContent, model: Model<Api>): string | undefined {
	if (typeof audio.mimeType !== "string" || typeof audio.data !== "string") {
		return 'an audio block needs data (base64) and a mimeType such as "audio/wav"';
	}
	const formats = fileSupportOf(model.api).audio;
	if (formats === "none") {
		return `the ${model.api} API takes no audio (${modelName(model)}): choose a model whose input includes "audio" on an API that carries it (OpenAI Chat Completions, Gemini, Mistral), or send a transcript`;
	}
	if (!model.input.includes("audio")) {
		return `${modelName(model)} does not read audio: choose a model whose input includes "audio", or send a transcript`;
	}
	const format = audioFormatOf(audio);
	if (formats !== "any" && (format === undefined || !formats.includes(format))) {
		return `the ${model.api} API takes ${formats.join(" and ")} audio, got ${audio.mimeType}: convert the audio first`;
	}
	return undefined;
}

/** Why a user content block cannot go to the model, or undefined (text and images always can). */
export function blockProblem(block: { type: string }, model: Model<Api>): string | undefined {
	if (block.type === "file") return fileProblem(block as FileContent, model);
	if (block.type === "audio") return audioProblem(block as AudioContent, model);
	return undefined;
}

/**
 * The index where the turn being asked about starts: just after the last assistant message that
 * completed (an errored or aborted one is dropped before sending, so its prompt is still current).
 */
export function currentTurnStart(messages: readonly Message[]): number {
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index];
		if (message.role === "assistant" && message.stopReason !== "error" && message.stopReason !== "aborted") {
			return index + 1;
		}
	}
	return 0;
}

/**
 * The first file or audio block of the current turn the model cannot take, as an error message
 * naming the model, the block and what to do; then the first provider limit (size, count, pages)
 * the request's files break (input-limits.ts); undefined when every block can go. A tool result's
 * file the model cannot take is not a problem: it becomes a note (see transformMessages), so the
 * agent reads why and goes on.
 */
export function findInputProblem(model: Model<Api>, context: Context): string | undefined {
	const messages = Array.isArray(context?.messages) ? context.messages : [];
	const turnStart = currentTurnStart(messages);
	for (let index = turnStart; index < messages.length; index++) {
		const message = messages[index];
		if (message?.role !== "user" || !Array.isArray(message.content)) continue;
		for (let blockIndex = 0; blockIndex < message.content.length; blockIndex++) {
			const block = message.content[blockIndex];
			const problem = block && typeof block === "object" ? blockProblem(block, model) : undefined;
			if (problem) return `Cannot send ${block.type} (${place(index, blockIndex)}): ${problem}.`;
		}
	}
	return limitProblem(model, sentBlocks(messages, model));
}

/** The file and image blocks the request will carry: those not replaced by a note. */
function sentBlocks(messages: readonly Message[], model: Model<Api>): SentBlock[] {
	const sent: SentBlock[] = [];
	const images = model.input.includes("image");
	messages.forEach((message, messageIndex) => {
		if ((message?.role !== "user" && message?.role !== "toolResult") || !Array.isArray(message.content)) return;
		message.content.forEach((block, blockIndex) => {
			if (block?.type === "image" && images && typeof block.data === "string") {
				sent.push({ block, messageIndex, blockIndex });
			} else if (block?.type === "file" && fileProblem(block, model) === undefined) {
				sent.push({ block, messageIndex, blockIndex });
			}
		});
	});
	return sent;
}

/** Put in place of a file or audio block of an earlier turn that the model cannot take. */
export function omittedBlockNote(block: FileContent | AudioContent): string {
	if (block.type === "audio") return "(audio omitted: this model does not accept it)";
	return `(file "${fileNameOf(block)}" omitted: this model does not accept it)`;
}

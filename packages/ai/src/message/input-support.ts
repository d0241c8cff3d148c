// Which file and audio blocks a model can be sent, decided once for every API. A block the model
// cannot read in the turn being asked about is an error before any request (silently dropping the
// file the user is asking about would get a confident wrong answer); in earlier turns, after a
// switch of model, transformMessages puts a visible note in its place (see omittedBlockNote).
import type { Api, AudioContent, Context, FileContent, Message, Model } from "../types.js";
import { audioFormatOf, fileNameOf, isPdfFile, isTextFile } from "./file-content.js";

/**
 * Built-in APIs that cannot fetch a PDF from a URL: Chat Completions takes only inline data or
 * uploaded file ids (https://platform.openai.com/docs/guides/pdf-files), Bedrock Converse only
 * bytes or S3 locations (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_DocumentSource.html).
 * The others do: Anthropic `document` url sources, Responses `input_file.file_url`, Gemini
 * `fileData`, Mistral `document_url` (https://docs.mistral.ai/capabilities/OCR/document_understanding). An API Keel does not know is trusted with the URL.
 */
const NO_FILE_URL_APIS: ReadonlySet<string> = new Set(["openai-completions", "bedrock-converse-stream"]);

/** Built-in APIs that read a text file given by URL themselves (Gemini's `fileData`). */
const TEXT_URL_APIS: ReadonlySet<string> = new Set(["google-generative-ai", "google-vertex"]);

/**
 * Built-in APIs without an audio input part: Anthropic Messages, the Responses API family and
 * Bedrock Converse. Chat Completions (`input_audio`, https://platform.openai.com/docs/guides/audio),
 * Gemini (`inlineData`, https://ai.google.dev/gemini-api/docs/audio) and Mistral (`input_audio`,
 * https://docs.mistral.ai/capabilities/audio/) carry it; an API Keel does not know goes by the
 * model's flag alone.
 */
const NO_AUDIO_APIS: ReadonlySet<string> = new Set([
	"anthropic-messages",
	"openai-responses",
	"azure-openai-responses",
	"openai-codex-responses",
	"bedrock-converse-stream",
]);

/** The built-in APIs, whose encoders handle text files given as data only (except TEXT_URL_APIS). */
const BUILT_IN_APIS: ReadonlySet<string> = new Set([
	...NO_AUDIO_APIS,
	"openai-completions",
	"google-generative-ai",
	"google-vertex",
	"mistral-conversations",
]);

/** Audio formats per API; an API not listed takes any audio/* type. */
const AUDIO_FORMATS: Readonly<Record<string, readonly string[]>> = {
	// https://platform.openai.com/docs/api-reference/chat/create (input_audio.format: wav, mp3)
	"openai-completions": ["wav", "mp3"],
};

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
	if (isPdfFile(file)) {
		if (!model.input.includes("pdf")) {
			return `${modelName(model)} does not read PDF files ("${name}"): choose a model whose input includes "pdf", or extract the document's text and send that`;
		}
		if (file.url !== undefined && NO_FILE_URL_APIS.has(model.api)) {
			return `the ${model.api} API cannot fetch a PDF from a URL ("${name}"): download it and pass its bytes as data (base64)`;
		}
		return undefined;
	}
	if (isTextFile(file)) {
		if (file.data === undefined && BUILT_IN_APIS.has(model.api) && !TEXT_URL_APIS.has(model.api)) {
			return `the ${model.api} API cannot fetch a text file from a URL ("${name}"): download it and pass its bytes as data (base64)`;
		}
		return undefined;
	}
	return `"${name}" is ${file.mimeType}, and file blocks take PDFs and text files only: convert it to PDF or text first`;
}

/** Why the model cannot be sent this audio, or undefined when it can. */
export function audioProblem(audio: AudioContent, model: Model<Api>): string | undefined {
	if (typeof audio.mimeType !== "string" || typeof audio.data !== "string") {
		return 'an audio block needs data (base64) and a mimeType such as "audio/wav"';
	}
	if (NO_AUDIO_APIS.has(model.api)) {
		return `the ${model.api} API takes no audio (${modelName(model)}): choose a model whose input includes "audio" on an API that carries it (OpenAI Chat Completions, Gemini, Mistral), or send a transcript`;
	}
	if (!model.input.includes("audio")) {
		return `${modelName(model)} does not read audio: choose a model whose input includes "audio", or send a transcript`;
	}
	const formats = AUDIO_FORMATS[model.api];
	const format = audioFormatOf(audio);
	if (formats && (format === undefined || !formats.includes(format))) {
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
 * naming the model, the block and what to do; undefined when every block can go.
 */
export function findInputProblem(model: Model<Api>, context: Context): string | undefined {
	const messages = Array.isArray(context?.messages) ? context.messages : [];
	for (let index = currentTurnStart(messages); index < messages.length; index++) {
		const message = messages[index];
		if (message?.role !== "user" || !Array.isArray(message.content)) continue;
		for (let blockIndex = 0; blockIndex < message.content.length; blockIndex++) {
			const block = message.content[blockIndex];
			const problem = block && typeof block === "object" ? blockProblem(block, model) : undefined;
			if (problem) return `Cannot send ${block.type} (${place(index, blockIndex)}): ${problem}.`;
		}
	}
	return undefined;
}

/** Put in place of a file or audio block of an earlier turn that the model cannot take. */
export function omittedBlockNote(block: FileContent | AudioContent): string {
	if (block.type === "audio") return "(audio omitted: this model does not accept it)";
	return `(file "${fileNameOf(block)}" omitted: this model does not accept it)`;
}

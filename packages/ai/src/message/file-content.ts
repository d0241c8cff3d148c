// Rules every encoder shares for file and audio blocks: which files are PDFs and which are text,
// the name a file goes by, and how a text file reads as plain text on an API without a text
// document block. The wire shapes differ per API (see each provider's encode-messages.ts); these
// decisions must not. Pure and Node-free: it runs in browsers and Workers.
import type { AudioContent, FileContent, TextContent } from "../types.js";

export const PDF_MIME_TYPE = "application/pdf";

/** Media types outside text/* that are text all the same (sent as text like text/plain). */
const TEXT_LIKE_MIME_TYPES = new Set([
	"application/json",
	"application/xml",
	"application/yaml",
	"application/x-yaml",
	"application/javascript",
	"application/typescript",
	"application/x-sh",
	"application/sql",
]);

/** The media type without parameters (`text/plain; charset=utf-8` → `text/plain`), lower-cased. */
export function baseMimeType(mimeType: string): string {
	return mimeType.split(";")[0].trim().toLowerCase();
}

export function isPdfFile(file: FileContent): boolean {
	return baseMimeType(file.mimeType) === PDF_MIME_TYPE;
}

/**
 * Office and other binary document formats, by media type, under the short names the APIs use
 * (Bedrock's DocumentBlock `format`). Which API takes which is data in file-support.ts.
 */
export type DocumentFormat = "doc" | "docx" | "xls" | "xlsx" | "ppt" | "pptx" | "rtf" | "odt";

const DOCUMENT_MIME_TYPES: Readonly<Record<string, DocumentFormat>> = {
	"application/msword": "doc",
	"application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
	"application/vnd.ms-excel": "xls",
	"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
	"application/vnd.ms-powerpoint": "ppt",
	"application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
	"application/rtf": "rtf",
	"application/vnd.oasis.opendocument.text": "odt",
};

/** The file's document format (Word, Excel, PowerPoint, RTF, OpenDocument text), or undefined. */
export function documentFormatOf(file: FileContent): DocumentFormat | undefined {
	return DOCUMENT_MIME_TYPES[baseMimeType(file.mimeType)];
}

/** What a document format is called in an error message ("a Word document"). */
export function documentKindName(format: DocumentFormat): string {
	if (format === "doc" || format === "docx") return "a Word document";
	if (format === "xls" || format === "xlsx") return "an Excel spreadsheet";
	if (format === "ppt" || format === "pptx") return "a PowerPoint presentation";
	return format === "rtf" ? "an RTF document" : "an OpenDocument text";
}

export function isTextFile(file: FileContent): boolean {
	const type = baseMimeType(file.mimeType);
	return type.startsWith("text/") || TEXT_LIKE_MIME_TYPES.has(type) || type.endsWith("+json") || type.endsWith("+xml");
}

/** The file's name, or a made-up one from its type (several APIs require a name). */
export function fileNameOf(file: FileContent): string {
	if (file.filename && file.filename.trim() !== "") return file.filename;
	if (isPdfFile(file)) return "document.pdf";
	const type = baseMimeType(file.mimeType);
	if (type === "text/markdown") return "document.md";
	if (type === "text/csv") return "document.csv";
	if (type === "text/html") return "document.html";
	if (type === "application/json") return "document.json";
	const format = documentFormatOf(file);
	if (format) return `document.${format}`;
	return "document.txt";
}

/** A file's bytes as a `data:` URL (the OpenAI and Mistral APIs take inline files this way). */
export function fileDataUrl(file: FileContent & { data: string }): string {
	return `data:${baseMimeType(file.mimeType)};base64,${file.data}`;
}

/** An audio block as a `data:` URL. */
export function audioDataUrl(audio: AudioContent): string {
	return `data:${baseMimeType(audio.mimeType)};base64,${audio.data}`;
}

/** Decodes base64 to a string of one character per byte, with the web platform's `atob` (Node ≥ 16, browsers, Workers). */
export function base64ToBinaryString(data: string): string {
	return atob(data);
}

/** How many bytes base64 data decodes to, without decoding it. */
export function base64ByteLength(data: string): number {
	let length = data.length;
	while (length > 0 && data.charCodeAt(length - 1) === 61 /* "=" */) length--;
	return Math.floor((length * 3) / 4);
}

/** Decodes base64 to bytes. */
export function base64ToBytes(data: string): Uint8Array {
	const binary = base64ToBinaryString(data);
	const bytes = new Uint8Array(binary.length);
	for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
	return bytes;
}

/** A text file's content as a string (UTF-8; invalid bytes become U+FFFD rather than failing). */
export function decodeTextFile(file: FileContent): string {
	if (file.data === undefined) {
		throw new Error(
			`The text file "${fileNameOf(file)}" is given by URL, which this API cannot read; pass its content as data (base64) instead`,
		);
	}
	return new TextDecoder("utf-8").decode(base64ToBytes(file.data));
}

/**
 * A text file as a text block for APIs without a text document block: the content wrapped in a
 * `<file name="…">` tag, so the model sees where the file starts and ends and what it is called.
 */
export function textFileAsText(file: FileContent): TextContent {
	return { type: "text", text: `<file name="${fileNameOf(file)}">\n${decodeTextFile(file)}\n</file>` };
}

/** An audio media type's short format name (`audio/mpeg` → "mp3", `audio/x-wav` → "wav"), or undefined. */
export function audioFormatOf(audio: AudioContent): string | undefined {
	const type = baseMimeType(audio.mimeType);
	const formats: Record<string, string> = {
		"audio/wav": "wav",
		"audio/x-wav": "wav",
		"audio/wave": "wav",
		"audio/vnd.wave": "wav",
		"audio/mpeg": "mp3",
		"audio/mp3": "mp3",
		"audio/flac": "flac",
		"audio/x-flac": "flac",
		"audio/ogg": "ogg",
		"audio/opus": "opus",
		"audio/aac": "aac",
		"audio/mp4": "m4a",
		"audio/x-m4a": "m4a",
		"audio/webm": "webm",
	};
	return formats[type];
}

// What each built-in API takes of file and audio blocks, as data: one row per API, read by the
// checks before the call (input-support.ts) and by docs/files.md's wire table. The encoders turn
// what a row allows into the API's own shapes; anything a row does not allow is refused before
// any request with an error naming the block and what to do.
import type { DocumentFormat } from "./file-content.js";

export interface ApiFileSupport {
	/**
	 * Document formats besides PDF and text that the API takes as files itself. Sent natively, they
	 * need "pdf" (document input) in the model's `input`, like PDFs.
	 */
	documents: readonly DocumentFormat[];
	/** Whether the API fetches a PDF or document given by URL (or a provider file reference). */
	fileUrls: boolean;
	/** Whether the API fetches a text file given by URL; otherwise the encoder needs its bytes. */
	textUrls: boolean;
	/** Audio the API carries: none, any audio/* type, or these formats only (`audioFormatOf` names). */
	audio: "none" | "any" | readonly string[];
}

// Responses `input_file` takes rich documents, presentations and spreadsheets besides PDFs; the API
// extracts their text (https://developers.openai.com/api/docs/guides/file-inputs, "Accepted file
// types"). Chat Completions' `file` part takes PDFs only (same page).
const OPENAI_RESPONSES_DOCUMENTS: readonly DocumentFormat[] = [
	"doc",
	"docx",
	"rtf",
	"odt",
	"ppt",
	"pptx",
	"xls",
	"xlsx",
];

const RESPONSES: ApiFileSupport = {
	documents: OPENAI_RESPONSES_DOCUMENTS,
	// `input_file.file_url` (https://developers.openai.com/api/docs/guides/file-inputs).
	fileUrls: true,
	textUrls: false,
	// No audio input part in the Responses API.
	audio: "none",
};

const GEMINI: ApiFileSupport = {
	// Gemini reads PDFs and text types as documents; Word, Excel and PowerPoint are not among its
	// document MIME types (https://ai.google.dev/gemini-api/docs/document-processing).
	documents: [],
	// `fileData.fileUri` takes Files API URIs, gs:// and https URLs.
	fileUrls: true,
	textUrls: true,
	// `inlineData` audio (https://ai.google.dev/gemini-api/docs/audio).
	audio: "any",
};

/** The built-in APIs' rows. */
export const API_FILE_SUPPORT: Readonly<Record<string, ApiFileSupport>> = {
	// `document` blocks hold PDFs (base64 or url source) and plain text only; other formats must be
	// converted (https://docs.claude.com/en/docs/build-with-claude/pdf-support). No audio input.
	"anthropic-messages": { documents: [], fileUrls: true, textUrls: false, audio: "none" },
	"openai-responses": RESPONSES,
	"azure-openai-responses": RESPONSES,
	"openai-codex-responses": RESPONSES,
	// `file` parts take inline PDFs or uploaded file ids, no URLs; `input_audio` takes wav and mp3
	// (https://platform.openai.com/docs/api-reference/chat/create).
	"openai-completions": { documents: [], fileUrls: false, textUrls: false, audio: ["wav", "mp3"] },
	"google-generative-ai": GEMINI,
	"google-vertex": GEMINI,
	// `document_url` chunks take PDFs by URL or data: URL
	// (https://docs.mistral.ai/capabilities/document_ai/document_qna); `input_audio` chunks take audio
	// (https://docs.mistral.ai/capabilities/audio/).
	"mistral-conversations": { documents: [], fileUrls: true, textUrls: false, audio: "any" },
	// DocumentBlock formats: pdf | csv | doc | docx | xls | xlsx | html | txt | md, as bytes or an S3
	// location, no URLs (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_DocumentBlock.html).
	// No audio content block.
	"bedrock-converse-stream": {
		documents: ["doc", "docx", "xls", "xlsx"],
		fileUrls: false,
		textUrls: false,
		audio: "none",
	},
};

/**
 * An API Keel does not know (a custom provider): trusted with URLs and audio (the model's flags
 * decide), but sent no document formats, since no Keel encoder knows its shape for them.
 */
export const UNKNOWN_API_FILE_SUPPORT: ApiFileSupport = {
	documents: [],
	fileUrls: true,
	textUrls: true,
	audio: "any",
};

export function fileSupportOf(api: string): ApiFileSupport {
	return API_FILE_SUPPORT[api] ?? UNKNOWN_API_FILE_SUPPORT;
}

/** The built-in APIs that take a document format natively, for an error's "use … instead". */
export function apisTakingDocument(format: DocumentFormat): string[] {
	return Object.entries(API_FILE_SUPPORT)
		.filter(([, support]) => support.documents.includes(format))
		.map(([api]) => api);
}

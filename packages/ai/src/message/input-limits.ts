// The providers' documented size, count and page limits for files, checked before the call: a
// request over one fails at the provider after uploading megabytes, with an error that rarely
// names the file. Each limit here gives one error naming the limit and what to do instead. Sizes
// are checked for files given as data (a URL's size is unknown); pages with countPdfPages, a
// lower bound (see pdf-pages.ts). The numbers sit beside the public page that states them.
import type { Api, FileContent, ImageContent, Model } from "../types.js";
import { base64ByteLength, documentFormatOf, fileNameOf, isPdfFile } from "./file-content.js";
import { countPdfPages } from "./pdf-pages.js";

const MB = 1024 * 1024;

interface Limit {
	max: number;
	/** Where the provider states it, for the reader of this file. */
	source: string;
}

export interface ApiInputLimits {
	/** Base64 characters of all files and images in one request (a request size limit). */
	requestData?: Limit;
	/** Decoded bytes of one file given as data; `applies` narrows it to some files. */
	fileBytes?: Limit & { applies?: (file: FileContent) => boolean };
	/** Decoded bytes of all files given as data in one request. */
	filesBytes?: Limit;
	/** File blocks in one request. */
	filesPerRequest?: Limit;
	/** PDF pages in one request, all PDFs together. */
	pagesPerRequest?: Limit;
	/** PDF pages of one PDF. */
	pagesPerFile?: Limit;
}

const ANTHROPIC_PDF = "https://docs.claude.com/en/docs/build-with-claude/pdf-support";
const OPENAI_FILES = "https://developers.openai.com/api/docs/guides/file-inputs";
const GEMINI_INPUT = "https://ai.google.dev/gemini-api/docs/file-input-methods";
const GEMINI_DOCUMENTS = "https://ai.google.dev/gemini-api/docs/document-processing";
const VERTEX_DOCUMENTS = "https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/document-understanding";
const MISTRAL_OCR = "https://docs.mistral.ai/capabilities/document_ai/basic_ocr";
const BEDROCK_RESTRICTIONS = "https://docs.aws.amazon.com/bedrock/latest/userguide/inference-api-restrictions.html";

const OPENAI_LIMITS: ApiInputLimits = {
	// "File size limits": each file under 50 MB, and 50 MB of files in one request.
	fileBytes: { max: 50 * MB, source: OPENAI_FILES },
	filesBytes: { max: 50 * MB, source: OPENAI_FILES },
};

/** Claude on Bedrock from version 4 on, whose PDFs the 4.5 MB document limit does not bind. */
function isClaude4OrLater(modelId: string): boolean {
	const match = /claude-(?:[a-z]+-)?(\d+)/.exec(modelId);
	return match !== null && Number(match[1]) >= 4;
}

/** The limits that apply to this model's requests (none for an API Keel does not know). */
export function inputLimitsOf(model: Model<Api>): ApiInputLimits {
	switch (model.api) {
		case "anthropic-messages":
			return {
				// 32 MB per request, the whole payload; 100 pages per request. Models with a context
				// window over 200k tokens are given 600 pages, the larger limit Anthropic sets for them,
				// so the check never refuses what the API would take.
				requestData: { max: 32 * MB, source: ANTHROPIC_PDF },
				pagesPerRequest: { max: model.contextWindow > 200_000 ? 600 : 100, source: ANTHROPIC_PDF },
			};
		case "openai-responses":
		case "azure-openai-responses":
		case "openai-codex-responses":
		case "openai-completions":
			return OPENAI_LIMITS;
		case "google-generative-ai":
			return {
				// Inline data up to 100 MB per request, PDFs up to 50 MB; up to 1,000 pages per document.
				requestData: { max: 100 * MB, source: GEMINI_INPUT },
				fileBytes: { max: 50 * MB, source: GEMINI_INPUT, applies: isPdfFile },
				pagesPerFile: { max: 1000, source: GEMINI_DOCUMENTS },
			};
		case "google-vertex":
			// Up to 50 MB and 1,000 pages per PDF.
			return {
				fileBytes: { max: 50 * MB, source: VERTEX_DOCUMENTS, applies: isPdfFile },
				pagesPerFile: { max: 1000, source: VERTEX_DOCUMENTS },
			};
		case "mistral-conversations":
			// Documents up to 50 MB and 1,000 pages.
			return {
				fileBytes: { max: 50 * MB, source: MISTRAL_OCR, applies: isPdfFile },
				pagesPerFile: { max: 1000, source: MISTRAL_OCR },
			};
		case "bedrock-converse-stream": {
			// Up to 5 documents per request, each up to 4.5 MB, except PDFs for Claude 4 and later
			// and PDFs and DOCX for Nova; Claude takes up to 100 PDF pages per request.
			const claude = model.id.includes("anthropic.claude") || model.id.includes("claude-");
			const nova = model.id.includes("amazon.nova");
			const exempt = (file: FileContent) =>
				(isPdfFile(file) && ((claude && isClaude4OrLater(model.id)) || nova)) ||
				(nova && documentFormatOf(file) === "docx");
			return {
				filesPerRequest: { max: 5, source: BEDROCK_RESTRICTIONS },
				fileBytes: { max: 4.5 * MB, source: BEDROCK_RESTRICTIONS, applies: (file) => !exempt(file) },
				...(claude ? { pagesPerRequest: { max: 100, source: BEDROCK_RESTRICTIONS } } : {}),
			};
		}
		default:
			return {};
	}
}

/** A file or image the request will carry, with where it sits. */
export interface SentBlock {
	block: FileContent | ImageContent;
	messageIndex: number;
	blockIndex: number;
}

function megabytes(bytes: number): string {
	return `${(bytes / MB).toFixed(1).replace(/\.0$/, "")} MB`;
}

function place(sent: SentBlock): string {
	return `message ${sent.messageIndex + 1}, block ${sent.blockIndex + 1}`;
}

/**
 * The first limit the request's files break, as an error message naming the limit and what to do;
 * undefined when none does. `sent` lists the blocks the request will carry (input-support.ts
 * decides which).
 */
export function limitProblem(model: Model<Api>, sent: readonly SentBlock[]): string | undefined {
	const limits = inputLimitsOf(model);
	const api = `the ${model.api} API`;
	const files = sent.filter((item): item is SentBlock & { block: FileContent } => item.block.type === "file");
	const inline = files.filter((item) => typeof item.block.data === "string");

	if (limits.filesPerRequest && files.length > limits.filesPerRequest.max) {
		return `Cannot send this request: it holds ${files.length} files, and ${api} takes ${limits.filesPerRequest.max} per request: send fewer files, or start a conversation without the earlier ones.`;
	}
	const fileLimit = limits.fileBytes;
	if (fileLimit) {
		for (const item of inline) {
			if (fileLimit.applies && !fileLimit.applies(item.block)) continue;
			const bytes = base64ByteLength(item.block.data ?? "");
			if (bytes > fileLimit.max) {
				return `Cannot send file (${place(item)}): "${fileNameOf(item.block)}" is ${megabytes(bytes)}, and ${api} takes files up to ${megabytes(fileLimit.max)}: split or compress it, or send its text.`;
			}
		}
	}
	if (limits.filesBytes) {
		const total = inline.reduce((sum, item) => sum + base64ByteLength(item.block.data ?? ""), 0);
		if (total > limits.filesBytes.max) {
			return `Cannot send this request: its files come to ${megabytes(total)}, and ${api} takes ${megabytes(limits.filesBytes.max)} of files per request: send fewer or smaller files, or ask about them in separate calls.`;
		}
	}
	if (limits.requestData) {
		const total = sent.reduce((sum, item) => sum + (item.block.data?.length ?? 0), 0);
		if (total > limits.requestData.max) {
			return `Cannot send this request: its files and images come to ${megabytes(total)} as base64, and ${api} takes ${megabytes(limits.requestData.max)} per request: send fewer or smaller files, or ask about them in separate calls.`;
		}
	}
	if (limits.pagesPerFile || limits.pagesPerRequest) {
		let total = 0;
		for (const item of inline) {
			if (!isPdfFile(item.block)) continue;
			const pages = countPdfPages(item.block.data ?? "");
			if (limits.pagesPerFile && pages > limits.pagesPerFile.max) {
				return `Cannot send file (${place(item)}): "${fileNameOf(item.block)}" has ${pages} pages, and ${api} takes ${limits.pagesPerFile.max} pages per PDF: split it into smaller PDFs.`;
			}
			total += pages;
		}
		if (limits.pagesPerRequest && total > limits.pagesPerRequest.max) {
			return `Cannot send this request: its PDFs have ${total} pages, and ${model.provider}/${model.id} takes ${limits.pagesPerRequest.max} pages per request: split the PDFs and ask about the parts in separate calls.`;
		}
	}
	return undefined;
}

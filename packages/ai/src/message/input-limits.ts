// The providers' documented size, count and page limits for files, checked before the call: a
// request over one fails at the provider after uploading megabytes, with an error that rarely
// names the file. Each limit here gives one error naming the limit and what to do instead. Sizes
// are checked for files given as data (a URL's size is unknown); pages with countPdfPages, a
// lower bound (see pdf-pages.ts). The numbers sit beside the public page that states them (in
// comments: the URLs need not ship in every bundle).
import type { Api, FileContent, ImageContent, Model } from "../types.js";
import { base64ByteLength, documentFormatOf, fileNameOf, isPdfFile } from "./file-content.js";
import { countPdfPages } from "./pdf-pages.js";

const MB = 1024 * 1024;

export interface ApiInputLimits {
	/** Base64 characters of all files and images in one request (a request size limit). */
	requestData?: number;
	/** Decoded bytes of one file given as data; `applies` narrows it to some files. */
	fileBytes?: { max: number; applies?: (file: FileContent) => boolean };
	/** Decoded bytes of all files given as data in one request. */
	filesBytes?: number;
	/** File blocks in one request. */
	filesPerRequest?: number;
	/** PDF pages in one request, all PDFs together. */
	pagesPerRequest?: number;
	/** PDF pages of one PDF. */
	pagesPerFile?: number;
}

// https://developers.openai.com/api/docs/guides/file-inputs ("File size limits"): each file under
// 50 MB, and 50 MB of files in one request.
const OPENAI_LIMITS: ApiInputLimits = { fileBytes: { max: 50 * MB }, filesBytes: 50 * MB };

/** Claude on Bedrock from version 4 on, whose PDFs the 4.5 MB document limit does not bind. */
function isClaude4OrLater(modelId: string): boolean {
	const match = /claude-(?:[a-z]+-)?(\d+)/.exec(modelId);
	return match !== null && Number(match[1]) >= 4;
}

/** The limits that apply to this model's requests (none for an API Keel does not know). */
export function inputLimitsOf(model: Model<Api>): ApiInputLimits {
	switch (model.api) {
		case "anthropic-messages":
			// https://docs.claude.com/en/docs/build-with-claude/pdf-support: 32 MB per request, the
			// whole payload; 100 pages per request. Models with a context window over 200k tokens are
			// given 600 pages, the larger limit Anthropic sets for them, so the check never refuses
			// what the API would take.
			return { requestData: 32 * MB, pagesPerRequest: model.contextWindow > 200_000 ? 600 : 100 };
		case "openai-responses":
		case "azure-openai-responses":
		case "openai-codex-responses":
		case "openai-completions":
			return OPENAI_LIMITS;
		case "google-generative-ai":
			// https://ai.google.dev/gemini-api/docs/file-input-methods: inline data up to 100 MB per
			// request, PDFs up to 50 MB; https://ai.google.dev/gemini-api/docs/document-processing: up
			// to 1,000 pages per document.
			return { requestData: 100 * MB, fileBytes: { max: 50 * MB, applies: isPdfFile }, pagesPerFile: 1000 };
		case "google-vertex":
			// https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/document-understanding:
			// up to 50 MB and 1,000 pages per PDF.
			return { fileBytes: { max: 50 * MB, applies: isPdfFile }, pagesPerFile: 1000 };
		case "mistral-conversations":
			// https://docs.mistral.ai/capabilities/document_ai/basic_ocr: documents up to 50 MB and
			// 1,000 pages.
			return { fileBytes: { max: 50 * MB, applies: isPdfFile }, pagesPerFile: 1000 };
		case "bedrock-converse-stream": {
			// https://docs.aws.amazon.com/bedrock/latest/userguide/inference-api-restrictions.html: up
			// to 5 documents per request, each up to 4.5 MB, except PDFs for Claude 4 and later and
			// PDFs and DOCX for Nova; Claude takes up to 100 PDF pages per request.
			const claude = model.id.includes("anthropic.claude") || model.id.includes("claude-");
			const nova = model.id.includes("amazon.nova");
			const exempt = (file: FileContent) =>
				(isPdfFile(file) && ((claude && isClaude4OrLater(model.id)) || nova)) ||
				(nova && documentFormatOf(file) === "docx");
			return {
				filesPerRequest: 5,
				fileBytes: { max: 4.5 * MB, applies: (file) => !exempt(file) },
				pagesPerRequest: claude ? 100 : undefined,
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

	if (limits.filesPerRequest !== undefined && files.length > limits.filesPerRequest) {
		return `Cannot send this request: it holds ${files.length} files, and ${api} takes ${limits.filesPerRequest} per request: send fewer files, or start a conversation without the earlier ones.`;
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
	if (limits.filesBytes !== undefined) {
		const total = inline.reduce((sum, item) => sum + base64ByteLength(item.block.data ?? ""), 0);
		if (total > limits.filesBytes) {
			return `Cannot send this request: its files come to ${megabytes(total)}, and ${api} takes ${megabytes(limits.filesBytes)} of files per request: send fewer or smaller files, or ask about them in separate calls.`;
		}
	}
	if (limits.requestData !== undefined) {
		const total = sent.reduce((sum, item) => sum + (item.block.data?.length ?? 0), 0);
		if (total > limits.requestData) {
			return `Cannot send this request: its files and images come to ${megabytes(total)} as base64, and ${api} takes ${megabytes(limits.requestData)} per request: send fewer or smaller files, or ask about them in separate calls.`;
		}
	}
	const { pagesPerFile, pagesPerRequest } = limits;
	if (pagesPerFile !== undefined || pagesPerRequest !== undefined) {
		let total = 0;
		for (const item of inline) {
			if (!isPdfFile(item.block)) continue;
			const pages = countPdfPages(item.block.data ?? "");
			if (pagesPerFile !== undefined && pages > pagesPerFile) {
				return `Cannot send file (${place(item)}): "${fileNameOf(item.block)}" has ${pages} pages, and ${api} takes ${pagesPerFile} pages per PDF: split it into smaller PDFs.`;
			}
			total += pages;
		}
		if (pagesPerRequest !== undefined && total > pagesPerRequest) {
			return `Cannot send this request: its PDFs have ${total} pages, and ${model.provider}/${model.id} takes ${pagesPerRequest} pages per request: split the PDFs and ask about the parts in separate calls.`;
		}
	}
	return undefined;
}

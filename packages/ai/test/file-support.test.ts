// The per-API table of what file blocks go natively (file-support.ts), as contentBlockProblem reads
// it: each built-in API takes exactly its documented document formats, URLs where it fetches them,
// and an API Keel does not know is sent no document format.
import { describe, expect, it } from "vitest";
import { contentBlockProblem } from "../src/index.js";
import { API_FILE_SUPPORT } from "../src/message/file-support.js";
import type { Api, FileContent, Model } from "../src/types.js";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";

function model(api: Api): Model<Api> {
	return {
		id: "m",
		name: "M",
		api,
		provider: "p",
		baseUrl: "http://127.0.0.1:1",
		reasoning: false,
		input: ["text", "image", "pdf"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 100_000,
		maxTokens: 1000,
	};
}

const data = (mimeType: string, filename: string): FileContent => ({
	type: "file",
	mimeType,
	data: "UEsDBA==",
	filename,
});
const byUrl = (mimeType: string): FileContent => ({ type: "file", mimeType, url: "https://example.com/f" });

describe("which API takes which document format", () => {
	const takes = (api: Api, file: FileContent) => contentBlockProblem(file, model(api)) === undefined;

	it("the Responses family takes Word, Excel and PowerPoint as data and by URL", () => {
		for (const api of ["openai-responses", "azure-openai-responses", "openai-codex-responses"] as const) {
			expect([takes(api, data(DOCX, "a.docx")), takes(api, data(PPTX, "a.pptx")), takes(api, byUrl(XLSX))]).toEqual([
				true,
				true,
				true,
			]);
		}
	});

	it("Bedrock takes Word and Excel as bytes, refuses PowerPoint and any URL", () => {
		const bedrock = model("bedrock-converse-stream");
		expect(takes("bedrock-converse-stream", data(DOCX, "a.docx"))).toBe(true);
		expect(takes("bedrock-converse-stream", data(XLSX, "a.xlsx"))).toBe(true);
		expect(contentBlockProblem(data(PPTX, "deck.pptx"), bedrock)).toMatch(
			/"deck\.pptx" is a PowerPoint presentation, which the bedrock-converse-stream API does not take/,
		);
		expect(contentBlockProblem(byUrl(DOCX), bedrock)).toMatch(
			/cannot fetch a document from a URL \("document\.docx"\): download it and pass its bytes/,
		);
	});

	it("Anthropic, Chat Completions, Gemini, Vertex and Mistral take no office format", () => {
		for (const api of [
			"anthropic-messages",
			"openai-completions",
			"google-generative-ai",
			"google-vertex",
			"mistral-conversations",
		] as const) {
			expect(takes(api, data(DOCX, "a.docx")), api).toBe(false);
			expect(API_FILE_SUPPORT[api].documents).toEqual([]);
		}
	});

	it("an API Keel does not know is sent no office format, and told which APIs take it", () => {
		expect(contentBlockProblem(data(XLSX, "q3.xlsx"), model("my-api"))).toBe(
			'"q3.xlsx" is an Excel spreadsheet, which the my-api API does not take: convert it to PDF or extract its text, or use an API that takes it (openai-responses, azure-openai-responses, openai-codex-responses, bedrock-converse-stream)',
		);
	});

	it("a document without a name gets one from its format", () => {
		const unnamed: FileContent = { type: "file", mimeType: DOCX, data: "UEsDBA==" };
		expect(contentBlockProblem(unnamed, model("anthropic-messages"))).toMatch(/^"document\.docx" is a Word document/);
	});
});

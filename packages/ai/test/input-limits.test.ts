// The providers' file limits, checked before the call: each limit is one clear error naming the
// limit and what to do, found by findInputProblem and ending a call with one error event before
// any request. PDF pages are counted from the bytes (a lower bound, see pdf-pages.ts).
import { describe, expect, it } from "vitest";
import { findInputProblem } from "../src/index.js";
import { countPdfPages } from "../src/message/pdf-pages.js";
import { streamAnthropic } from "../src/providers/anthropic/index.js";
import type { Api, Context, FileContent, ImageContent, Model } from "../src/types.js";
import { assistantMessage, collectEvents, userMessage } from "./helpers/messages.js";
import { useWireTestServer } from "./helpers/wire-server.js";
import { claudeModel } from "./providers/anthropic/fixtures.js";
import { TEST_KEY } from "./providers/http/api-cases.js";

const MB = 1024 * 1024;

/** A PDF with `pages` page objects (and a /Pages tree, which is not a page), padded to `padding` bytes. */
function pdfBytes(pages: number, padding = 0): Buffer {
	let text = "%PDF-1.4\n2 0 obj\n<< /Type /Pages /Count 0 >>\nendobj\n";
	for (let page = 1; page <= pages; page++) text += `${page + 2} 0 obj\n<< /Type /Page /Parent 2 0 R >>\nendobj\n`;
	return Buffer.concat([Buffer.from(text), Buffer.alloc(padding, 0x20)]);
}

function pdf(pages: number, padding = 0, filename = "doc.pdf"): FileContent {
	return { type: "file", mimeType: "application/pdf", data: pdfBytes(pages, padding).toString("base64"), filename };
}

function model(api: Api, overrides: Partial<Model<Api>> = {}): Model<Api> {
	return {
		id: "test-model",
		name: "Test",
		api,
		provider: "test",
		baseUrl: "http://127.0.0.1:1",
		reasoning: false,
		input: ["text", "image", "pdf"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 200_000,
		maxTokens: 8192,
		...overrides,
	};
}

const ask = (...blocks: (FileContent | ImageContent)[]): Context => ({
	messages: [userMessage([{ type: "text", text: "Read" }, ...blocks])],
});

describe("countPdfPages", () => {
	it("counts /Type /Page objects and not the /Pages tree", () => {
		expect(countPdfPages(pdfBytes(3).toString("base64"))).toBe(3);
	});

	it("counts a page rewritten by an incremental update once, and reads /Type/Page without a space", () => {
		const text =
			"%PDF-1.7\n3 0 obj<</Type/Page>>endobj\n4 0 obj<</Type /Page>>endobj\n%%EOF\n3 0 obj<</Type/Page/Rotate 90>>endobj\n%%EOF\n";
		expect(countPdfPages(Buffer.from(text).toString("base64"))).toBe(2);
	});

	it("does not count names that merely start with Page", () => {
		const text = "%PDF-1.7\n5 0 obj<</Type /PageLabel>>endobj\n6 0 obj<</Type /Page>>endobj\n";
		expect(countPdfPages(Buffer.from(text).toString("base64"))).toBe(1);
	});
});

describe("provider limits found before the call", () => {
	it("Anthropic: more than 100 PDF pages per request, counted across PDFs", () => {
		const problem = findInputProblem(model("anthropic-messages"), ask(pdf(70), pdf(31)));
		expect(problem).toBe(
			"Cannot send this request: its PDFs have 101 pages, and test/test-model takes 100 pages per request: split the PDFs and ask about the parts in separate calls.",
		);
		expect(findInputProblem(model("anthropic-messages"), ask(pdf(70), pdf(30)))).toBeUndefined();
	});

	it("Anthropic: a model with a context window over 200k tokens takes 600 pages", () => {
		const large = model("anthropic-messages", { contextWindow: 1_000_000 });
		expect(findInputProblem(large, ask(pdf(600)))).toBeUndefined();
		expect(findInputProblem(large, ask(pdf(601)))).toMatch(/its PDFs have 601 pages, .* takes 600 pages per request/);
	});

	it("Anthropic: files and images over 32 MB of base64 per request, earlier turns included", () => {
		const image: ImageContent = { type: "image", mimeType: "image/png", data: "A".repeat(20 * MB) };
		const context: Context = {
			messages: [
				userMessage([{ type: "text", text: "Look" }, image]),
				assistantMessage({ api: "anthropic-messages", provider: "test", model: "test-model" }, [
					{ type: "text", text: "Seen." },
				]),
				userMessage([{ type: "text", text: "And this" }, pdf(1, 10 * MB)], 3),
			],
		};
		expect(findInputProblem(model("anthropic-messages"), context)).toMatch(
			/^Cannot send this request: its files and images come to 33\.\d MB as base64, and the anthropic-messages API takes 32 MB per request: send fewer or smaller files/,
		);
	});

	it("OpenAI: a file over 50 MB, and files over 50 MB together", () => {
		expect(findInputProblem(model("openai-responses"), ask(pdf(1, 51 * MB, "big.pdf")))).toMatch(
			/^Cannot send file \(message 1, block 2\): "big\.pdf" is 51 MB, and the openai-responses API takes files up to 50 MB/,
		);
		expect(findInputProblem(model("openai-completions"), ask(pdf(1, 30 * MB), pdf(1, 30 * MB)))).toMatch(
			/^Cannot send this request: its files come to 60 MB, and the openai-completions API takes 50 MB of files per request/,
		);
	});

	it("Gemini: a PDF over 1,000 pages, and an inline PDF over 50 MB", () => {
		expect(findInputProblem(model("google-generative-ai"), ask(pdf(1001, 0, "book.pdf")))).toBe(
			'Cannot send file (message 1, block 2): "book.pdf" has 1001 pages, and the google-generative-ai API takes 1000 pages per PDF: split it into smaller PDFs.',
		);
		expect(findInputProblem(model("google-vertex"), ask(pdf(1, 51 * MB)))).toMatch(/takes files up to 50 MB/);
	});

	it("Mistral: a PDF over 1,000 pages", () => {
		expect(findInputProblem(model("mistral-conversations"), ask(pdf(1001)))).toMatch(
			/has 1001 pages.*1000 pages per PDF/,
		);
	});

	it("a file replaced by a note (a model without PDF input, an earlier turn) counts toward no limit", () => {
		const context: Context = {
			messages: [
				userMessage([{ type: "text", text: "Read" }, pdf(200)]),
				assistantMessage({ api: "other", provider: "other", model: "other" }, [{ type: "text", text: "Read." }]),
				userMessage("Summarise", 3),
			],
		};
		expect(findInputProblem(model("anthropic-messages", { input: ["text"] }), context)).toBeUndefined();
	});

	it("an API Keel does not know has no limits", () => {
		expect(findInputProblem(model("my-api"), ask(pdf(5000, 200 * MB)))).toBeUndefined();
	});
});

describe("a limit ends the call before any request", () => {
	const wire = useWireTestServer();

	it("Anthropic: one error event naming the page limit, and no request", async () => {
		const events = await collectEvents(
			streamAnthropic(claudeModel({ baseUrl: wire.server.url, input: ["text", "pdf"] }), ask(pdf(101)), {
				apiKey: TEST_KEY,
			}),
		);
		const errors = events.filter((event) => (event as { type: string }).type === "error");
		expect(errors).toHaveLength(1);
		expect((errors[0] as { error: { errorMessage?: string } }).error.errorMessage).toMatch(
			/its PDFs have 101 pages, and anthropic\/.* takes 100 pages per request/,
		);
		expect(wire.server.requests).toHaveLength(0);
	});
});

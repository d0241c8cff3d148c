// Bedrock Converse `document` blocks: the bytes (base64 in the JSON body) with a format name and a
// name Converse accepts (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_DocumentBlock.html).
import { describe, expect, it } from "vitest";
import { encodeBedrockRequest, streamBedrock } from "../../../src/providers/bedrock-converse-stream/index.js";
import type { UserContent } from "../../../src/types.js";
import { userMessage } from "../../helpers/messages.js";
import { bedrockModel } from "./fixtures.js";

const PDF_BYTES = Buffer.from("%PDF-1.4\n%test\n");
const pdf = (filename?: string): UserContent => ({
	type: "file",
	mimeType: "application/pdf",
	data: PDF_BYTES.toString("base64"),
	filename,
});
const model = bedrockModel({ input: ["text", "image", "pdf"] });

describe("Bedrock document blocks", () => {
	it("sends a PDF as a pdf document of its bytes, and a markdown file as md", () => {
		const markdown: UserContent = {
			type: "file",
			mimeType: "text/markdown",
			data: Buffer.from("# Title").toString("base64"),
			filename: "readme.md",
		};
		const request = encodeBedrockRequest(model, {
			messages: [userMessage([{ type: "text", text: "Compare" }, pdf("Q3 report.pdf"), markdown])],
		});
		const [, document, notes] = request.messages?.[0].content ?? [];
		expect(document).toEqual({
			document: { format: "pdf", name: "Q3 report pdf", source: { bytes: PDF_BYTES.toString("base64") } },
		});
		expect(notes).toMatchObject({ document: { format: "md", name: "readme md" } });
	});

	it("keeps only the characters Converse allows in a name and makes repeated names distinct", () => {
		const request = encodeBedrockRequest(model, {
			messages: [userMessage([pdf("a__b..c  d!.pdf"), pdf("a__b..c  d!.pdf"), pdf()])],
		});
		const names = (request.messages?.[0].content ?? []).flatMap((block) =>
			"document" in block ? [block.document.name] : [],
		);
		expect(names).toEqual(["a b c d pdf", "a b c d pdf (2)", "document pdf"]);
		for (const name of names) expect(name).toMatch(/^[A-Za-z0-9\-()[\] ]+$/);
	});

	it("refuses audio before any request: Converse has no audio input", async () => {
		const audio: UserContent = { type: "audio", mimeType: "audio/wav", data: "UklGRg==" };
		const result = await streamBedrock(bedrockModel({ input: ["text", "audio"] }), {
			messages: [userMessage([audio])],
		}).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/bedrock-converse-stream API takes no audio/);
	});

	it("refuses a PDF URL before any request, saying to pass the bytes", async () => {
		const remote: UserContent = { type: "file", mimeType: "application/pdf", url: "https://example.com/a.pdf" };
		const result = await streamBedrock(model, { messages: [userMessage([remote])] }).result();
		expect(result.errorMessage).toMatch(/cannot fetch a PDF from a URL.*as data \(base64\)/);
	});
});

// Bedrock Converse documents on the wire, against the local Converse server: Word and Excel files
// as their own DocumentBlock formats, a tool's PDF as a document inside the toolResult, and the
// documented limits (5 documents per request, 4.5 MB per document except Claude 4's PDFs, 100 PDF
// pages per request for Claude), each one error before any request.
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_DocumentBlock.html
// https://docs.aws.amazon.com/bedrock/latest/userguide/inference-api-restrictions.html
import { describe, expect, it } from "vitest";
import { streamBedrock } from "../../../src/providers/bedrock-converse-stream/index.js";
import type { Context, ToolResultContent, UserContent } from "../../../src/types.js";
import { assistantMessage, toolResultMessage, userMessage } from "../../helpers/messages.js";
import { textFrames } from "./bedrock-test-server.js";
import { bedrockModel } from "./fixtures.js";
import { useBedrockServer } from "./server-setup.js";

const wire = useBedrockServer();

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const ZIP_DATA = Buffer.from("PK\u0003\u0004 office").toString("base64");
const PDF_DATA = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n").toString("base64");
const INPUT = ["text", "image", "pdf"] as const;

const file = (mimeType: string, data: string, filename: string): UserContent => ({
	type: "file",
	mimeType,
	data,
	filename,
});

/** A PDF of `pages` page objects, `padding` bytes long at least. */
function pdfOf(pages: number, padding = 0): string {
	let text = "%PDF-1.4\n";
	for (let page = 1; page <= pages; page++) text += `${page + 2} 0 obj\n<< /Type /Page /Parent 2 0 R >>\nendobj\n`;
	return Buffer.concat([Buffer.from(text), Buffer.alloc(padding, 0x20)]).toString("base64");
}

describe("Bedrock documents on the wire", () => {
	it("sends a Word document as docx and a spreadsheet as xlsx, with Converse-safe names", async () => {
		const server = await wire.start(() => ({ frames: textFrames("ok") }));
		const model = bedrockModel({ baseUrl: server.url, input: [...INPUT] });
		const context: Context = {
			messages: [
				userMessage([
					{ type: "text", text: "Compare" },
					file(DOCX_TYPE, ZIP_DATA, "letter.docx"),
					file(XLSX_TYPE, ZIP_DATA, "Q3 numbers.xlsx"),
				]),
			],
		};
		const result = await streamBedrock(model, context).result();
		expect(result.stopReason, result.errorMessage).toBe("stop");
		const body = server.requests[0].body as { messages: { content: unknown[] }[] };
		expect(body.messages[0].content.slice(1, 3)).toEqual([
			{ document: { format: "docx", name: "letter docx", source: { bytes: ZIP_DATA } } },
			{ document: { format: "xlsx", name: "Q3 numbers xlsx", source: { bytes: ZIP_DATA } } },
		]);
	});

	it("sends a tool's PDF as a document inside the toolResult", async () => {
		const server = await wire.start(() => ({ frames: textFrames("ok") }));
		const model = bedrockModel({ baseUrl: server.url, input: [...INPUT] });
		const pdf: ToolResultContent = {
			type: "file",
			mimeType: "application/pdf",
			data: PDF_DATA,
			filename: "invoice.pdf",
		};
		const context: Context = {
			// Converse needs the tools declared to take toolUse and toolResult blocks.
			tools: [{ name: "fetch", description: "Fetches a file", parameters: { type: "object", properties: {} } }],
			messages: [
				userMessage("Fetch it"),
				assistantMessage(
					{ api: "bedrock-converse-stream", provider: model.provider, model: model.id },
					[{ type: "toolCall", id: "tool1", name: "fetch", arguments: {} }],
					{ stopReason: "toolUse" },
				),
				toolResultMessage("tool1", [{ type: "text", text: "Fetched." }, pdf], { toolName: "fetch" }),
			],
		};
		const result = await streamBedrock(model, context).result();
		expect(result.stopReason, result.errorMessage).toBe("stop");
		const body = server.requests[0].body as { messages: { content: unknown[] }[] };
		// A cache point may follow: the result is the first block.
		expect(body.messages[2].content.slice(0, 1)).toEqual([
			{
				toolResult: {
					toolUseId: "tool1",
					status: "success",
					content: [
						{ text: "Fetched." },
						{ document: { format: "pdf", name: "invoice pdf", source: { bytes: PDF_DATA } } },
					],
				},
			},
		]);
	});
});

describe("Bedrock document limits, before any request", () => {
	/** The error of a call whose model points at a closed port: only a check before the call names a limit. */
	async function refusal(content: UserContent[], modelId?: string): Promise<string | undefined> {
		const model = bedrockModel({ input: [...INPUT], ...(modelId ? { id: modelId } : {}) });
		const result = await streamBedrock(model, { messages: [userMessage(content)] }).result();
		expect(result.stopReason).toBe("error");
		return result.errorMessage;
	}

	it("refuses a sixth document in one request", async () => {
		const six = Array.from({ length: 6 }, (_, index) => file("text/plain", "aGk=", `note ${index}.txt`));
		expect(await refusal(six)).toBe(
			"Cannot send this request: it holds 6 files, and the bedrock-converse-stream API takes 5 per request: send fewer files, or start a conversation without the earlier ones.",
		);
	});

	it("refuses a Word document over 4.5 MB, naming it", async () => {
		const big = Buffer.alloc(5 * 1024 * 1024, 0x20).toString("base64");
		expect(await refusal([file(DOCX_TYPE, big, "thesis.docx")])).toMatch(
			/^Cannot send file \(message 1, block 1\): "thesis\.docx" is 5 MB, and the bedrock-converse-stream API takes files up to 4\.5 MB: split or compress it/,
		);
	});

	it("refuses a 5 MB PDF for Claude 3.7 but not for Claude Sonnet 4, whose PDFs the size limit does not bind", async () => {
		const big = pdfOf(1, 5 * 1024 * 1024);
		expect(
			await refusal([file("application/pdf", big, "scan.pdf")], "anthropic.claude-3-7-sonnet-20250219-v1:0"),
		).toMatch(/"scan\.pdf" is 5 MB, and the bedrock-converse-stream API takes files up to 4\.5 MB/);
		const server = await wire.start(() => ({ frames: textFrames("ok") }));
		const claude4 = bedrockModel({ baseUrl: server.url, input: [...INPUT] });
		const result = await streamBedrock(claude4, {
			messages: [userMessage([{ type: "text", text: "Read" }, file("application/pdf", big, "scan.pdf")])],
		}).result();
		expect(result.stopReason, result.errorMessage).toBe("stop");
	});

	it("refuses PDFs of more than 100 pages together for Claude", async () => {
		const message = await refusal([
			file("application/pdf", pdfOf(60), "a.pdf"),
			file("application/pdf", pdfOf(41), "b.pdf"),
		]);
		expect(message).toBe(
			"Cannot send this request: its PDFs have 101 pages, and amazon-bedrock/anthropic.claude-sonnet-4-20250514-v1:0 takes 100 pages per request: split the PDFs and ask about the parts in separate calls.",
		);
	});
});

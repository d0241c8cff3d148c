// AI SDK file parts and Keel's file and audio blocks, both ways: a PDF, a text file and audio in an
// AI SDK prompt reach a Keel model as file and audio blocks, with the bytes unchanged; so does a
// file a tool returned, in the tool result.
import type { ToolResultMessage, UserMessage } from "@keel/ai";
import { type FauxProviderRegistration, registerFauxProvider } from "@keel/ai/testing";
import { keelLanguageModel } from "@keel/ai-sdk";
import { generateText, type ModelMessage } from "ai";
import { afterEach, beforeEach, expect, it } from "vitest";

let faux: FauxProviderRegistration;
beforeEach(() => {
	faux = registerFauxProvider({ models: [{ id: "faux-files", input: ["text", "image", "pdf", "audio"] }] });
});
afterEach(() => faux.unregister());

it("maps AI SDK file parts of PDFs, text and audio to Keel's file and audio blocks", async () => {
	faux.setResponses(["ok"]);
	const pdf = new Uint8Array(Buffer.from("%PDF-1.7\n"));
	const wav = new Uint8Array(Buffer.from("RIFF0000WAVE"));
	await generateText({
		model: keelLanguageModel(faux.getModel()),
		messages: [
			{
				role: "user",
				content: [
					{ type: "text", text: "Compare" },
					{ type: "file", data: pdf, mediaType: "application/pdf", filename: "a.pdf" },
					{ type: "file", data: new Uint8Array(Buffer.from("notes")), mediaType: "text/plain" },
					{ type: "file", data: wav, mediaType: "audio/wav" },
				],
			},
		],
	});
	const user = faux.state.requests[0].context.messages[0] as UserMessage;
	expect(user.content).toEqual([
		{ type: "text", text: "Compare" },
		{ type: "file", data: Buffer.from(pdf).toString("base64"), mimeType: "application/pdf", filename: "a.pdf" },
		{ type: "file", data: Buffer.from("notes").toString("base64"), mimeType: "text/plain" },
		{ type: "audio", data: Buffer.from(wav).toString("base64"), mimeType: "audio/wav" },
	]);
});

it("maps a user's Word document to a Keel file block, which Keel refuses by name for an API that takes none; a type with no Keel block is refused", async () => {
	faux.setResponses(["ok"]);
	const docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
	const bytes = new Uint8Array(Buffer.from("PK\u0003\u0004"));
	// The faux API takes no office documents: Keel's check names the file and what it is.
	await expect(
		generateText({
			model: keelLanguageModel(faux.getModel()),
			messages: [{ role: "user", content: [{ type: "file", data: bytes, mediaType: docx, filename: "plan.docx" }] }],
		}),
	).rejects.toThrow('"plan.docx" is a Word document, which the faux API does not take');
	await expect(
		generateText({
			model: keelLanguageModel(faux.getModel()),
			messages: [{ role: "user", content: [{ type: "file", data: bytes, mediaType: "application/zip" }] }],
		}),
	).rejects.toThrow("file parts of type application/zip");
	// Only the Word document reached Keel (the zip was refused before any call), as a file block.
	expect(faux.state.requests).toHaveLength(1);
	expect((faux.state.requests[0].context.messages[0] as UserMessage).content).toEqual([
		{ type: "file", data: Buffer.from(bytes).toString("base64"), mimeType: docx, filename: "plan.docx" },
	]);
});

/** A conversation where the tool `fetch_report` returned `value` as its content output. */
function afterToolReturned(value: unknown) {
	return [
		{ role: "user" as const, content: "Summarise the report" },
		{
			role: "assistant" as const,
			content: [{ type: "tool-call" as const, toolCallId: "call-1", toolName: "fetch_report", input: {} }],
		},
		{
			role: "tool" as const,
			content: [
				{
					type: "tool-result" as const,
					toolCallId: "call-1",
					toolName: "fetch_report",
					output: { type: "content" as const, value },
				},
			],
		},
	] as ModelMessage[];
}

it("maps a tool result's PDF and text file to Keel file blocks, and its image to an image", async () => {
	faux.setResponses(["ok"]);
	const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 251))]);
	const png = Buffer.from("\x89PNG").toString("base64");
	await generateText({
		model: keelLanguageModel(faux.getModel()),
		messages: afterToolReturned([
			{ type: "text", text: "The report:" },
			{ type: "file-data", data: pdf.toString("base64"), mediaType: "application/pdf", filename: "q3.pdf" },
			{ type: "file-data", data: Buffer.from("a,b\n").toString("base64"), mediaType: "text/csv" },
			{ type: "image-data", data: png, mediaType: "image/png" },
		]),
	});
	const result = faux.state.requests[0].context.messages[2] as ToolResultMessage;
	expect(result).toMatchObject({ role: "toolResult", toolCallId: "call-1", isError: false });
	expect(result.content).toEqual([
		{ type: "text", text: "The report:" },
		{ type: "file", mimeType: "application/pdf", data: pdf.toString("base64"), filename: "q3.pdf" },
		{ type: "file", mimeType: "text/csv", data: Buffer.from("a,b\n").toString("base64") },
		{ type: "image", data: png, mimeType: "image/png" },
	]);
	expect(Buffer.from((result.content[1] as { data: string }).data, "base64").equals(pdf)).toBe(true);
});

it("maps a tool result's file URL the prompt still holds to a Keel file block by URL", async () => {
	// generateText downloads URLs first (the model lists no supported URLs); a caller of the
	// LanguageModelV3 interface itself may pass one through.
	faux.setResponses(["ok"]);
	const model = keelLanguageModel(faux.getModel());
	await model.doGenerate({
		prompt: [
			{ role: "user", content: [{ type: "text", text: "Summarise the annex" }] },
			{
				role: "assistant",
				content: [{ type: "tool-call", toolCallId: "call-1", toolName: "fetch_annex", input: "{}" }],
			},
			{
				role: "tool",
				content: [
					{
						type: "tool-result",
						toolCallId: "call-1",
						toolName: "fetch_annex",
						output: {
							type: "content",
							value: [{ type: "file-url", url: "https://example.com/annex.pdf", mediaType: "application/pdf" }],
						},
					},
				],
			},
		],
	});
	const result = faux.state.requests[0].context.messages[2] as ToolResultMessage;
	expect(result.content).toEqual([{ type: "file", mimeType: "application/pdf", url: "https://example.com/annex.pdf" }]);
});

it("refuses a tool result's audio with an error naming it (a Keel tool result holds no audio)", async () => {
	faux.setResponses(["ok"]);
	await expect(
		generateText({
			model: keelLanguageModel(faux.getModel()),
			messages: afterToolReturned([
				{ type: "file-data", data: Buffer.from("RIFF").toString("base64"), mediaType: "audio/wav" },
			]),
		}),
	).rejects.toThrow("tool result parts of type file-data (audio/wav)");
	expect(faux.state.requests).toEqual([]);
});

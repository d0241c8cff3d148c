// AI SDK file parts and Keel's file and audio blocks, both ways: a PDF, a text file and audio in an
// AI SDK prompt reach a Keel model as file and audio blocks, with the bytes unchanged.
import type { UserMessage } from "@keel/ai";
import { type FauxProviderRegistration, registerFauxProvider } from "@keel/ai/testing";
import { keelLanguageModel } from "@keel/ai-sdk";
import { generateText } from "ai";
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

// Word, Excel and PowerPoint files: sent natively by the Responses API (input_file, whose text the
// API extracts), refused before any request by the APIs without such a document block, each
// refusal naming the file, its kind and what to do. Bedrock's documents are in
// bedrock-converse-stream/document-files.test.ts.
import { describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic/index.js";
import { streamGoogle } from "../../../src/providers/google-generative-ai/index.js";
import { streamMistral } from "../../../src/providers/mistral-conversations/index.js";
import { streamOpenAICompletions } from "../../../src/providers/openai-completions/index.js";
import { streamOpenAIResponses } from "../../../src/providers/openai-responses/index.js";
import type { UserContent } from "../../../src/types.js";
import { userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { claudeModel } from "../anthropic/fixtures.js";
import { geminiModel } from "../google-generative-ai/fixtures.js";
import { mistralModel } from "../mistral-conversations/fixtures.js";
import { serverModel } from "../openai-completions/fixtures.js";
import { completed, created, messageEvents, responsesModel, responsesSse } from "../openai-responses/fixtures.js";
import { TEST_KEY } from "./api-cases.js";

const wire = useWireTestServer();

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const PPTX_TYPE = "application/vnd.openxmlformats-officedocument.presentationml.presentation";
const ZIP_DATA = Buffer.from("PK\u0003\u0004 office document").toString("base64");
const letter: UserContent = { type: "file", mimeType: DOCX_TYPE, data: ZIP_DATA, filename: "letter.docx" };
const sheet: UserContent = { type: "file", mimeType: XLSX_TYPE, url: "https://example.com/q3.xlsx" };
const deck: UserContent = { type: "file", mimeType: PPTX_TYPE, data: ZIP_DATA, filename: "deck.pptx" };
const PDF_INPUT = ["text", "image", "pdf"] as const;

describe("office documents on the Responses API", () => {
	it("sends a Word document as input_file data with its name, and a spreadsheet URL as file_url", async () => {
		wire.server.enqueue({ body: responsesSse([created(), ...messageEvents(0, ["ok"]), completed()]) });
		const model = responsesModel({ baseUrl: wire.server.url, input: [...PDF_INPUT] });
		const result = await streamOpenAIResponses(
			model,
			{ messages: [userMessage([{ type: "text", text: "Compare" }, letter, sheet])] },
			{ apiKey: TEST_KEY },
		).result();
		expect(result.errorMessage).toBeUndefined();
		const input = (wire.server.lastRequest?.json as { input: { content: unknown[] }[] } | undefined)?.input ?? [];
		expect(input[0].content.slice(1)).toEqual([
			{ type: "input_file", file_data: `data:${DOCX_TYPE};base64,${ZIP_DATA}`, filename: "letter.docx" },
			{ type: "input_file", file_url: sheet.url },
		]);
	});

	it("refuses a Word document for a model without document input, before any request", async () => {
		const model = responsesModel({ baseUrl: wire.server.url, input: ["text", "image"] });
		const result = await streamOpenAIResponses(
			model,
			{ messages: [userMessage([letter])] },
			{ apiKey: TEST_KEY },
		).result();
		expect(result.errorMessage).toMatch(
			/does not read documents \("letter\.docx" is a Word document\).*input includes "pdf"/,
		);
		expect(wire.server.requests).toHaveLength(0);
	});
});

describe("office documents refused by APIs without a document block for them", () => {
	const cases = [
		{
			api: "anthropic-messages",
			run: (content: UserContent[]) =>
				streamAnthropic(claudeModel({ baseUrl: wire.server.url, input: [...PDF_INPUT] }), {
					messages: [userMessage(content)],
				}),
		},
		{
			api: "openai-completions",
			run: (content: UserContent[]) =>
				streamOpenAICompletions(serverModel(wire.server.url, { input: [...PDF_INPUT] }), {
					messages: [userMessage(content)],
				}),
		},
		{
			api: "google-generative-ai",
			run: (content: UserContent[]) =>
				streamGoogle(geminiModel({ baseUrl: `${wire.server.url}/v1beta`, input: [...PDF_INPUT] }), {
					messages: [userMessage(content)],
				}),
		},
		{
			api: "mistral-conversations",
			run: (content: UserContent[]) =>
				streamMistral(mistralModel({ baseUrl: wire.server.url, input: [...PDF_INPUT] }), {
					messages: [userMessage(content)],
				}),
		},
	];

	it.each(cases)("$api refuses a PowerPoint file, naming the APIs that take one", async ({ api, run }) => {
		const result = await run([{ type: "text", text: "Summarise" }, deck]).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe(
			`Cannot send file (message 1, block 2): "deck.pptx" is a PowerPoint presentation, which the ${api} API does not take: convert it to PDF or extract its text, or use an API that takes it (openai-responses, azure-openai-responses, openai-codex-responses).`,
		);
		expect(wire.server.requests).toHaveLength(0);
	});
});

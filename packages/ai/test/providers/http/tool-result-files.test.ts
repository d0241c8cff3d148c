// A file a tool returns (a PDF it fetched, a text file it read) on the wire: inside the tool result
// where the API takes it (Anthropic tool_result documents, Responses function_call_output items,
// Mistral tool chunks, Gemini 3 function response parts), in a user message after the results
// where it does not (Chat Completions tool messages hold text only, older Gemini models), and as
// a note for a model that cannot read it, without failing the call.
import { describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic/index.js";
import { streamGoogle } from "../../../src/providers/google-generative-ai/index.js";
import { streamMistral } from "../../../src/providers/mistral-conversations/index.js";
import { streamOpenAICompletions } from "../../../src/providers/openai-completions/index.js";
import { streamOpenAIResponses } from "../../../src/providers/openai-responses/index.js";
import type { Context, Model, ModelInput, StreamOptions, ToolResultContent } from "../../../src/types.js";
import type { AssistantMessageEventStream } from "../../../src/utils/event-stream.js";
import { assistantMessage, toolResultMessage, userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { anthropicSse, claudeModel, textResponseEvents } from "../anthropic/fixtures.js";
import { geminiModel, textAnswer } from "../google-generative-ai/fixtures.js";
import { mistralModel, mistralTextStream } from "../mistral-conversations/fixtures.js";
import { serverModel, textStream } from "../openai-completions/fixtures.js";
import { completed, created, messageEvents, responsesModel, responsesSse } from "../openai-responses/fixtures.js";
import { TEST_KEY } from "./api-cases.js";

const wire = useWireTestServer();

const PDF_DATA = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n").toString("base64");
const pdf: ToolResultContent = { type: "file", mimeType: "application/pdf", data: PDF_DATA, filename: "invoice.pdf" };
const notes: ToolResultContent = {
	type: "file",
	mimeType: "text/plain",
	data: Buffer.from("due: March").toString("base64"),
	filename: "notes.txt",
};
const NOTES_AS_TEXT = '<file name="notes.txt">\ndue: March\n</file>';
const PDF_INPUT: ModelInput[] = ["text", "image", "pdf"];

/** A question, the model's tool call (from another model, so ids are normalised), and the result. */
function toolContext(content: ToolResultContent[]): Context {
	return {
		messages: [
			userMessage("Fetch the invoice"),
			assistantMessage(
				{ api: "other", provider: "other", model: "other" },
				[{ type: "toolCall", id: "call1", name: "fetch", arguments: { id: 7 } }],
				{ stopReason: "toolUse" },
			),
			toolResultMessage("call1", content, { toolName: "fetch" }),
		],
	};
}

interface ToolFileCase {
	name: string;
	run(baseUrl: string, input: ModelInput[], context: Context, options: StreamOptions): AssistantMessageEventStream;
	okBody(): string;
	/** The request body's messages (or contents, or input items). */
	messages(json: Record<string, unknown>): unknown[];
	/** What follows the assistant's call: the result(s) and anything sent after them. */
	expected: unknown[];
}

const CASES: ToolFileCase[] = [
	{
		name: "anthropic-messages: a document block inside the tool_result",
		run: (baseUrl, input, context, options) => streamAnthropic(claudeModel({ baseUrl, input }), context, options),
		okBody: () => anthropicSse(textResponseEvents(["ok"])),
		messages: (json) => json.messages as unknown[],
		expected: [
			{
				role: "user",
				content: [
					{
						type: "tool_result",
						tool_use_id: "call1",
						content: [
							{ type: "text", text: "(see attached file)" },
							{
								type: "document",
								source: { type: "base64", media_type: "application/pdf", data: PDF_DATA },
								title: "invoice.pdf",
							},
							{
								type: "document",
								source: { type: "text", media_type: "text/plain", data: "due: March" },
								title: "notes.txt",
							},
						],
					},
				],
			},
		],
	},
	{
		name: "openai-responses: input_file and input_text items in the function_call_output",
		run: (baseUrl, input, context, options) =>
			streamOpenAIResponses(responsesModel({ baseUrl, input }), context, options),
		okBody: () => responsesSse([created(), ...messageEvents(0, ["ok"]), completed()]),
		messages: (json) => json.input as unknown[],
		expected: [
			{
				type: "function_call_output",
				call_id: "call1",
				output: [
					{ type: "input_text", text: "(see attached file)" },
					{ type: "input_file", file_data: `data:application/pdf;base64,${PDF_DATA}`, filename: "invoice.pdf" },
					{ type: "input_text", text: NOTES_AS_TEXT },
				],
			},
		],
	},
	{
		name: "openai-completions: the text file in the tool message, the PDF in a user message after it",
		run: (baseUrl, input, context, options) =>
			streamOpenAICompletions(serverModel(baseUrl, { input }), context, options),
		okBody: () => textStream("ok"),
		messages: (json) => json.messages as unknown[],
		expected: [
			{ role: "tool", tool_call_id: "call1", content: NOTES_AS_TEXT },
			{
				role: "user",
				content: [
					{ type: "text", text: "Attached file(s) from tool result:" },
					{ type: "file", file: { file_data: `data:application/pdf;base64,${PDF_DATA}`, filename: "invoice.pdf" } },
				],
			},
		],
	},
	{
		name: "mistral-conversations: text and document_url chunks in the tool message",
		run: (baseUrl, input, context, options) => streamMistral(mistralModel({ baseUrl, input }), context, options),
		okBody: () => mistralTextStream("ok"),
		messages: (json) => json.messages as unknown[],
		expected: [
			{
				role: "tool",
				name: "fetch",
				content: [
					{ type: "text", text: "(see attached file)" },
					{
						type: "document_url",
						document_url: `data:application/pdf;base64,${PDF_DATA}`,
						document_name: "invoice.pdf",
					},
					{ type: "text", text: NOTES_AS_TEXT },
				],
			},
		],
	},
	{
		name: "gemini 3: the PDF nested in the function response, the text file in its output",
		run: (baseUrl, input, context, options) =>
			streamGoogle(geminiModel({ id: "gemini-3-pro-preview", baseUrl: `${baseUrl}/v1beta`, input }), context, options),
		okBody: () => textAnswer(["ok"]),
		messages: (json) => json.contents as unknown[],
		expected: [
			{
				role: "user",
				parts: [
					{
						functionResponse: {
							name: "fetch",
							response: { output: NOTES_AS_TEXT },
							parts: [{ inlineData: { mimeType: "application/pdf", data: PDF_DATA } }],
						},
					},
				],
			},
		],
	},
	{
		name: "gemini 2.5: the PDF in a user turn after the function responses",
		run: (baseUrl, input, context, options) =>
			streamGoogle(geminiModel({ baseUrl: `${baseUrl}/v1beta`, input }), context, options),
		okBody: () => textAnswer(["ok"]),
		messages: (json) => json.contents as unknown[],
		expected: [
			{ role: "user", parts: [{ functionResponse: { name: "fetch", response: { output: NOTES_AS_TEXT } } }] },
			{
				role: "user",
				parts: [{ text: "Tool result file:" }, { inlineData: { mimeType: "application/pdf", data: PDF_DATA } }],
			},
		],
	},
];

async function sentAfterCall(api: ToolFileCase, input: ModelInput[]): Promise<unknown[]> {
	wire.server.enqueue({ body: api.okBody() });
	const result = await api.run(wire.server.url, input, toolContext([pdf, notes]), { apiKey: TEST_KEY }).result();
	expect(result.errorMessage).toBeUndefined();
	const messages = api.messages(wire.server.lastRequest?.json as Record<string, unknown>);
	// Everything after the assistant's call: for the APIs here, the last entries of the list.
	return messages.slice(messages.length - api.expected.length);
}

describe.each(CASES)("tool result files, $name", (api) => {
	it("sends the tool's PDF and text file in the API's shapes", async () => {
		const sent = await sentAfterCall(api, PDF_INPUT);
		expect(sent).toMatchObject(api.expected);
	});

	it("puts a note in place of the PDF for a model that cannot read PDFs, and still calls", async () => {
		wire.server.enqueue({ body: api.okBody() });
		const result = await api
			.run(wire.server.url, ["text"], toolContext([{ type: "text", text: "Here it is." }, pdf]), { apiKey: TEST_KEY })
			.result();
		expect(result.errorMessage).toBeUndefined();
		const body = JSON.stringify(wire.server.lastRequest?.json);
		expect(body).toContain('(file \\"invoice.pdf\\" omitted: this model does not accept it)');
		expect(body).not.toContain(PDF_DATA);
	});
});

describe("tool result files on Gemini 3, mixed", () => {
	it("nests the image and the inline PDF in the function response and sends a file URI in a user turn", async () => {
		wire.server.enqueue({ body: textAnswer(["ok"]) });
		const image: ToolResultContent = { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" };
		const uri = "https://generativelanguage.googleapis.com/v1beta/files/abc";
		const remote: ToolResultContent = { type: "file", mimeType: "application/pdf", url: uri };
		const model = geminiModel({ id: "gemini-3-pro-preview", baseUrl: `${wire.server.url}/v1beta`, input: PDF_INPUT });
		const result = await streamGoogle(model, toolContext([image, pdf, remote]), { apiKey: TEST_KEY }).result();
		expect(result.errorMessage).toBeUndefined();
		const contents = (wire.server.lastRequest?.json as { contents: unknown[] } | undefined)?.contents ?? [];
		expect(contents.slice(-2)).toEqual([
			{
				role: "user",
				parts: [
					{
						functionResponse: {
							name: "fetch",
							response: { output: "(see attached file)" },
							parts: [
								{ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } },
								{ inlineData: { mimeType: "application/pdf", data: PDF_DATA } },
							],
						},
					},
				],
			},
			{
				role: "user",
				parts: [{ text: "Tool result file:" }, { fileData: { mimeType: "application/pdf", fileUri: uri } }],
			},
		]);
	});
});

describe("tool result files over the limits", () => {
	it("a tool's PDF over the OpenAI per-file size is one error event before any request", async () => {
		const big = Buffer.alloc(51 * 1024 * 1024, 0x20);
		big.write("%PDF-1.4\n");
		const huge: ToolResultContent = { ...pdf, data: big.toString("base64") };
		const model: Model<"openai-responses"> = responsesModel({ baseUrl: wire.server.url, input: PDF_INPUT });
		const events: { type: string; error?: { errorMessage?: string } }[] = [];
		for await (const event of streamOpenAIResponses(model, toolContext([huge]), { apiKey: TEST_KEY })) {
			events.push(event as { type: string; error?: { errorMessage?: string } });
		}
		expect(events.map((event) => event.type)).toEqual(["start", "error"]);
		expect(events[1].error?.errorMessage).toMatch(
			/Cannot send file \(message 3, block 1\): "invoice\.pdf" is 51 MB, and the openai-responses API takes files up to 50 MB/,
		);
		expect(wire.server.requests).toHaveLength(0);
	});
});

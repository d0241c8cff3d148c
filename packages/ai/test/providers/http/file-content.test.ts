// File (PDF, text) and audio blocks on the wire: each HTTP API's request body carries the block in
// the shape its API reference documents, and a block the model cannot read is one error event
// before any request.
import { describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic/index.js";
import { streamGoogle } from "../../../src/providers/google-generative-ai/index.js";
import { streamGoogleVertex } from "../../../src/providers/google-vertex/index.js";
import { streamMistral } from "../../../src/providers/mistral-conversations/index.js";
import { streamOpenAICompletions } from "../../../src/providers/openai-completions/index.js";
import { streamOpenAIResponses } from "../../../src/providers/openai-responses/index.js";
import type { Context, Model, ModelInput, StreamOptions, UserContent } from "../../../src/types.js";
import type { AssistantMessageEventStream } from "../../../src/utils/event-stream.js";
import { assistantMessage, collectEvents, userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { anthropicSse, claudeModel, textResponseEvents } from "../anthropic/fixtures.js";
import { geminiModel, textAnswer, vertexModel } from "../google-generative-ai/fixtures.js";
import { mistralModel, mistralTextStream } from "../mistral-conversations/fixtures.js";
import { serverModel, textStream } from "../openai-completions/fixtures.js";
import { completed, created, messageEvents, responsesModel, responsesSse } from "../openai-responses/fixtures.js";
import { TEST_KEY } from "./api-cases.js";

const wire = useWireTestServer();

const PDF_DATA = Buffer.from("%PDF-1.4\n%test document\n").toString("base64");
const TEXT_DATA = Buffer.from("line one\nline two").toString("base64");
const WAV_DATA = Buffer.from("RIFF....WAVEfmt ").toString("base64");

const pdf: UserContent = { type: "file", mimeType: "application/pdf", data: PDF_DATA, filename: "report.pdf" };
const notes: UserContent = { type: "file", mimeType: "text/plain", data: TEXT_DATA, filename: "notes.txt" };
const audio: UserContent = { type: "audio", mimeType: "audio/wav", data: WAV_DATA };
const NOTES_AS_TEXT = '<file name="notes.txt">\nline one\nline two\n</file>';
const ALL_INPUT: ModelInput[] = ["text", "image", "pdf", "audio"];

interface FileCase {
	name: string;
	run(baseUrl: string, input: ModelInput[], context: Context, options: StreamOptions): AssistantMessageEventStream;
	okBody(): string;
	/** The user content of the first user message in the request body. */
	userContent(json: Record<string, unknown>): unknown;
	/** Whether the API carries audio (the rest refuse it before the call). */
	audio: boolean;
	expected: { pdf: unknown; notes: unknown; audio?: unknown };
}

const firstMessage = (key: string) => (json: Record<string, unknown>) =>
	(json[key] as { content?: unknown; parts?: unknown }[])[0].content ?? (json[key] as { parts?: unknown }[])[0].parts;

const CASES: FileCase[] = [
	{
		name: "anthropic-messages",
		run: (baseUrl, input, context, options) => streamAnthropic(claudeModel({ baseUrl, input }), context, options),
		okBody: () => anthropicSse(textResponseEvents(["ok"])),
		userContent: firstMessage("messages"),
		audio: false,
		expected: {
			// https://docs.claude.com/en/docs/build-with-claude/pdf-support
			pdf: {
				type: "document",
				source: { type: "base64", media_type: "application/pdf", data: PDF_DATA },
				title: "report.pdf",
			},
			notes: {
				type: "document",
				source: { type: "text", media_type: "text/plain", data: "line one\nline two" },
				title: "notes.txt",
			},
		},
	},
	{
		name: "openai-completions",
		run: (baseUrl, input, context, options) =>
			streamOpenAICompletions(serverModel(baseUrl, { input }), context, options),
		okBody: () => textStream("ok"),
		userContent: firstMessage("messages"),
		audio: true,
		expected: {
			pdf: { type: "file", file: { file_data: `data:application/pdf;base64,${PDF_DATA}`, filename: "report.pdf" } },
			notes: { type: "text", text: NOTES_AS_TEXT },
			audio: { type: "input_audio", input_audio: { data: WAV_DATA, format: "wav" } },
		},
	},
	{
		name: "openai-responses",
		run: (baseUrl, input, context, options) =>
			streamOpenAIResponses(responsesModel({ baseUrl, input }), context, options),
		okBody: () => responsesSse([created(), ...messageEvents(0, ["ok"]), completed()]),
		userContent: firstMessage("input"),
		audio: false,
		expected: {
			pdf: { type: "input_file", file_data: `data:application/pdf;base64,${PDF_DATA}`, filename: "report.pdf" },
			notes: { type: "input_text", text: NOTES_AS_TEXT },
		},
	},
	{
		name: "mistral-conversations",
		run: (baseUrl, input, context, options) => streamMistral(mistralModel({ baseUrl, input }), context, options),
		okBody: () => mistralTextStream("ok"),
		userContent: firstMessage("messages"),
		audio: true,
		expected: {
			pdf: {
				type: "document_url",
				document_url: `data:application/pdf;base64,${PDF_DATA}`,
				document_name: "report.pdf",
			},
			notes: { type: "text", text: NOTES_AS_TEXT },
			audio: { type: "input_audio", input_audio: WAV_DATA },
		},
	},
	{
		name: "google-generative-ai",
		run: (baseUrl, input, context, options) =>
			streamGoogle(geminiModel({ baseUrl: `${baseUrl}/v1beta`, input }), context, options),
		okBody: () => textAnswer(["ok"]),
		userContent: firstMessage("contents"),
		audio: true,
		expected: {
			pdf: { inlineData: { mimeType: "application/pdf", data: PDF_DATA } },
			notes: { text: NOTES_AS_TEXT },
			audio: { inlineData: { mimeType: "audio/wav", data: WAV_DATA } },
		},
	},
	{
		name: "google-vertex",
		run: (baseUrl, input, context, options) => streamGoogleVertex(vertexModel({ baseUrl, input }), context, options),
		okBody: () => textAnswer(["ok"]),
		userContent: firstMessage("contents"),
		audio: true,
		expected: {
			pdf: { inlineData: { mimeType: "application/pdf", data: PDF_DATA } },
			notes: { text: NOTES_AS_TEXT },
			audio: { inlineData: { mimeType: "audio/wav", data: WAV_DATA } },
		},
	},
];

async function sentContent(api: FileCase, content: UserContent[], input = ALL_INPUT): Promise<unknown[]> {
	wire.server.enqueue({ body: api.okBody() });
	const result = await api
		.run(wire.server.url, input, { messages: [userMessage(content)] }, { apiKey: TEST_KEY })
		.result();
	expect(result.errorMessage).toBeUndefined();
	const request = wire.server.lastRequest;
	if (!request) throw new Error("no request recorded");
	return api.userContent(request.json as Record<string, unknown>) as unknown[];
}

describe.each(CASES)("$name file blocks", (api) => {
	it("sends a PDF and a text file in the API's document shapes, after the prompt text", async () => {
		const content = await sentContent(api, [{ type: "text", text: "Summarise" }, pdf, notes]);
		expect(content.slice(1)).toEqual([api.expected.pdf, api.expected.notes]);
	});

	it("refuses a PDF for a model whose input lacks pdf with one error event and no request", async () => {
		const events = await collectEvents(
			api.run(wire.server.url, ["text", "image"], { messages: [userMessage([pdf])] }, { apiKey: TEST_KEY }),
		);
		const last = events[events.length - 1] as { type: string; error?: { errorMessage?: string } };
		expect(last.type).toBe("error");
		expect(last.error?.errorMessage).toMatch(/does not read PDF files \("report\.pdf"\).*input includes "pdf"/);
		expect(events.filter((event) => (event as { type: string }).type === "error")).toHaveLength(1);
		expect(wire.server.requests).toHaveLength(0);
	});

	it("replaces a PDF of an earlier turn with a note when the model cannot read it", async () => {
		wire.server.enqueue({ body: api.okBody() });
		const earlier = assistantMessage({ api: "other", provider: "other", model: "other" }, [
			{ type: "text", text: "Read it." },
		]);
		const context: Context = {
			messages: [userMessage([{ type: "text", text: "Read" }, pdf]), earlier, userMessage("And now?", 3)],
		};
		const result = await api.run(wire.server.url, ["text"], context, { apiKey: TEST_KEY }).result();
		expect(result.errorMessage).toBeUndefined();
		const body = JSON.stringify(wire.server.lastRequest?.json);
		expect(body).toContain('(file \\"report.pdf\\" omitted: this model does not accept it)');
		expect(body).not.toContain(PDF_DATA);
	});

	if (api.audio) {
		it("sends audio in the API's audio shape", async () => {
			const content = await sentContent(api, [{ type: "text", text: "Transcribe" }, audio]);
			expect(content[1]).toEqual(api.expected.audio);
		});
	} else {
		it("refuses audio before any request: the API has no audio input", async () => {
			const result = await api
				.run(wire.server.url, ALL_INPUT, { messages: [userMessage([audio])] }, { apiKey: TEST_KEY })
				.result();
			expect(result.stopReason).toBe("error");
			expect(result.errorMessage).toMatch(/API takes no audio/);
			expect(wire.server.requests).toHaveLength(0);
		});
	}
});

describe("file blocks given by URL", () => {
	const remote: UserContent = { type: "file", mimeType: "application/pdf", url: "https://example.com/paper.pdf" };

	it("Anthropic sends a PDF URL as a url document source", async () => {
		const content = await sentContent(CASES[0], [remote]);
		expect(content[0]).toEqual({ type: "document", source: { type: "url", url: remote.url }, title: "document.pdf" });
	});

	it("the Responses API sends a PDF URL as input_file file_url", async () => {
		const content = await sentContent(CASES[2], [remote]);
		expect(content[0]).toEqual({ type: "input_file", file_url: remote.url });
	});

	it("Gemini sends a file URI as fileData", async () => {
		const uri = "https://generativelanguage.googleapis.com/v1beta/files/abc123";
		const content = await sentContent(CASES[4], [{ type: "file", mimeType: "application/pdf", url: uri }]);
		expect(content[0]).toEqual({ fileData: { mimeType: "application/pdf", fileUri: uri } });
	});

	it("Chat Completions refuses a PDF URL before any request, saying to pass the bytes", async () => {
		const result = await CASES[1]
			.run(wire.server.url, ALL_INPUT, { messages: [userMessage([remote])] }, { apiKey: TEST_KEY })
			.result();
		expect(result.errorMessage).toMatch(/cannot fetch a PDF from a URL.*pass its bytes as data/);
		expect(wire.server.requests).toHaveLength(0);
	});
});

describe("unsupported files and audio formats", () => {
	it("Anthropic refuses a Word document, naming the APIs that take one", async () => {
		const docx: UserContent = {
			type: "file",
			mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
			data: "UEsDBA==",
			filename: "letter.docx",
		};
		const result = await CASES[0]
			.run(wire.server.url, ALL_INPUT, { messages: [userMessage([docx])] }, { apiKey: TEST_KEY })
			.result();
		expect(result.errorMessage).toMatch(
			/"letter\.docx" is a Word document, which the anthropic-messages API does not take: convert it to PDF or extract its text, or use an API that takes it \(openai-responses, .*bedrock-converse-stream\)/,
		);
		expect(wire.server.requests).toHaveLength(0);
	});

	it("refuses a file type no API takes, naming its media type", async () => {
		const zip: UserContent = { type: "file", mimeType: "application/zip", data: "UEsDBA==", filename: "a.zip" };
		const result = await CASES[2]
			.run(wire.server.url, ALL_INPUT, { messages: [userMessage([zip])] }, { apiKey: TEST_KEY })
			.result();
		expect(result.errorMessage).toMatch(/"a\.zip" is application\/zip, which no API takes as a file: convert it/);
		expect(wire.server.requests).toHaveLength(0);
	});

	it("Chat Completions refuses audio other than wav and mp3", async () => {
		const flac: UserContent = { type: "audio", mimeType: "audio/flac", data: WAV_DATA };
		const result = await CASES[1]
			.run(wire.server.url, ALL_INPUT, { messages: [userMessage([flac])] }, { apiKey: TEST_KEY })
			.result();
		expect(result.errorMessage).toMatch(/takes wav and mp3 audio, got audio\/flac/);
		expect(wire.server.requests).toHaveLength(0);
	});

	it("a model without the audio flag gets an error naming it, on an API that carries audio", async () => {
		const model: Model<"openai-completions"> = serverModel(wire.server.url, { input: ["text"] });
		const result = await streamOpenAICompletions(
			model,
			{ messages: [userMessage([audio])] },
			{ apiKey: TEST_KEY },
		).result();
		expect(result.errorMessage).toContain(`${model.provider}/${model.id} does not read audio`);
		expect(wire.server.requests).toHaveLength(0);
	});
});

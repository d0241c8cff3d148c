// --schema (JSON through completeObject), -a (files as content blocks) and -T (built-in tools with
// a confirmation unless --yes), through pipes against the wire-test server: what reaches the
// server, what is printed and logged, and the usage errors (exit 2) for a schema that does not
// parse and an attachment that is missing, too big, of a kind the model cannot read, or a URL
// without --allow-urls.
import { mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Api, getModels, getProviders, type Model } from "@keel/ai";
import { WireTestServer } from "@keel/ai/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chatCompletionsResponse } from "./helpers/chat-completions-stream.js";
import { createTemporaryHome, isolatedEnvironment, runKeel } from "./helpers/run-keel.js";

let server: WireTestServer;
beforeAll(async () => {
	server = await WireTestServer.start();
});
afterAll(async () => {
	await server.close();
});
beforeEach(() => server.reset());

interface ChatRequest {
	model: string;
	messages: { role: string; content: unknown; tool_call_id?: string }[];
	response_format?: { type: string; json_schema?: { schema: unknown } };
	tools?: { function: { name: string } }[];
}

const request = (index: number) => server.requests[index].json as ChatRequest;
const environment = () =>
	isolatedEnvironment(createTemporaryHome(), { KEEL_BASE_URL: server.url, KEEL_MODEL: "test-model" });

/** A 1×1 PNG. */
const PNG = Buffer.from(
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
	"base64",
);

function scratchFile(name: string, content: Uint8Array | string): string {
	const path = join(mkdtempSync(join(tmpdir(), "keel-cli-files-")), name);
	writeFileSync(path, content);
	return path;
}

describe("--schema", () => {
	it("the short form becomes a JSON Schema sent as the response format; the object is printed as JSON and logged", async () => {
		const env = environment();
		server.enqueue(chatCompletionsResponse({ text: ['{"name":"Ada",', '"age":36}'] }));
		const result = await runKeel(["--schema", "name str, age int: years", "Invent a person"], { env });
		expect(result.stderr).not.toContain("Error");
		expect(result.exitCode).toBe(0);
		expect(JSON.parse(result.stdout)).toEqual({ name: "Ada", age: 36 });
		const format = request(0).response_format!;
		expect(format.type).toBe("json_schema");
		expect(format.json_schema!.schema).toMatchObject({
			type: "object",
			properties: { name: { type: "string" }, age: { type: "integer", description: "years" } },
			required: ["name", "age"],
		});
		const logs = JSON.parse((await runKeel(["logs", "--json"], { env })).stdout) as {
			prompt: string;
			response: string;
		}[];
		expect(logs[0].prompt).toBe("Invent a person");
		expect(JSON.parse(logs[0].response)).toEqual({ name: "Ada", age: 36 });
	});

	it("takes a JSON Schema file", async () => {
		const schema = scratchFile(
			"schema.json",
			JSON.stringify({ type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] }),
		);
		server.enqueue(chatCompletionsResponse({ text: ['{"ok":true}'] }));
		const result = await runKeel(["--schema", schema, "Is it ok?"], { env: environment() });
		expect(result.exitCode).toBe(0);
		expect(JSON.parse(result.stdout)).toEqual({ ok: true });
	});

	it("a schema that does not parse exits 2 and says what a schema looks like", async () => {
		const env = environment();
		const badField = await runKeel(["--schema", "name string!, age", "x"], { env });
		expect(badField.exitCode).toBe(2);
		expect(badField.stderr).toContain('--schema: cannot read the field "name string!"');
		const badJson = await runKeel(["--schema", "{not json", "x"], { env });
		expect(badJson.exitCode).toBe(2);
		expect(badJson.stderr).toContain("--schema: the --schema JSON is not valid JSON");
		const notObject = await runKeel(["--schema", '{"type":"array"}', "x"], { env });
		expect(notObject.exitCode).toBe(2);
		expect(notObject.stderr).toContain("the schema's root must be an object");
		expect(server.requests).toHaveLength(0);
	});
});

describe("-a attachments", () => {
	// A custom model is defined with text input only, so these tests send a catalogue model that
	// takes images and speaks Chat Completions to the test server, as to a proxy of its provider.
	const imageCapable = (getProviders() as string[])
		.flatMap((provider) => getModels(provider as never) as Model<Api>[])
		.find((model) => model.api === "openai-completions" && model.input.includes("image"))!;
	const imageModel = ["-m", `${imageCapable.provider}/${imageCapable.id}`, "--base-url"];

	it("sends a local image, and one piped on stdin with -a -, as image content blocks", async () => {
		const env = { ...environment(), KEEL_API_KEY: "sk-test" };
		const file = scratchFile("dot.png", PNG);
		server.enqueue(chatCompletionsResponse({ text: ["A dot."] }), chatCompletionsResponse({ text: ["Another dot."] }));
		const fromFile = await runKeel([...imageModel, server.url, "-a", file, "What is this?"], { env });
		expect(fromFile.stderr).not.toContain("Error");
		expect(fromFile.stdout).toBe("A dot.\n");
		const dataUrl = `data:image/png;base64,${PNG.toString("base64")}`;
		expect(request(0).messages[0].content).toEqual([
			{ type: "text", text: "What is this?" },
			{ type: "image_url", image_url: { url: dataUrl } },
		]);

		const fromStdin = await runKeel([...imageModel, server.url, "-a", "-", "And this?"], {
			env,
			input: PNG,
		});
		expect(fromStdin.exitCode).toBe(0);
		expect((request(1).messages[0].content as unknown[])[1]).toMatchObject({ type: "image_url" });
	});

	it("refuses a URL unless --allow-urls, then downloads it", async () => {
		const env = { ...environment(), KEEL_API_KEY: "sk-test" };
		const refused = await runKeel([...imageModel, server.url, "-a", "https://example.com/cat.png", "hi"], { env });
		expect(refused.exitCode).toBe(2);
		expect(refused.stderr).toContain("is a URL: download it first, or pass --allow-urls");
		expect(server.requests).toHaveLength(0);

		server.enqueue(
			{ body: new Uint8Array(PNG), headers: { "content-type": "image/png" } },
			chatCompletionsResponse({ text: ["A downloaded dot."] }),
		);
		const allowed = await runKeel([...imageModel, server.url, "--allow-urls", "-a", `${server.url}/dot.png`, "hi"], {
			env,
		});
		expect(allowed.stdout).toBe("A downloaded dot.\n");
		expect((request(1).messages[0].content as unknown[])[1]).toMatchObject({ type: "image_url" });
	});

	it("a missing, oversized or unknown binary file exits 2 naming what is supported; so does a model without image input", async () => {
		const env = environment();
		const missing = await runKeel([...imageModel, server.url, "-a", "/no/such/file.png", "hi"], { env });
		expect(missing.exitCode).toBe(2);
		expect(missing.stderr).toContain("attachment /no/such/file.png does not exist");

		const big = scratchFile("big.png", PNG);
		truncateSync(big, 21 * 1024 * 1024);
		const oversized = await runKeel([...imageModel, server.url, "-a", big, "hi"], { env });
		expect(oversized.exitCode).toBe(2);
		expect(oversized.stderr).toContain("is 21 MB: the limit is 20 MB");

		const binary = scratchFile("data.bin", Buffer.from([0x00, 0x01, 0x02, 0xfe, 0xff]));
		const unknown = await runKeel([...imageModel, server.url, "-a", binary, "hi"], { env });
		expect(unknown.exitCode).toBe(2);
		expect(unknown.stderr).toContain(
			"is not a file Keel can send: -a takes PNG, JPEG, GIF or WebP images, PDFs, text files",
		);

		const textOnly = await runKeel(["-a", scratchFile("dot.png", PNG), "hi"], { env });
		expect(textOnly.exitCode).toBe(2);
		expect(textOnly.stderr).toContain('custom/test-model does not accept images: choose a model with images "yes"');
		expect(server.requests).toHaveLength(0);
	});
});

describe("-a files and audio", () => {
	const catalogue = (getProviders() as string[]).flatMap((provider) => getModels(provider as never) as Model<Api>[]);
	const completionsModel = (kind: "pdf" | "audio", has: boolean) =>
		catalogue.find((model) => model.api === "openai-completions" && model.input.includes(kind) === has)!;
	const asModel = (model: Model<Api>) => ["-m", `${model.provider}/${model.id}`, "--base-url", server.url];
	const PDF = Buffer.from("%PDF-1.7\n%keel test\n");
	const WAV = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WAVEfmt "), Buffer.alloc(8)]);

	it("sends a PDF (type from its bytes) as a file part and a markdown file as text, after the prompt", async () => {
		const env = { ...environment(), KEEL_API_KEY: "sk-test" };
		server.enqueue(chatCompletionsResponse({ text: ["Read."] }));
		const pdf = scratchFile("paper", PDF);
		const notes = scratchFile("notes.md", "# Notes\nline");
		const result = await runKeel([...asModel(completionsModel("pdf", true)), "-a", pdf, "-a", notes, "Compare"], {
			env,
		});
		expect(result.stderr).not.toContain("Error");
		expect(result.exitCode).toBe(0);
		expect(request(0).messages[0].content).toEqual([
			{ type: "text", text: "Compare" },
			{ type: "file", file: { file_data: `data:application/pdf;base64,${PDF.toString("base64")}`, filename: "paper" } },
			{ type: "text", text: '<file name="notes.md">\n# Notes\nline\n</file>' },
		]);
	});

	it("sends WAV audio piped on stdin with -a - as input_audio", async () => {
		const env = { ...environment(), KEEL_API_KEY: "sk-test" };
		server.enqueue(chatCompletionsResponse({ text: ["Heard."] }));
		const result = await runKeel([...asModel(completionsModel("audio", true)), "-a", "-", "Transcribe"], {
			env,
			input: WAV,
		});
		expect(result.exitCode).toBe(0);
		expect((request(0).messages[0].content as unknown[])[1]).toEqual({
			type: "input_audio",
			input_audio: { data: WAV.toString("base64"), format: "wav" },
		});
	});

	it("exits 2 before any request, saying what to do, when the model cannot read a PDF or audio", async () => {
		const env = { ...environment(), KEEL_API_KEY: "sk-test" };
		const noPdf = completionsModel("pdf", false);
		const pdfRefused = await runKeel([...asModel(noPdf), "-a", scratchFile("paper.pdf", PDF), "hi"], { env });
		expect(pdfRefused.exitCode).toBe(2);
		expect(pdfRefused.stderr).toContain(`${noPdf.provider}/${noPdf.id} does not read PDF files ("paper.pdf")`);
		expect(pdfRefused.stderr).toContain('choose a model whose input includes "pdf"');

		const noAudio = completionsModel("audio", false);
		const audioRefused = await runKeel([...asModel(noAudio), "-a", scratchFile("voice.wav", WAV), "hi"], { env });
		expect(audioRefused.exitCode).toBe(2);
		expect(audioRefused.stderr).toContain(`${noAudio.provider}/${noAudio.id} does not read audio`);
		expect(server.requests).toHaveLength(0);
	});
});

describe("-T built-in tools", () => {
	it("with --yes the model's calculator call runs and its result goes back to the model", async () => {
		const env = environment();
		server.enqueue(
			chatCompletionsResponse({
				text: [],
				toolCalls: [{ id: "call_1", name: "calculator", arguments: '{"expression":"1234 * 5678"}' }],
			}),
			chatCompletionsResponse({ text: ["It is 7006652."] }),
		);
		const result = await runKeel(["-T", "calculator", "--yes", "What is 1234 * 5678?"], { env });
		expect(result.exitCode).toBe(0);
		expect(result.stdout).toBe("It is 7006652.\n");
		expect(request(0).tools?.map((tool) => tool.function.name)).toEqual(["calculator"]);
		const toolResult = request(1).messages.find((message) => message.role === "tool");
		expect(toolResult).toMatchObject({ tool_call_id: "call_1", content: "7006652" });
		expect(result.stderr).toContain('→ calculator {"expression":"1234 * 5678"}');
		expect(result.stderr).toContain("← calculator: 7006652");
	});

	it("without --yes and without a terminal to ask, the call is refused and the model told so", async () => {
		const env = environment();
		server.enqueue(
			chatCompletionsResponse({ text: [], toolCalls: [{ id: "call_1", name: "current_time", arguments: "{}" }] }),
			chatCompletionsResponse({ text: ["I could not check the time."] }),
		);
		const result = await runKeel(["-T", "current_time", "What time is it?"], { env });
		expect(result.exitCode).toBe(0);
		expect(result.stderr).toContain(
			"Refused current_time: tool calls are confirmed at a terminal and there is none; pass --yes",
		);
		const toolResult = request(1).messages.find((message) => message.role === "tool");
		expect(String(toolResult?.content)).toContain("denied");
	});

	it("an unknown tool exits 2 and names the built-in ones", async () => {
		const result = await runKeel(["-T", "shell", "hi"], { env: environment() });
		expect(result.exitCode).toBe(2);
		expect(result.stderr).toContain('unknown tool "shell": the built-in tools are current_time, calculator');
		expect((await runKeel(["tools"], { env: environment() })).stdout).toMatch(/^calculator\s+Evaluates/m);
	});
});

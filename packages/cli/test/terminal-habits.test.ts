// The everyday habits in a real terminal (a tmux pane running a shell, with `keel` on its PATH),
// typed as a person would: `keel "text"`, -c, the default model and aliases, templates, logs,
// --schema, -a (an image, a PDF), -o top_p, the confirmation before a -T tool call (yes and no), and
// `keel models` within 80 columns. The server holds each answer until the test sends it. Without tmux these tests skip.
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Api, getModels, getProviders, type Model } from "@keel/ai";
import { describe, expect, it } from "vitest";
import { chatCompletionsPieces } from "./helpers/chat-completions-stream.js";
import type { HeldAnswer } from "./helpers/gated-chat-server.js";
import { CLI_PATH, createTemporaryHome, isolatedEnvironment } from "./helpers/run-keel.js";
import { sendAll, setUpTerminalTests } from "./helpers/terminal-tests.js";
import { plain, type TmuxPane } from "./helpers/tmux-pane.js";

const setup = setUpTerminalTests();
const { skipReason } = setup;

/** A 1×1 PNG. */
const PNG = Buffer.from(
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
	"base64",
);

/** A folder with a `keel` script running the built CLI, for the shell's PATH. */
function keelBin(): string {
	const bin = mkdtempSync(join(tmpdir(), "keel-cli-bin-"));
	const script = join(bin, "keel");
	writeFileSync(script, `#!/bin/sh\nexec "${process.execPath}" "${CLI_PATH}" "$@"\n`);
	chmodSync(script, 0o755);
	return bin;
}

/** A shell in a pane, `keel` on its PATH, the home private to the test. */
function startShell(extraEnvironment: Record<string, string> = {}, columns = 100): TmuxPane {
	const environment = isolatedEnvironment(createTemporaryHome(), extraEnvironment);
	environment.PATH = `${keelBin()}:${environment.PATH}`;
	return setup.startPane({ command: ["sh"], env: { ...environment, PS1: "$ " }, columns, rows: 40 });
}

let commandCount = 0;

/** Types a command followed by a marker line of its own, "[done N status]"; returns N. */
function run(terminal: TmuxPane, command: string): number {
	commandCount++;
	terminal.typeLine(`${command}; echo "[done ${commandCount} $?]"`);
	return commandCount;
}

/** Waits for the marker of command `id` and returns its exit status. */
async function statusOf(terminal: TmuxPane, id: number): Promise<number> {
	const marker = new RegExp(`^\\[done ${id} (\\d+)\\]$`, "m");
	const screen = await terminal.waitFor((text) => marker.test(plain(text)), `command ${id} to finish`);
	return Number(marker.exec(plain(screen))![1]);
}

function answer(
	held: HeldAnswer,
	text: string,
	extra: Parameters<typeof chatCompletionsPieces>[0] = { text: [] },
): void {
	sendAll(held, chatCompletionsPieces({ ...extra, text: [text] }));
}

type Messages = { role: string; content: unknown }[];
const messagesOf = (held: HeldAnswer) => (held.body as { messages: Messages }).messages;
const modelOf = (held: HeldAnswer) => (held.body as { model: string }).model;

/** Catalogue models that speak Chat Completions, so the test server can stand in for their provider. */
const completionsModels = (getProviders() as string[])
	.flatMap((provider) => getModels(provider as never) as Model<Api>[])
	.filter((model) => model.api === "openai-completions");
const textModel = completionsModels[0];
const imageModel = completionsModels.find((model) => model.input.includes("image"))!;
const pdfModel = completionsModels.find((model) => model.input.includes("pdf"))!;

describe.skipIf(skipReason !== undefined)("the llm habits in a terminal", () => {
	it('keel "text", -c, aliases, the default model, templates and keel logs', async () => {
		// The test server stands in for the provider of a catalogue model (KEEL_BASE_URL).
		const terminal = startShell({ KEEL_BASE_URL: setup.server.url, KEEL_API_KEY: "sk-test" });
		const name = `${textModel.provider}/${textModel.id}`;

		const command1 = run(terminal, `keel aliases set fast ${name} && keel models default fast`);
		expect(await statusOf(terminal, command1)).toBe(0);
		expect(plain(terminal.capture())).toContain(`Default model: fast (${name})`);

		// No -m: the default model, through its alias.
		const command2 = run(terminal, 'keel "My name is Ada."');
		const first = await setup.server.nextRequest();
		expect(modelOf(first)).toBe(textModel.id);
		expect(messagesOf(first)).toEqual([{ role: "user", content: "My name is Ada." }]);
		answer(first, "Hello, Ada.");
		expect(await statusOf(terminal, command2)).toBe(0);

		const command3 = run(terminal, 'keel -c "What is my name?"');
		const second = await setup.server.nextRequest();
		expect(messagesOf(second).map((message) => message.content)).toEqual([
			"My name is Ada.",
			"Hello, Ada.",
			"What is my name?",
		]);
		answer(second, "You are Ada.");
		expect(await statusOf(terminal, command3)).toBe(0);

		const command4 = run(
			terminal,
			`keel --save pirate -s "Talk like a pirate." -m local-model --base-url ${setup.server.url}`,
		);
		expect(await statusOf(terminal, command4)).toBe(0);
		const command5 = run(terminal, 'keel -t pirate "Hello"');
		const third = await setup.server.nextRequest();
		expect(messagesOf(third)[0]).toEqual({ role: "system", content: "Talk like a pirate." });
		answer(third, "Ahoy!");
		expect(await statusOf(terminal, command5)).toBe(0);

		const command6 = run(terminal, "keel -t nobody hi");
		expect(await statusOf(terminal, command6)).toBe(2);
		expect(plain(terminal.capture())).toContain('no template "nobody" (saved templates: pirate)');

		const command7 = run(terminal, "clear; keel logs -n 2");
		expect(await statusOf(terminal, command7)).toBe(0);
		const logs = plain(terminal.capture());
		expect(logs).toContain("> Hello\n\nAhoy!");
		expect(logs).toContain("> What is my name?\n\nYou are Ada.");
		expect(logs).toMatch(/custom\/local-model · 12 in, 7 out · \$0 · \d+ ms/);
		expect(logs).toContain(`${name} · 12 in, 7 out`);
	});

	it("asks before each tool call: yes runs it, no refuses it and the model is told", async () => {
		const terminal = startShell({ KEEL_BASE_URL: setup.server.url, KEEL_MODEL: "tool-model" });
		const toolCall = {
			text: [],
			toolCalls: [{ id: "call_1", name: "calculator", arguments: '{"expression":"6*7"}' }],
		};

		const command8 = run(terminal, 'keel -T calculator "What is 6 times 7?"');
		answer(await setup.server.nextRequest(), "", toolCall);
		await terminal.waitFor(
			(screen) => plain(screen).includes('Run calculator {"expression":"6*7"}? [y/N]'),
			"the question",
		);
		terminal.typeLine("y");
		const afterYes = await setup.server.nextRequest();
		expect(messagesOf(afterYes).at(-1)).toMatchObject({ role: "tool", content: "42" });
		answer(afterYes, "It is 42.");
		expect(await statusOf(terminal, command8)).toBe(0);
		expect(plain(terminal.capture())).toContain("It is 42.");

		const command9 = run(terminal, 'keel -T calculator "And 6 times 8?"');
		answer(await setup.server.nextRequest(), "", toolCall);
		await terminal.waitFor(
			(screen) => (plain(screen).match(/Run calculator/g) ?? []).length === 2,
			"the second question",
		);
		terminal.typeLine("n");
		const afterNo = await setup.server.nextRequest();
		expect(String(messagesOf(afterNo).at(-1)!.content)).toContain("denied");
		answer(afterNo, "You did not let me calculate.");
		expect(await statusOf(terminal, command9)).toBe(0);
	});

	it("keel --mcp asks before the MCP server's tool runs; yes runs it on server-everything", async () => {
		const everything = fileURLToPath(
			new URL("../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
		);
		const terminal = startShell({ KEEL_BASE_URL: setup.server.url, KEEL_MODEL: "tool-model" });
		const command = run(terminal, `keel --mcp "${process.execPath} ${everything} stdio" "Add 2 and 40"`);
		answer(await setup.server.nextRequest(), "", {
			text: [],
			toolCalls: [{ id: "call_1", name: "get-sum", arguments: '{"a":2,"b":40}' }],
		});
		await terminal.waitFor(
			(screen) => plain(screen).includes('Run get-sum {"a":2,"b":40}? [y/N]'),
			"the question",
			60_000,
		);
		terminal.typeLine("y");
		const afterYes = await setup.server.nextRequest();
		expect(JSON.stringify(messagesOf(afterYes).at(-1))).toContain("42");
		answer(afterYes, "It is 42.");
		expect(await statusOf(terminal, command)).toBe(0);
		expect(plain(terminal.capture())).toContain("It is 42.");
	}, 90_000);

	it("keel chat -T asks at the chat's prompt before the tool runs; Ctrl-C at the question answers no", async () => {
		const terminal = setup.startKeel(["chat", "-m", "tool-model", "--base-url", setup.server.url, "-T", "calculator"]);
		await terminal.waitFor((screen) => /^> ?$/m.test(plain(screen)), "the prompt");
		terminal.typeLine("What is 6 times 7?");
		answer(await setup.server.nextRequest(), "", {
			text: [],
			toolCalls: [{ id: "call_1", name: "calculator", arguments: '{"expression":"6*7"}' }],
		});
		await terminal.waitFor(
			(screen) => plain(screen).includes('Run calculator {"expression":"6*7"}? [y/N]'),
			"the question",
		);
		terminal.typeLine("yes");
		const afterYes = await setup.server.nextRequest();
		expect(messagesOf(afterYes).at(-1)).toMatchObject({ role: "tool", content: "42" });
		answer(afterYes, "It is 42.");
		await terminal.waitFor((screen) => /It is 42\.\n(.*\n)?> ?$/m.test(plain(screen)), "the answer and the prompt");

		// Ctrl-C at the question answers no; the chat goes on.
		terminal.typeLine("And 6 times 8?");
		answer(await setup.server.nextRequest(), "", {
			text: [],
			toolCalls: [{ id: "call_2", name: "calculator", arguments: '{"expression":"6*8"}' }],
		});
		await terminal.waitFor(
			(screen) => (plain(screen).match(/Run calculator/g) ?? []).length === 2,
			"the second question",
		);
		terminal.sendKeys("C-c");
		const afterNo = await setup.server.nextRequest();
		expect(String(messagesOf(afterNo).at(-1)!.content)).toContain("denied");
		answer(afterNo, "Not allowed, then.");
		await terminal.waitFor(
			(screen) => /Not allowed, then\.\n(.*\n)?> ?$/m.test(plain(screen)),
			"the chat prompt again",
		);
		expect(terminal.exitStatus()).toBeUndefined();
		terminal.typeLine("/exit");
		expect(await terminal.waitForExit()).toBe(0);
		expect(plain(terminal.capture())).toMatch(/Session saved: \S+/);
	});

	it("--schema prints JSON and -a sends an image, typed at a shell", async () => {
		const image = join(mkdtempSync(join(tmpdir(), "keel-cli-files-")), "dot.png");
		writeFileSync(image, PNG);
		const terminal = startShell({ KEEL_BASE_URL: setup.server.url, KEEL_MODEL: "schema-model" });

		const command10 = run(terminal, 'keel --schema "city str, people int" "The biggest city in Portugal"');
		const structured = await setup.server.nextRequest();
		expect((structured.body as { response_format: { type: string } }).response_format.type).toBe("json_schema");
		answer(structured, '{"city":"Lisbon","people":545000}');
		expect(await statusOf(terminal, command10)).toBe(0);
		expect(plain(terminal.capture())).toContain('{\n  "city": "Lisbon",\n  "people": 545000\n}');

		const command11 = run(
			terminal,
			`KEEL_API_KEY=sk-test keel -m ${imageModel.provider}/${imageModel.id} -a ${image} "What is this?"`,
		);
		const withImage = await setup.server.nextRequest();
		expect(messagesOf(withImage)[0].content).toEqual([
			{ type: "text", text: "What is this?" },
			{ type: "image_url", image_url: { url: `data:image/png;base64,${PNG.toString("base64")}` } },
		]);
		answer(withImage, "A single dot.");
		expect(await statusOf(terminal, command11)).toBe(0);

		// The custom model takes text only: the image is refused before any call, with exit 2.
		const command12 = run(terminal, `keel -a ${image} "What is this?"`);
		expect(await statusOf(terminal, command12)).toBe(2);
		expect(plain(terminal.capture())).toContain("does not accept images");
	});

	it("-a sends a PDF as a file part and -o top_p reaches the request, typed at a shell", async () => {
		const folder = mkdtempSync(join(tmpdir(), "keel-cli-files-"));
		const pdf = join(folder, "report.pdf");
		const pdfBytes = Buffer.from("%PDF-1.4\n% a test document\n%%EOF\n");
		writeFileSync(pdf, pdfBytes);
		const terminal = startShell({ KEEL_BASE_URL: setup.server.url, KEEL_API_KEY: "sk-test" });

		const command = run(terminal, `keel -m ${pdfModel.provider}/${pdfModel.id} -o top_p 0.5 -a ${pdf} "Summarise it"`);
		const request = await setup.server.nextRequest();
		expect((request.body as { top_p?: number }).top_p).toBe(0.5);
		expect(messagesOf(request)[0].content).toEqual([
			{ type: "text", text: "Summarise it" },
			{
				type: "file",
				file: { filename: "report.pdf", file_data: `data:application/pdf;base64,${pdfBytes.toString("base64")}` },
			},
		]);
		answer(request, "A short report.");
		expect(await statusOf(terminal, command)).toBe(0);
		expect(plain(terminal.capture())).toContain("A short report.");

		// A sampling key the model's API does not take: exit 2 before any call, naming the keys it takes.
		const refused = run(terminal, `keel -m ${pdfModel.provider}/${pdfModel.id} -o no_such_key 1 "hi"`);
		expect(await statusOf(terminal, refused)).toBe(2);
		expect(plain(terminal.capture())).toContain("no_such_key");
	});

	it("keel models fits an 80-column terminal, and shows every column on a wide one", async () => {
		const narrow = startShell({}, 80);
		const command13 = run(narrow, "keel models anthropic | head -n 12");
		expect(await statusOf(narrow, command13)).toBe(0);
		// On a terminal too (not piped): the table chooses its width from the terminal's.
		const command14 = run(narrow, "clear; keel models anthropic --search haiku");
		expect(await statusOf(narrow, command14)).toBe(0);
		const narrowLines = plain(narrow.capture()).split("\n");
		expect(narrowLines.some((line) => /^model\s+context\s+max out/.test(line))).toBe(true);
		expect(narrowLines.every((line) => line.trimEnd().length <= 80)).toBe(true);
		narrow.close();

		const wide = startShell({}, 220);
		// `clear` first, as above: input typed before the new shell's first prompt is echoed ahead of
		// it, and the table would then follow that prompt on its line.
		const command15 = run(wide, "clear; keel models anthropic --search haiku");
		expect(await statusOf(wide, command15)).toBe(0);
		expect(plain(wide.capture())).toMatch(/^provider\s+id\s+api\s+context/m);
	});
});

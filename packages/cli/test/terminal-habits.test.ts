// The everyday habits in a real terminal (a tmux pane running a shell, with `keel` on its PATH),
// typed as a person would: `keel "text"`, -c, the default model and aliases, templates, logs,
// --schema, -a, the confirmation before a -T tool call (yes and no), and `keel models` within 80
// columns. The server holds each answer until the test sends it. Without tmux these tests skip.
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Api, getModels, getProviders, type Model } from "@keel/ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chatCompletionsPieces } from "./helpers/chat-completions-stream.js";
import { GatedChatServer, type HeldAnswer } from "./helpers/gated-chat-server.js";
import { assertCliBuilt, CLI_PATH, createTemporaryHome, isolatedEnvironment } from "./helpers/run-keel.js";
import { plain, TmuxPane, tmuxUnavailableReason } from "./helpers/tmux-pane.js";

const skipReason = tmuxUnavailableReason();
if (skipReason) console.warn(`Skipping the terminal tests: ${skipReason}`);

/** A 1×1 PNG. */
const PNG = Buffer.from(
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
	"base64",
);

let server: GatedChatServer;
let pane: TmuxPane | undefined;

beforeAll(async () => {
	assertCliBuilt();
	server = await GatedChatServer.start();
});
afterAll(async () => {
	await server?.close();
});
afterEach(() => {
	pane?.close();
	pane = undefined;
});

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
	pane = TmuxPane.start({ command: ["sh"], env: { ...environment, PS1: "$ " }, columns, rows: 40 });
	return pane;
}

/** Types a command followed by a marker that shows its exit status. */
function run(terminal: TmuxPane, command: string): void {
	terminal.typeLine(`${command}; echo "[status $?]"`);
}

/** Waits for the next "[status N]" line and returns N. */
async function nextStatus(terminal: TmuxPane, seen: number): Promise<number> {
	const screen = await terminal.waitFor(
		(text) => (plain(text).match(/^\[status \d+\]$/gm) ?? []).length > seen,
		`exit status number ${seen + 1}`,
	);
	const statuses = plain(screen).match(/^\[status (\d+)\]$/gm) ?? [];
	return Number(/\d+/.exec(statuses[seen])![0]);
}

function answer(held: HeldAnswer, text: string, extra: Parameters<typeof chatCompletionsPieces>[0] = { text: [] }): void {
	for (const piece of chatCompletionsPieces({ ...extra, text: [text] })) held.send(piece);
	held.end();
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

describe.skipIf(skipReason !== undefined)("the llm habits in a terminal", () => {
	it('keel "text", -c, aliases, the default model, templates and keel logs', async () => {
		// The test server stands in for the provider of a catalogue model (KEEL_BASE_URL).
		const terminal = startShell({ KEEL_BASE_URL: server.url, KEEL_API_KEY: "sk-test" });
		const name = `${textModel.provider}/${textModel.id}`;

		run(terminal, `keel aliases set fast ${name} && keel models default fast`);
		expect(await nextStatus(terminal, 0)).toBe(0);
		expect(plain(terminal.capture())).toContain(`Default model: fast (${name})`);

		// No -m: the default model, through its alias.
		run(terminal, 'keel "My name is Ada."');
		const first = await server.nextRequest();
		expect(modelOf(first)).toBe(textModel.id);
		expect(messagesOf(first)).toEqual([{ role: "user", content: "My name is Ada." }]);
		answer(first, "Hello, Ada.");
		expect(await nextStatus(terminal, 1)).toBe(0);

		run(terminal, 'keel -c "What is my name?"');
		const second = await server.nextRequest();
		expect(messagesOf(second).map((message) => message.content)).toEqual([
			"My name is Ada.",
			"Hello, Ada.",
			"What is my name?",
		]);
		answer(second, "You are Ada.");
		expect(await nextStatus(terminal, 2)).toBe(0);

		run(terminal, `keel --save pirate -s "Talk like a pirate." -m local-model --base-url ${server.url}`);
		expect(await nextStatus(terminal, 3)).toBe(0);
		run(terminal, 'keel -t pirate "Hello"');
		const third = await server.nextRequest();
		expect(messagesOf(third)[0]).toEqual({ role: "system", content: "Talk like a pirate." });
		answer(third, "Ahoy!");
		expect(await nextStatus(terminal, 4)).toBe(0);

		run(terminal, "keel -t nobody hi");
		expect(await nextStatus(terminal, 5)).toBe(2);
		expect(plain(terminal.capture())).toContain('no template "nobody" (saved templates: pirate)');

		run(terminal, "clear; keel logs -n 2");
		expect(await nextStatus(terminal, 0)).toBe(0);
		const logs = plain(terminal.capture());
		expect(logs).toContain("> Hello\n\nAhoy!");
		expect(logs).toContain("> What is my name?\n\nYou are Ada.");
		expect(logs).toMatch(/custom\/local-model · 12 in, 7 out · \$0 · \d+ ms/);
		expect(logs).toContain(`${name} · 12 in, 7 out`);
	});

	it("asks before each tool call: yes runs it, no refuses it and the model is told", async () => {
		const terminal = startShell({ KEEL_BASE_URL: server.url, KEEL_MODEL: "tool-model" });
		const toolCall = {
			text: [],
			toolCalls: [{ id: "call_1", name: "calculator", arguments: '{"expression":"6*7"}' }],
		};

		run(terminal, 'keel -T calculator "What is 6 times 7?"');
		answer(await server.nextRequest(), "", toolCall);
		await terminal.waitFor((screen) => plain(screen).includes('Run calculator {"expression":"6*7"}? [y/N]'), "the question");
		terminal.typeLine("y");
		const afterYes = await server.nextRequest();
		expect(messagesOf(afterYes).at(-1)).toMatchObject({ role: "tool", content: "42" });
		answer(afterYes, "It is 42.");
		expect(await nextStatus(terminal, 0)).toBe(0);
		expect(plain(terminal.capture())).toContain("It is 42.");

		run(terminal, 'keel -T calculator "And 6 times 8?"');
		answer(await server.nextRequest(), "", toolCall);
		await terminal.waitFor(
			(screen) => (plain(screen).match(/Run calculator/g) ?? []).length === 2,
			"the second question",
		);
		terminal.typeLine("n");
		const afterNo = await server.nextRequest();
		expect(String(messagesOf(afterNo).at(-1)!.content)).toContain("denied");
		answer(afterNo, "You did not let me calculate.");
		expect(await nextStatus(terminal, 1)).toBe(0);
	});

	it("--schema prints JSON and -a sends an image, typed at a shell", async () => {
		const image = join(mkdtempSync(join(tmpdir(), "keel-cli-files-")), "dot.png");
		writeFileSync(image, PNG);
		const terminal = startShell({ KEEL_BASE_URL: server.url, KEEL_MODEL: "schema-model" });

		run(terminal, 'keel --schema "city str, people int" "The biggest city in Portugal"');
		const structured = await server.nextRequest();
		expect((structured.body as { response_format: { type: string } }).response_format.type).toBe("json_schema");
		answer(structured, '{"city":"Lisbon","people":545000}');
		expect(await nextStatus(terminal, 0)).toBe(0);
		expect(plain(terminal.capture())).toContain('{\n  "city": "Lisbon",\n  "people": 545000\n}');

		run(terminal, `KEEL_API_KEY=sk-test keel -m ${imageModel.provider}/${imageModel.id} -a ${image} "What is this?"`);
		const withImage = await server.nextRequest();
		expect(messagesOf(withImage)[0].content).toEqual([
			{ type: "text", text: "What is this?" },
			{ type: "image_url", image_url: { url: `data:image/png;base64,${PNG.toString("base64")}` } },
		]);
		answer(withImage, "A single dot.");
		expect(await nextStatus(terminal, 1)).toBe(0);

		// The custom model takes text only: the image is refused before any call, with exit 2.
		run(terminal, `keel -a ${image} "What is this?"`);
		expect(await nextStatus(terminal, 2)).toBe(2);
		expect(plain(terminal.capture())).toContain("does not accept images");
	});

	it("keel models fits an 80-column terminal, and shows every column on a wide one", async () => {
		const narrow = startShell({}, 80);
		run(narrow, "keel models anthropic | head -n 12");
		expect(await nextStatus(narrow, 0)).toBe(0);
		// On a terminal too (not piped): the table chooses its width from the terminal's.
		run(narrow, "clear; keel models anthropic --search haiku");
		expect(await nextStatus(narrow, 0)).toBe(0);
		const narrowLines = plain(narrow.capture()).split("\n");
		expect(narrowLines.some((line) => /^model\s+context\s+max out/.test(line))).toBe(true);
		expect(narrowLines.every((line) => line.trimEnd().length <= 80)).toBe(true);
		narrow.close();

		const wide = startShell({}, 220);
		pane = wide;
		run(wide, "keel models anthropic --search haiku");
		expect(await nextStatus(wide, 0)).toBe(0);
		expect(plain(wide.capture())).toMatch(/^provider\s+id\s+api\s+context/m);
	});
});

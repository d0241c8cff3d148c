// `keel chat` in a real terminal (a tmux pane): a line typed while an answer is written interrupts
// it. The answer pauses on screen while the line is typed, the cut-off answer ends with
// "(interrupted)", the line shows on its own line after it and is answered next with the
// conversation so far, and the session keeps all four messages. A /command typed meanwhile waits
// for the answer; Ctrl-C still stops the answer. The server holds each answer until the test
// releases it, so every screen is checked in a known state. Without tmux these tests skip.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatCompletionsPieces } from "./helpers/chat-completions-stream.js";
import type { HeldAnswer } from "./helpers/gated-chat-server.js";
import { createTemporaryHome, isolatedEnvironment, runKeel } from "./helpers/run-keel.js";
import { sendAll, setUpTerminalTests } from "./helpers/terminal-tests.js";
import { plain, type TmuxPane } from "./helpers/tmux-pane.js";

const setup = setUpTerminalTests();
const { skipReason } = setup;

const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] custom\/test-model/;

function startChat(home: string, extraArguments: string[] = []): TmuxPane {
	return setup.startKeel(["chat", "-m", "test-model", "--base-url", setup.server.url, ...extraArguments], { home });
}

/** Types text without pressing Enter. */
function type(terminal: TmuxPane, text: string): void {
	terminal.sendKeys("-l", text);
}

/** Starts an answer that is still being written: its opening and the given text pieces. */
function startAnswer(answer: HeldAnswer, text: string[]): void {
	for (const piece of chatCompletionsPieces({ text, unfinished: true })) answer.send(piece);
}

/** One more piece of an answer being written. */
function moreText(answer: HeldAnswer, text: string): void {
	const [, piece] = chatCompletionsPieces({ text: [text], unfinished: true });
	answer.send(piece);
}

/** A line as the 100-column pane shows it: cut into rows, each without its trailing spaces. */
function paneRows(line: string): string[] {
	const rows: string[] = [];
	for (let start = 0; start < line.length; start += 100) rows.push(line.slice(start, start + 100).trimEnd());
	return rows;
}

const requestMessages = (answer: HeldAnswer) =>
	(answer.body as { messages: { role: string; content: unknown }[] }).messages;

interface StoredMessage {
	role: string;
	content: unknown;
	stopReason?: string;
	errorMessage?: string;
}

/** The messages of the one session stored under `home`, read from its JSONL file (queue records left out). */
function storedMessages(home: string): StoredMessage[] {
	const directory = join(home, ".keel", "sessions");
	const files = readdirSync(directory).filter((name) => name.endsWith(".jsonl"));
	expect(files).toHaveLength(1);
	return readFileSync(join(directory, files[0]), "utf8")
		.split("\n")
		.filter((line) => line.trim() !== "")
		.map((line) => JSON.parse(line) as { type: string; message?: StoredMessage })
		.filter((record) => record.type === "message")
		.map((record) => record.message!);
}

const textOf = (message: StoredMessage) =>
	typeof message.content === "string"
		? message.content
		: (message.content as { type: string; text?: string }[]).map((block) => block.text ?? "").join("");

describe.skipIf(skipReason !== undefined)("keel chat: typing while an answer is written", () => {
	it("a line entered mid-answer cuts the answer off, shows after it, is answered next and is stored", async () => {
		const home = createTemporaryHome();
		const terminal = startChat(home);
		await terminal.waitFor((screen) => /^> ?$/m.test(plain(screen)), "the prompt");
		terminal.typeLine("Explain the build.");
		const first = await setup.server.nextRequest();
		startAnswer(first, ["Here is the whole build"]);
		await terminal.waitFor((screen) => plain(screen).includes("Here is the whole build"), "the answer so far");

		// The first key opens the prompt on a line of its own; the answer pauses on screen meanwhile.
		type(terminal, "stop, production is down");
		await terminal.waitFor(
			(screen) => /Here is the whole build\n> stop, production is down$/m.test(plain(screen)),
			"the line being typed under the answer",
		);
		// More of the answer may arrive while the line is typed: it waits, and is shown once it is entered.
		moreText(first, " system, file by file.");
		terminal.sendKeys("Enter");

		// The CLI cuts the answer off: the server sees the connection close, and the next request
		// carries the cut-off answer's text and the typed line.
		await first.closed;
		const second = await setup.server.nextRequest();
		const sent = requestMessages(second);
		expect(sent.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
		expect(sent[0].content).toBe("Explain the build.");
		expect(String(sent[1].content)).toMatch(/^Here is the whole build/);
		expect(sent[2].content).toBe("stop, production is down");

		sendAll(second, chatCompletionsPieces({ text: ["Stopping. Checking production first."] }));
		await terminal.waitFor(
			(screen) => /Stopping\. Checking production first\.\n(.*\n)?> ?$/m.test(plain(screen)),
			"the answer to the typed line, then the prompt",
		);
		const screen = terminal.capture(true);
		terminal.sendKeys("C-d");
		expect(await terminal.waitForExit()).toBe(0);

		// The session keeps the question, the cut-off answer (marked), the typed line and its answer.
		const messages = storedMessages(home);
		expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
		expect(messages[1]).toMatchObject({ stopReason: "aborted", errorMessage: "Interrupted by a steering message" });
		expect(textOf(messages[2])).toBe("stop, production is down");
		expect(textOf(messages[3])).toBe("Stopping. Checking production first.");
		const cutOff = textOf(messages[1]);
		expect(sent[1].content).toBe(cutOff);

		// The screen shows exactly the stored answer, then the marker, the typed line on its own line,
		// and the new answer.
		expect(plain(screen)).toContain(
			`> Explain the build.\n${cutOff} (interrupted)\n> stop, production is down\nStopping. Checking production first.\n`,
		);
		expect(screen).toContain("\u001b[2m(interrupted)");
		expect(plain(screen)).not.toContain("Aborted.");

		// keel sessions show says the answer was interrupted, not stopped.
		const sessionId = /Session saved: (\S+)/.exec(plain(terminal.capture()))?.[1];
		const shown = await runKeel(["sessions", "show", sessionId!], { env: isolatedEnvironment(home) });
		expect(shown.stdout).toBe(
			`user:\nExplain the build.\n\nassistant (custom/test-model):\n${cutOff}\n[interrupted]\n\n` +
				"user:\nstop, production is down\n\nassistant (custom/test-model):\nStopping. Checking production first.\n",
		);
	});

	// On the 100-column pane: 130 characters end at column 30 of the answer's second row, 200 fill
	// it exactly; "> " and 98 characters fill the typed line's row exactly.
	it.each([
		["wraps", "ends mid-row", `${"word ".repeat(25)}words`, `please stop ${"and listen ".repeat(12)}now`],
		["fills its row exactly", "ends mid-row", `${"word ".repeat(25)}words`, `please stop ${"x".repeat(86)}`],
		["wraps", "fills its last row", `${"word ".repeat(39)}words`, `please stop ${"and listen ".repeat(12)}now`],
	])(
		"a typed line that %s, under an answer line that %s, leaves no trace once it is entered",
		async (_typed, _answer, answerSoFar, long) => {
			const terminal = startChat(createTemporaryHome());
			await terminal.waitFor((screen) => /^> ?$/m.test(plain(screen)), "the prompt");
			terminal.typeLine("go on");
			const first = await setup.server.nextRequest();
			startAnswer(first, [answerSoFar]);
			await terminal.waitFor((screen) => plain(screen).includes("word words"), "the answer so far");
			type(terminal, long);
			await terminal.waitFor((screen) => plain(screen).replace(/\n/g, "").endsWith(`> ${long}`), "the wrapped line");
			terminal.sendKeys("Enter");
			await first.closed;
			const second = await setup.server.nextRequest();
			expect(requestMessages(second)[2].content).toBe(long);
			sendAll(second, chatCompletionsPieces({ text: ["Listening."] }));
			await terminal.waitFor(
				(current) => /Listening\.\n(.*\n)?> ?$/m.test(plain(current)),
				"the answer to the wrapped line",
			);
			// The answer goes on where it stopped, the typed line's rows gone: the rows a person sees.
			expect(plain(terminal.capture())).toContain(
				["> go on", ...paneRows(`${answerSoFar} (interrupted)`), ...paneRows(`> ${long}`), "Listening.", ""].join("\n"),
			);
			terminal.sendKeys("C-d");
			expect(await terminal.waitForExit()).toBe(0);
		},
	);

	it("a line typed before the first token stops the spinner and interrupts an answer with no text yet", async () => {
		const terminal = startChat(createTemporaryHome());
		await terminal.waitFor((screen) => /^> ?$/m.test(plain(screen)), "the prompt");
		terminal.typeLine("slow question");
		const first = await setup.server.nextRequest();
		await terminal.waitFor((screen) => SPINNER.test(plain(screen)), "the spinner");

		type(terminal, "faster please");
		// The spinner's line becomes the prompt: no spinner frame is drawn over the line being typed.
		await terminal.waitFor((screen) => /^> faster please$/m.test(plain(screen)), "the line being typed");
		expect(plain(terminal.capture())).not.toMatch(SPINNER);
		terminal.sendKeys("Enter");
		await first.closed;
		const second = await setup.server.nextRequest();
		// An interrupted answer with no text is not shown to the model.
		expect(requestMessages(second).map((message) => message.content)).toEqual(["slow question", "faster please"]);
		sendAll(second, chatCompletionsPieces({ text: ["Quick answer."] }));
		await terminal.waitFor((screen) => /Quick answer\.\n(.*\n)?> ?$/m.test(plain(screen)), "the answer");
		expect(plain(terminal.capture())).toMatch(/> slow question\n\(interrupted\)\n> faster please\nQuick answer\.\n/);
		terminal.sendKeys("C-d");
		expect(await terminal.waitForExit()).toBe(0);
	});

	it("a /command entered mid-answer does not interrupt it and runs once the answer ends", async () => {
		const terminal = startChat(createTemporaryHome());
		await terminal.waitFor((screen) => /^> ?$/m.test(plain(screen)), "the prompt");
		terminal.typeLine("first question");
		const first = await setup.server.nextRequest();
		startAnswer(first, ["A long"]);
		await terminal.waitFor((screen) => plain(screen).includes("A long"), "the answer so far");

		type(terminal, "/cost");
		await terminal.waitFor((screen) => /A long\n> \/cost$/m.test(plain(screen)), "the command being typed");
		terminal.sendKeys("Enter");
		// The prompt is gone again and the answer goes on where it stopped.
		await terminal.waitFor((screen) => !plain(screen).includes("/cost"), "the command taken off the screen");
		moreText(first, " answer.");
		await terminal.waitFor((screen) => plain(screen).includes("A long answer."), "the rest of the answer");
		sendAll(first, chatCompletionsPieces({ text: [] }).slice(1));

		await terminal.waitFor((screen) => plain(screen).includes("1 answer: 12 in, 7 out"), "the command's output");
		expect(plain(terminal.capture())).toMatch(
			/> first question\nA long answer\.\n12 in, 7 out · \$0\n> \/cost\n1 answer/,
		);
		terminal.sendKeys("C-d");
		expect(await terminal.waitForExit()).toBe(0);
	});

	it("a line still being typed when the answer ends stays at the prompt and is sent as the next message", async () => {
		const terminal = startChat(createTemporaryHome());
		await terminal.waitFor((screen) => /^> ?$/m.test(plain(screen)), "the prompt");
		terminal.typeLine("first question");
		const first = await setup.server.nextRequest();
		startAnswer(first, ["Short"]);
		await terminal.waitFor((screen) => plain(screen).includes("Short"), "the answer so far");

		type(terminal, "and then");
		await terminal.waitFor((screen) => /Short\n> and then$/m.test(plain(screen)), "the line being typed");
		sendAll(first, [...chatCompletionsPieces({ text: [" answer."] }).slice(1)]);
		await terminal.waitFor(
			(screen) => /Short answer\.\n12 in, 7 out · \$0\n> and then$/m.test(plain(screen)),
			"the whole answer, then the prompt with the line so far",
		);

		type(terminal, " what?");
		terminal.sendKeys("Enter");
		const second = await setup.server.nextRequest();
		expect(requestMessages(second).map((message) => message.content)).toEqual([
			"first question",
			"Short answer.",
			"and then what?",
		]);
		sendAll(second, chatCompletionsPieces({ text: ["Then nothing."] }));
		await terminal.waitFor((screen) => /Then nothing\.\n(.*\n)?> ?$/m.test(plain(screen)), "the second answer");
		terminal.sendKeys("C-d");
		expect(await terminal.waitForExit()).toBe(0);
	});

	it("a tool call's question that comes while a line is typed is asked first; the line returns at the next prompt", async () => {
		const terminal = startChat(createTemporaryHome(), ["-T", "calculator"]);
		await terminal.waitFor((screen) => /^> ?$/m.test(plain(screen)), "the prompt");
		terminal.typeLine("What is 6 times 7?");
		const first = await setup.server.nextRequest();
		startAnswer(first, ["Let me compute."]);
		await terminal.waitFor((screen) => plain(screen).includes("Let me compute."), "the answer so far");
		type(terminal, "and 6 times 8");
		await terminal.waitFor((screen) => plain(screen).includes("> and 6 times 8"), "the line being typed");

		const [, ...toolCallPieces] = chatCompletionsPieces({
			text: [],
			toolCalls: [{ id: "call_1", name: "calculator", arguments: '{"expression":"6*7"}' }],
		});
		sendAll(first, toolCallPieces);
		const question = await terminal.waitFor(
			(screen) => /Run calculator \{"expression":"6\*7"\}\? \[y\/N\] ?$/m.test(plain(screen)),
			"the question, with nothing typed after it",
		);
		expect(plain(question)).not.toContain("and 6 times 8");
		terminal.typeLine("y");

		const second = await setup.server.nextRequest();
		expect(requestMessages(second).at(-1)).toMatchObject({ role: "tool", content: "42" });
		sendAll(second, chatCompletionsPieces({ text: ["It is 42."] }));
		await terminal.waitFor(
			(screen) => /It is 42\.\n(.*\n)?> and 6 times 8$/m.test(plain(screen)),
			"the answer, then the prompt with the line typed before the question",
		);
		terminal.sendKeys("Enter");
		const third = await setup.server.nextRequest();
		expect(requestMessages(third).at(-1)).toEqual({ role: "user", content: "and 6 times 8" });
		sendAll(third, chatCompletionsPieces({ text: ["56."] }));
		await terminal.waitFor((screen) => /56\.\n(.*\n)?> ?$/m.test(plain(screen)), "the next answer");
		terminal.sendKeys("C-d");
		expect(await terminal.waitForExit()).toBe(0);
	});

	it("Ctrl-C while a line is typed mid-answer stops the answer and drops the line", async () => {
		const terminal = startChat(createTemporaryHome());
		await terminal.waitFor((screen) => /^> ?$/m.test(plain(screen)), "the prompt");
		terminal.typeLine("first question");
		const first = await setup.server.nextRequest();
		startAnswer(first, ["Half an ans"]);
		await terminal.waitFor((screen) => plain(screen).includes("Half an ans"), "the answer so far");
		type(terminal, "never mind");
		await terminal.waitFor((screen) => plain(screen).includes("> never mind"), "the line being typed");

		terminal.sendKeys("C-c");
		await first.closed;
		await terminal.waitFor(
			(screen) => /Half an ans\nAborted\.\n(.*\n)?> ?$/m.test(plain(screen)),
			"the stopped answer, then an empty prompt",
		);
		expect(plain(terminal.capture())).not.toContain("never mind");
		expect(terminal.exitStatus()).toBeUndefined();
		terminal.sendKeys("C-d");
		expect(await terminal.waitForExit()).toBe(0);
	});
});

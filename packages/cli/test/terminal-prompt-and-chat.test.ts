// `keel` in a real terminal (a tmux pane), as a person uses it: the spinner while the model has
// not answered, thinking dimmed, NO_COLOR honoured, chat turns, and Ctrl-C stopping an answer but
// not the chat. The server holds each answer until the test releases it, so every screen is
// checked in a known state. Without tmux these tests skip and say why.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatCompletionsPieces } from "./helpers/chat-completions-stream.js";
import { createTemporaryHome } from "./helpers/run-keel.js";
import { sendAll, setUpTerminalTests } from "./helpers/terminal-tests.js";
import { plain } from "./helpers/tmux-pane.js";

const setup = setUpTerminalTests();
const { skipReason } = setup;

const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] custom\/test-model/;
const DIM = "\u001b[2m";

describe.skipIf(skipReason !== undefined)("keel in a terminal", () => {
	it("prompt: a spinner until the first token, thinking dimmed, then the answer and its usage", async () => {
		const terminal = setup.startKeel(["prompt", "-m", "test-model", "--base-url", setup.server.url, "hello"]);
		const answer = await setup.server.nextRequest();
		await terminal.waitFor((screen) => SPINNER.test(plain(screen)), "the spinner");

		const [opening, thinking, text, ...rest] = chatCompletionsPieces({
			reasoning: ["Thinking it over."],
			text: ["The answer."],
		});
		answer.send(opening);
		answer.send(thinking);
		const thinkingScreen = await terminal.waitFor((screen) => screen.includes("Thinking it over."), "the thinking");
		expect(thinkingScreen).toContain(`${DIM}Thinking it over.`);
		expect(plain(thinkingScreen)).not.toMatch(SPINNER);

		answer.send(text);
		sendAll(answer, rest);
		expect(await terminal.waitForExit()).toBe(0);
		const screen = terminal.capture(true);
		expect(plain(screen)).toContain("Thinking it over.\n\nThe answer.\n12 in, 7 out · $0");
		// The answer itself is not dimmed.
		expect(screen).not.toContain(`${DIM}The answer.`);
	});

	it("prompt: NO_COLOR turns colours off on a terminal, thinking is still shown", async () => {
		const terminal = setup.startKeel(["prompt", "-m", "test-model", "--base-url", setup.server.url, "hello"], {
			env: { NO_COLOR: "1" },
		});
		const answer = await setup.server.nextRequest();
		sendAll(answer, chatCompletionsPieces({ reasoning: ["Plain thoughts."], text: ["Plain answer."] }));
		expect(await terminal.waitForExit()).toBe(0);
		const screen = terminal.capture(true);
		expect(plain(screen)).toContain("Plain thoughts.\n\nPlain answer.");
		expect(screen).not.toContain("\u001b[");
	});

	it("chat: turns keep the conversation; Ctrl-C stops an answer, not the chat; Ctrl-C twice leaves", async () => {
		const terminal = setup.startKeel(["chat", "-m", "test-model", "--base-url", setup.server.url]);
		await terminal.waitFor((screen) => /^> ?$/m.test(plain(screen)), "the prompt");

		terminal.typeLine("first question");
		sendAll(await setup.server.nextRequest(), chatCompletionsPieces({ text: ["First answer."] }));
		await terminal.waitFor((screen) => /First answer\.\n(.*\n)?> ?$/m.test(plain(screen)), "the first answer");

		terminal.typeLine("second question");
		const second = await setup.server.nextRequest();
		expect((second.body as { messages: { content: string }[] }).messages.map((message) => message.content)).toEqual([
			"first question",
			"First answer.",
			"second question",
		]);
		const [opening, text] = chatCompletionsPieces({ text: ["Half an ans"], unfinished: true });
		second.send(opening);
		second.send(text);
		await terminal.waitFor((screen) => plain(screen).includes("Half an ans"), "the partial answer");
		terminal.sendKeys("C-c");
		// The CLI aborts the request: the server sees the connection close.
		await second.closed;
		await terminal.waitFor(
			(screen) => /Half an ans\nAborted\.\n(.*\n)?> ?$/m.test(plain(screen)),
			"the chat prompt again",
		);
		expect(terminal.exitStatus()).toBeUndefined();

		terminal.typeLine("/cost");
		await terminal.waitFor((screen) => plain(screen).includes("2 answers: 12 in, 7 out"), "the cost");

		terminal.sendKeys("C-c");
		await terminal.waitFor((screen) => plain(screen).includes("Press Ctrl-C again"), "the hint on how to leave");
		expect(terminal.exitStatus()).toBeUndefined();
		terminal.sendKeys("C-c");
		expect(await terminal.waitForExit()).toBe(0);
		expect(plain(terminal.capture())).toMatch(/Session saved: \S+/);
	});
});

describe.skipIf(skipReason !== undefined)("keel login in a terminal", () => {
	it("reads the key without showing it, then saves it", async () => {
		const home = createTemporaryHome();
		const terminal = setup.startKeel(["login", "mistral"], { home });
		await terminal.waitFor((screen) => plain(screen).includes("API key for mistral (not shown):"), "the key prompt");
		terminal.typeLine("secret-typed-key-0123456789");
		expect(await terminal.waitForExit()).toBe(0);
		const screen = plain(terminal.capture());
		expect(screen).toContain("Saved the credential for mistral");
		expect(screen).not.toContain("secret-typed-key");
		expect(readFileSync(join(home, ".config/keel/credentials.json"), "utf8")).toContain("secret-typed-key-0123456789");
	});
});

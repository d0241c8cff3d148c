// What every terminal test file sets up the same way: the tests skip, saying why, where tmux is
// missing; one held-answer server serves the file; and every pane a test starts is closed after it,
// passed or failed, so no tmux server outlives its test.
import { afterAll, afterEach, beforeAll } from "vitest";
import { GatedChatServer, type HeldAnswer } from "./gated-chat-server.js";
import { assertCliBuilt, CLI_PATH, createTemporaryHome, isolatedEnvironment } from "./run-keel.js";
import { type PaneOptions, TmuxPane, tmuxUnavailableReason } from "./tmux-pane.js";

export interface TerminalTests {
	/** Why the terminal tests cannot run here (for `describe.skipIf`), or undefined when tmux works. */
	readonly skipReason: string | undefined;
	/** The file's held-answer server; started before the file's first test. */
	readonly server: GatedChatServer;
	/** A pane running `options.command`, closed after the current test. */
	startPane(options: PaneOptions): TmuxPane;
	/** The built CLI with `args` in a pane, in `home` (a new private one unless given), with `env` added. */
	startKeel(args: string[], options?: { home?: string; env?: Record<string, string> }): TmuxPane;
}

/** Registers the file's hooks; call once, at the top of a terminal test file. */
export function setUpTerminalTests(): TerminalTests {
	const skipReason = tmuxUnavailableReason();
	if (skipReason) console.warn(`Skipping the terminal tests: ${skipReason}`);
	let server: GatedChatServer | undefined;
	const panes: TmuxPane[] = [];

	beforeAll(async () => {
		assertCliBuilt();
		server = await GatedChatServer.start();
	});
	afterAll(async () => {
		await server?.close();
	});
	afterEach(() => {
		for (const pane of panes.splice(0)) pane.close();
	});

	const startPane = (options: PaneOptions): TmuxPane => {
		const pane = TmuxPane.start(options);
		panes.push(pane);
		return pane;
	};
	return {
		skipReason,
		get server() {
			if (!server) throw new Error("The terminal tests' server starts in beforeAll: use it inside a test.");
			return server;
		},
		startPane,
		startKeel: (args, options = {}) =>
			startPane({
				command: [process.execPath, CLI_PATH, ...args],
				env: isolatedEnvironment(options.home ?? createTemporaryHome(), options.env),
			}),
	};
}

/** Sends every piece of an answer, then ends it. */
export function sendAll(answer: HeldAnswer, pieces: string[]): void {
	for (const piece of pieces) answer.send(piece);
	answer.end();
}

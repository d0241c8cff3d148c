// Typing a line while `keel chat` writes an answer. The first key pauses the answer on screen (what
// it writes meanwhile is held, see holdable-output.ts) and opens the prompt on a fresh line, where
// readline edits the line as usual; so readline's echo never lands inside the streamed text. When
// the line is entered, or the answer ends first, the prompt's rows are erased, the cursor goes
// back to where the answer stopped, and what was held is written: the screen reads as if the
// answer had never paused. ANSI cursor movement: https://www.xfree86.org/current/ctlseqs.html
import type { Interface } from "node:readline";
import type { InputStream, OutputStream } from "../terminal.js";
import type { Conversation } from "./conversation.js";

interface Key {
	name?: string;
	ctrl?: boolean;
}

export class TypingDuringAnswer {
	private typing = false;
	/** The column the answer stopped at when typing began (undefined: at the start of a line). */
	private column: number | undefined;
	/** Set as Enter is pressed during an answer: how far above the prompt began, once readline has moved down. */
	private rowsAfterEnter: number | undefined;
	private closed = false;

	/**
	 * `active` says whether a key now belongs to a line typed during an answer (an answer is being
	 * written and no question waits for its own answer).
	 */
	constructor(
		private readonly readline: Interface,
		private readonly input: InputStream,
		private readonly stdout: OutputStream,
		private readonly conversation: Conversation,
		private readonly active: () => boolean,
	) {
		// Before readline's own listener, so the prompt is open before readline echoes the key.
		input.prependListener("keypress", this.onKeypress);
		readline.on("close", () => {
			this.closed = true;
			// Ctrl-D on an emptied line: the chat ends after this answer, which is shown from now on.
			this.finish();
		});
	}

	dispose(): void {
		this.input.removeListener("keypress", this.onKeypress);
	}

	/**
	 * Call with each line readline gives: true when it was typed during an answer, in which case the
	 * prompt is gone and the answer is shown again up to now, and the caller decides what the line is.
	 */
	takeLine(): boolean {
		const rows = this.rowsAfterEnter;
		if (rows === undefined) return false;
		this.rowsAfterEnter = undefined;
		this.typing = false;
		this.stdout.write(`\u001b[${rows}A\r\u001b[J`);
		this.conversation.releaseOutput(this.column);
		return true;
	}

	/**
	 * The answer ended or is being stopped while a line was being typed: the prompt is erased and
	 * the answer shown up to now. Returns what had been typed, for the caller to put back.
	 */
	finish(): string {
		if (!this.typing) return "";
		this.typing = false;
		const typed = this.readline.line;
		if (!this.closed) {
			// Readline erases its own rows (it knows how many the line took) and is left at a bare prompt.
			this.readline.write(null, { ctrl: true, name: "e" });
			this.readline.write(null, { ctrl: true, name: "u" });
		}
		this.stdout.write("\r\u001b[J");
		this.conversation.releaseOutput(this.column);
		return typed;
	}

	private readonly onKeypress = (_text: string | undefined, key: Key | undefined): void => {
		if (this.closed || !this.active()) return;
		const enter = key?.name === "return" || key?.name === "enter";
		if (!this.typing) {
			// Ctrl-C stops the answer and Ctrl-D ends the chat as always; neither opens a line.
			if (key?.ctrl === true && (key.name === "c" || key.name === "d")) return;
			this.typing = true;
			this.column = this.conversation.holdOutput();
			this.readline.prompt(true);
		}
		if (enter) {
			// Readline moves to the end of the line, then down one row, before it gives the line.
			this.readline.write(null, { ctrl: true, name: "e" });
			this.rowsAfterEnter = this.readline.getCursorPos().rows + 1;
		}
	};
}

// The answer's way to the terminal in `keel chat`, which can be held: while the user types a line
// during an answer, what the answer writes waits here instead of running through the line being
// typed, and goes out in order once the line is entered. It also keeps the column the answer has
// reached, so the answer can go on where it stopped after the typed line is erased.
import type { OutputStream } from "../terminal.js";

type Target = "stdout" | "stderr";

export class HoldableOutput {
	readonly stdout: OutputStream;
	readonly stderr: OutputStream;
	private held: { target: Target; text: string }[] | undefined;
	/** Display width written since the last line break (both streams share one terminal). */
	private lineWidth = 0;
	/** Only a terminal can be held (keel chat holds only there): piped output is not measured. */
	private readonly measure: boolean;

	constructor(private readonly real: { stdout: OutputStream; stderr: OutputStream }) {
		this.stdout = this.proxy("stdout");
		this.stderr = this.proxy("stderr");
		this.measure = real.stdout.isTTY === true;
	}

	get isHeld(): boolean {
		return this.held !== undefined;
	}

	/**
	 * Starts holding and moves the terminal to a fresh line for the user to type on. Returns the
	 * column the answer stopped at (to go back to with `resume`), or undefined when it stopped at the
	 * start of a line.
	 */
	hold(): number | undefined {
		if (this.held) return undefined;
		this.held = [];
		if (this.lineWidth === 0) return undefined;
		this.real.stdout.write("\n");
		const column = this.lineWidth % (this.real.stdout.columns ?? 80);
		// A row filled to the last column (the cursor still on it until the next character) would
		// wrap by itself: the answer goes on at the start of the fresh line.
		return column === 0 ? undefined : column;
	}

	/**
	 * Writes what was held, after the caller has put the cursor back where the answer stopped
	 * (`column`, from `hold`), and stops holding.
	 */
	release(column: number | undefined): void {
		const held = this.held ?? [];
		this.held = undefined;
		if (column !== undefined) this.real.stdout.write(`\u001b[1A\u001b[${column + 1}G`);
		for (const { target, text } of held) this.write(target, text);
	}

	private proxy(target: Target): OutputStream {
		const real = this.real[target];
		const output = this;
		return {
			write(text: string) {
				if (output.held) output.held.push({ target, text });
				else output.write(target, text);
				return true;
			},
			get isTTY() {
				return real.isTTY;
			},
			get columns() {
				return real.columns;
			},
		};
	}

	private write(target: Target, text: string): void {
		this.real[target].write(text);
		if (this.measure) this.lineWidth = widthAfter(this.lineWidth, text);
	}
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences start with ESC.
const ESCAPE_SEQUENCE = /\u001b\[[0-9;?]*[A-Za-z]/g;
// Characters two columns wide: East Asian wide and full-width forms, and emoji.
const WIDE =
	/[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;

/** The display width since the last line break after writing `text` at `width`. */
export function widthAfter(width: number, text: string): number {
	let result = width;
	for (const character of text.replace(ESCAPE_SEQUENCE, "")) {
		if (character === "\n" || character === "\r") result = 0;
		else if (character === "\t") result += 8 - (result % 8);
		else if (character < " " || ZERO_WIDTH.test(character)) continue;
		else result += WIDE.test(character) ? 2 : 1;
	}
	return result;
}

// Reads a secret typed at the terminal without echoing it, or the first line of piped stdin.
import { readAll, type Terminal } from "./terminal.js";

type RawInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(raw: boolean): unknown };

/** The secret, trimmed; undefined when input ended or Ctrl-C was pressed before Enter. */
export async function readSecret(terminal: Terminal, prompt: string): Promise<string | undefined> {
	const input = terminal.stdin as RawInput;
	if (input.isTTY !== true || typeof input.setRawMode !== "function") {
		const text = (await readAll(terminal.stdin)).split(/\r?\n/)[0]?.trim() ?? "";
		return text === "" ? undefined : text;
	}
	terminal.stderr.write(prompt);
	input.setRawMode(true);
	input.resume();
	try {
		return await new Promise<string | undefined>((resolve) => {
			let secret = "";
			const onData = (chunk: Buffer | string) => {
				for (const character of chunk.toString()) {
					if (character === "\r" || character === "\n") return finish(secret.trim());
					// Ctrl-C, Ctrl-D
					if (character === "\u0003" || character === "\u0004") return finish(undefined);
					// Backspace, Delete
					if (character === "\u007f" || character === "\b") secret = secret.slice(0, -1);
					else secret += character;
				}
			};
			const finish = (value: string | undefined) => {
				input.removeListener("data", onData);
				resolve(value === "" ? undefined : value);
			};
			input.on("data", onData);
		});
	} finally {
		input.setRawMode(false);
		input.pause();
		terminal.stderr.write("\n");
	}
}

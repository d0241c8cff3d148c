// What a command reads and writes: the three standard streams, the environment, and whether each
// stream is a terminal. Commands never touch `process` directly, so a test runs them in-process with
// in-memory streams, and `cli.ts` is the one place that hands over the real ones.

export interface OutputStream {
	write(text: string): unknown;
	isTTY?: boolean;
	columns?: number;
}

export type InputStream = NodeJS.ReadableStream & { isTTY?: boolean };

export interface Terminal {
	stdin: InputStream;
	stdout: OutputStream;
	stderr: OutputStream;
	env: Readonly<Record<string, string | undefined>>;
	/**
	 * Subscribes to Ctrl-C (SIGINT) for the duration of a command; returns the unsubscribe function.
	 * While at least one listener is registered the process does not exit on Ctrl-C.
	 */
	onInterrupt(listener: () => void): () => void;
}

/** ANSI styles, or plain text when colour is off. */
export interface Styles {
	readonly enabled: boolean;
	dim(text: string): string;
	bold(text: string): string;
	red(text: string): string;
	yellow(text: string): string;
	cyan(text: string): string;
}

/**
 * Colour on a stream: only on a terminal, never with `NO_COLOR` set to a non-empty value
 * (https://no-color.org) or `TERM=dumb`; `FORCE_COLOR` (non-empty, not "0") turns it on anywhere.
 */
export function colorEnabled(stream: OutputStream, env: Terminal["env"]): boolean {
	const force = env.FORCE_COLOR;
	if (force !== undefined && force !== "" && force !== "0" && force !== "false") return true;
	if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
	if (env.TERM === "dumb") return false;
	return stream.isTTY === true;
}

export function createStyles(enabled: boolean): Styles {
	const wrap = (open: number, close: number) => (text: string) =>
		enabled && text !== "" ? `\u001b[${open}m${text}\u001b[${close}m` : text;
	return {
		enabled,
		dim: wrap(2, 22),
		bold: wrap(1, 22),
		red: wrap(31, 39),
		yellow: wrap(33, 39),
		cyan: wrap(36, 39),
	};
}

/** Everything piped into stdin, as text. */
export async function readAll(input: InputStream): Promise<string> {
	const decoder = new TextDecoder();
	let text = "";
	for await (const chunk of input as AsyncIterable<Uint8Array | string>) {
		text += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
	}
	return text + decoder.decode();
}

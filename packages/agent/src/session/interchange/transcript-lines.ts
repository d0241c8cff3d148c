// Reading another tool's JSONL transcript (pi, Claude Code) as a whole before converting it: an
// import converts everything first and writes only when every line was understood, so bad input
// leaves nothing behind.

/** A transcript that cannot be imported (or exported): the message names the line and what is wrong. */
export class TranscriptInterchangeError extends Error {
	override name = "TranscriptInterchangeError";
	constructor(
		message: string,
		/** 1-based line of the source, when one line is to blame. */
		readonly line?: number,
	) {
		super(message);
	}
}

export type TranscriptLine = Record<string, unknown>;

/** The formats an import understands. */
export type ForeignTranscriptFormat = "pi" | "claude-code";

/**
 * Every line of a JSONL transcript as an object. Blank lines are skipped; a line that is not a JSON
 * object is an error naming it — the last line without its newline is reported as cut off (a file
 * still being written, or truncated), since JSON Lines ends every record with `\n`.
 */
export function parseTranscriptLines(text: string, source = "the transcript"): TranscriptLine[] {
	if (text.trim() === "") throw new TranscriptInterchangeError(`${source} is empty: there is nothing to import`);
	const lines = text.split("\n");
	const endsWithNewline = text.endsWith("\n");
	const parsed: TranscriptLine[] = [];
	for (let index = 0; index < lines.length; index++) {
		const line = lines[index].endsWith("\r") ? lines[index].slice(0, -1) : lines[index];
		if (line.trim() === "") continue;
		const lineNumber = index + 1;
		let value: unknown;
		try {
			value = JSON.parse(line);
		} catch (error) {
			const isLast = index === lines.length - 1 && !endsWithNewline;
			const reason = error instanceof Error ? error.message : String(error);
			throw new TranscriptInterchangeError(
				isLast
					? `${source}: line ${lineNumber} is cut off (${reason}): the file ends in the middle of a record — it may still be being written, or was truncated; nothing was imported`
					: `${source}: line ${lineNumber} is not valid JSON (${reason}); nothing was imported`,
				lineNumber,
			);
		}
		if (typeof value !== "object" || value === null || Array.isArray(value)) {
			throw new TranscriptInterchangeError(
				`${source}: line ${lineNumber} is not a JSON object; a transcript has one object per line`,
				lineNumber,
			);
		}
		parsed.push(value as TranscriptLine);
	}
	return parsed;
}

/**
 * Which tool wrote a transcript, from its lines: pi's session header (`{"type":"session","version":3,
 * "id", "cwd"}`, https://github.com/earendil-works/pi/blob/main/packages/coding-agent/docs/session-format.md)
 * or Claude Code's lines (`uuid` / `parentUuid` / `sessionId`). Keel's own header carries `v`.
 * Undefined when it is none of them.
 */
export function detectTranscriptFormat(lines: readonly TranscriptLine[]): ForeignTranscriptFormat | "keel" | undefined {
	const first = lines[0];
	if (first === undefined) return undefined;
	if (first.type === "session" && typeof first.v === "number") return "keel";
	if (first.type === "session" && typeof first.id === "string" && typeof first.timestamp === "string") return "pi";
	if (lines.some(isClaudeCodeLine)) return "claude-code";
	return undefined;
}

function isClaudeCodeLine(line: TranscriptLine): boolean {
	return (
		typeof line.uuid === "string" &&
		"parentUuid" in line &&
		typeof line.sessionId === "string" &&
		typeof line.type === "string" &&
		line.v === undefined
	);
}

/** A short description of a line for error messages (its type, never its content). */
export function describeLine(line: TranscriptLine | undefined): string {
	if (line === undefined) return "nothing";
	const keys = Object.keys(line).slice(0, 6).join(", ");
	return typeof line.type === "string"
		? `a line of type "${line.type}" (fields ${keys})`
		: `a line with fields ${keys}`;
}

/** An ISO date (or epoch milliseconds) as epoch milliseconds; `fallback` when it is neither. */
export function toEpochMilliseconds(value: unknown, fallback: number): number {
	if (typeof value === "number" && Number.isFinite(value)) return value;
	if (typeof value === "string") {
		const parsed = Date.parse(value);
		if (!Number.isNaN(parsed)) return parsed;
	}
	return fallback;
}

// Reads a JSONL file front to back in fixed-size chunks, handing each complete line to a visitor.
// Memory stays bounded by the chunk plus `maxLineBytes`: a longer line is skipped (its bytes are
// counted, never buffered) and reported as oversized. A last line without its newline is torn —
// the writer always ends a record with "\n" — and is reported, not parsed.

import type { FileHandle } from "node:fs/promises";
import type { TranscriptReadProblem } from "../session-types.js";

export interface ForwardLineOptions {
	maxLineBytes: number;
	/** Stop at this byte offset (the file's size when reading began). */
	endOffset: number;
	/** Start at this byte offset, which must be a line's start (default 0)… */
	startOffset?: number;
	/** …and count the line there as this one (default 1). */
	firstLineNumber?: number;
	chunkBytes?: number;
}

/** Returns false to stop reading. `lineBytes`: the line's size in the file, without its newline. */
export type ForwardLineVisitor = (
	text: string,
	lineNumber: number,
	byteOffset: number,
	lineBytes: number,
) => boolean | undefined;

const DEFAULT_CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 10;

export async function readLinesForward(
	handle: FileHandle,
	options: ForwardLineOptions,
	visit: ForwardLineVisitor,
	report: (problem: TranscriptReadProblem) => void,
): Promise<void> {
	const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
	// Two buffers in turn: the next chunk is read while this one's lines are parsed, so the disk (or
	// the page cache copy) and the parsing overlap instead of taking turns.
	const buffers = [Buffer.allocUnsafe(chunkBytes), Buffer.allocUnsafe(chunkBytes)];
	const readChunk = (into: Buffer, at: number) =>
		at < options.endOffset
			? handle.read(into, 0, Math.min(chunkBytes, options.endOffset - at), at)
			: Promise.resolve({ bytesRead: 0 });
	let turn = 0;
	let position = options.startOffset ?? 0;
	let nextRead = readChunk(buffers[0], position);
	let lineNumber = options.firstLineNumber ?? 1;
	let lineStart = position;
	let pending: Buffer[] = [];
	let pendingBytes = 0;
	let oversized = false;

	try {
		await readLines();
	} finally {
		// A visitor that stops early (or throws) leaves the read ahead running: it settles before the
		// caller may close the handle, and its failure, if any, is not left unhandled.
		await nextRead.catch(() => {});
	}

	async function readLines(): Promise<void> {
		while (position < options.endOffset) {
			const { bytesRead } = await nextRead;
			if (bytesRead === 0) break;
			const chunk = buffers[turn];
			turn = 1 - turn;
			nextRead = readChunk(buffers[turn], position + bytesRead);
			const view = bytesRead === chunkBytes ? chunk : chunk.subarray(0, bytesRead);
			let from = 0;
			for (;;) {
				const newline = view.indexOf(NEWLINE, from);
				if (newline === -1) {
					const rest = bytesRead - from;
					if (!oversized && pendingBytes + rest > options.maxLineBytes) {
						oversized = true;
						pending = [];
					}
					// The chunk buffer is reused by a later read, so a partial line is copied out.
					if (!oversized && rest > 0) pending.push(Buffer.from(view.subarray(from, bytesRead)));
					pendingBytes += rest;
					break;
				}
				const lineBytes = pendingBytes + newline - from;
				let keepGoing: boolean | undefined = true;
				if (oversized || lineBytes > options.maxLineBytes) {
					report({
						line: lineNumber,
						byteOffset: lineStart,
						kind: "oversized",
						message: `line ${lineNumber}: ${lineBytes} bytes is over the limit of ${options.maxLineBytes} bytes (maxLineBytes); the record was skipped`,
					});
				} else if (lineBytes > 0) {
					const text =
						pending.length === 0
							? view.toString("utf8", from, newline)
							: Buffer.concat([...pending, view.subarray(from, newline)]).toString("utf8");
					keepGoing = visit(text, lineNumber, lineStart, lineBytes);
				}
				pending = [];
				pendingBytes = 0;
				oversized = false;
				lineNumber++;
				lineStart = position + newline + 1;
				from = newline + 1;
				if (keepGoing === false) return;
			}
			position += bytesRead;
		}
	}
	if (pendingBytes > 0) {
		report({
			line: lineNumber,
			byteOffset: lineStart,
			kind: "torn-last-line",
			message: `line ${lineNumber}: the last line (${pendingBytes} bytes) has no newline: a write was cut short (the writing process died or a write is in progress); it was set aside`,
		});
	}
}

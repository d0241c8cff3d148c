// Reads a JSONL file back to front in fixed-size blocks, so the last lines of a file of any size cost
// the same. Lines are numbered from the end (-1 is the last line). A line longer than
// `maxLineBytes` is skipped and reported; a last line without its newline is reported as torn.

import type { FileHandle } from "node:fs/promises";
import type { TranscriptReadProblem } from "../session-types.js";

export interface BackwardLineOptions {
	maxLineBytes: number;
	/** The file's size when reading began. */
	endOffset: number;
	blockBytes?: number;
}

/** Gets the raw bytes so a caller can skip a line without decoding it; returns false to stop. */
export type BackwardLineVisitor = (bytes: Buffer, lineFromEnd: number, byteOffset: number) => boolean | undefined;

const DEFAULT_BLOCK_BYTES = 64 * 1024;
const NEWLINE = 10;

export async function readLinesBackward(
	handle: FileHandle,
	options: BackwardLineOptions,
	visit: BackwardLineVisitor,
	report: (problem: TranscriptReadProblem) => void,
): Promise<void> {
	const blockBytes = options.blockBytes ?? DEFAULT_BLOCK_BYTES;
	let position = options.endOffset;
	/** Where the line being assembled ends (the offset of its newline, or the end of the file). */
	let lineEnd = options.endOffset;
	let parts: Buffer[] = [];
	let partsBytes = 0;
	let oversized = false;
	let lineFromEnd = 0;
	let atFileEnd = true;

	/** Handles the line [start, lineEnd); returns false to stop. */
	const finishLine = (start: number, head: Buffer): boolean => {
		const length = lineEnd - start;
		const isLastSegment = atFileEnd;
		atFileEnd = false;
		let keepGoing: boolean | undefined = true;
		// The bytes after the last newline: empty when the file ends with a newline, as the writer leaves it.
		if (isLastSegment && length === 0) return true;
		lineFromEnd--;
		if (isLastSegment) {
			report({
				line: lineFromEnd,
				byteOffset: start,
				kind: "torn-last-line",
				message: `the last line (${length} bytes) has no newline: a write was cut short (the writing process died or a write is in progress); it was set aside`,
			});
		} else if (oversized || length > options.maxLineBytes) {
			report({
				line: lineFromEnd,
				byteOffset: start,
				kind: "oversized",
				message: `line ${lineFromEnd} (from the end): ${length} bytes is over the limit of ${options.maxLineBytes} bytes (maxLineBytes); the record was skipped`,
			});
		} else if (length > 0) {
			keepGoing = visit(parts.length === 0 ? head : Buffer.concat([head, ...parts]), lineFromEnd, start);
		}
		parts = [];
		partsBytes = 0;
		oversized = false;
		return keepGoing !== false;
	};

	while (position > 0) {
		const size = Math.min(blockBytes, position);
		position -= size;
		// A fresh block each time: pieces of a line spanning blocks keep referring to it.
		const block = Buffer.allocUnsafe(size);
		const { bytesRead } = await handle.read(block, 0, size, position);
		if (bytesRead < size) throw new Error(`the file shrank while it was read backwards (at byte ${position})`);
		let to = size;
		while (to > 0) {
			const newline = block.lastIndexOf(NEWLINE, to - 1);
			if (newline === -1) break;
			if (!finishLine(position + newline + 1, block.subarray(newline + 1, to))) return;
			lineEnd = position + newline;
			to = newline;
		}
		if (to > 0) {
			if (!oversized && partsBytes + to > options.maxLineBytes) {
				oversized = true;
				parts = [];
			}
			if (!oversized) parts.unshift(block.subarray(0, to));
			partsBytes += to;
		}
	}
	if (lineEnd > 0 || atFileEnd) {
		const head = parts.length > 0 ? (parts.shift() as Buffer) : Buffer.alloc(0);
		finishLine(0, head);
	}
}

// Run when a writer opens a transcript: a last line without its newline is what a process killed in
// the middle of an append leaves behind. Its bytes are copied to `<file>.torn-<time>` (set aside for
// inspection, never glued to the next record) and the transcript is truncated back to the end of its
// last complete line, so every earlier record is intact and the next append starts a fresh line.

import { closeSync, fsyncSync, ftruncateSync, openSync, readSync, writeSync } from "node:fs";
import { basename } from "node:path";
import type { TranscriptReadProblem } from "../session-types.js";
import { OWNER_ONLY_FILE_MODE } from "./owner-only-modes.js";

const BLOCK_BYTES = 64 * 1024;
const NEWLINE = 10;

/** Returns the problem it repaired, if any; `size` is the file's size. */
export function setAsideTornTail(path: string, size: number): TranscriptReadProblem | undefined {
	if (size === 0) return undefined;
	const descriptor = openSync(path, "r+");
	try {
		const last = Buffer.alloc(1);
		readSync(descriptor, last, 0, 1, size - 1);
		if (last[0] === NEWLINE) return undefined;
		const keep = findLastNewline(descriptor, size) + 1;
		const asidePath = `${path}.torn-${Date.now()}`;
		copyRange(descriptor, keep, size, asidePath);
		ftruncateSync(descriptor, keep);
		fsyncSync(descriptor);
		return {
			line: -1,
			byteOffset: keep,
			kind: "torn-last-line",
			message: `the last line (${size - keep} bytes at byte ${keep}) had no newline: an append was cut short. It was moved to ${basename(asidePath)} and every earlier record is intact`,
		};
	} finally {
		closeSync(descriptor);
	}
}

function findLastNewline(descriptor: number, size: number): number {
	const block = Buffer.allocUnsafe(BLOCK_BYTES);
	let position = size;
	while (position > 0) {
		const length = Math.min(BLOCK_BYTES, position);
		position -= length;
		readSync(descriptor, block, 0, length, position);
		const index = block.subarray(0, length).lastIndexOf(NEWLINE);
		if (index !== -1) return position + index;
	}
	return -1;
}

function copyRange(descriptor: number, start: number, end: number, targetPath: string): void {
	const target = openSync(targetPath, "wx", OWNER_ONLY_FILE_MODE);
	try {
		const chunk = Buffer.allocUnsafe(1024 * 1024);
		for (let position = start; position < end; ) {
			const read = readSync(descriptor, chunk, 0, Math.min(chunk.length, end - position), position);
			if (read === 0) break;
			writeSync(target, chunk, 0, read);
			position += read;
		}
		fsyncSync(target);
	} finally {
		closeSync(target);
	}
}

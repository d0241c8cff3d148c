// Finds the last line of a file that holds some bytes, searching back from the end one large block
// at a time with Buffer.lastIndexOf (a native search), without splitting the file into lines: even
// a whole transcript searched in vain costs little next to parsing it.

import type { FileHandle } from "node:fs/promises";

const BLOCK_BYTES = 1024 * 1024;
const NEWLINE = 10;

/**
 * The offset where the last line holding `marker` starts, or undefined when no line holds it. The
 * search stops at byte `from` (a marker before it, or across it, is not looked for): a caller that
 * only cares about the file's end does not read the rest.
 */
export async function lastLineMentioning(
	handle: FileHandle,
	size: number,
	marker: Buffer,
	blockBytes = BLOCK_BYTES,
	from = 0,
): Promise<number | undefined> {
	if (marker.length === 0) throw new RangeError("the bytes to search for must not be empty");
	// Each block also reads the marker's length less one byte past its end, so a marker across two
	// blocks is found whole in the earlier one.
	const buffer = Buffer.allocUnsafe(blockBytes + marker.length - 1);
	let end = size;
	while (end > from) {
		const start = Math.max(from, end - blockBytes);
		const length = Math.min(size, end + marker.length - 1) - start;
		const { bytesRead } = await handle.read(buffer, 0, length, start);
		const found = buffer.subarray(0, bytesRead).lastIndexOf(marker);
		if (found !== -1) return lineStart(handle, buffer, start, found);
		end = start;
	}
	return undefined;
}

/** Where the line holding the byte at `start + index` begins; `buffer` holds the file from `start`. */
async function lineStart(handle: FileHandle, buffer: Buffer, start: number, index: number): Promise<number> {
	let blockStart = start;
	let newline = index === 0 ? -1 : buffer.lastIndexOf(NEWLINE, index - 1);
	while (newline === -1 && blockStart > 0) {
		const end = blockStart;
		blockStart = Math.max(0, end - buffer.length);
		const { bytesRead } = await handle.read(buffer, 0, end - blockStart, blockStart);
		newline = buffer.subarray(0, bytesRead).lastIndexOf(NEWLINE);
	}
	return newline === -1 ? 0 : blockStart + newline + 1;
}

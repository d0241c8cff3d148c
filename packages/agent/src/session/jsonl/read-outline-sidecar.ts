// Reading a transcript through its outline index (outline-sidecar-format.ts): each covered line is
// handed over as its outline, or — where the index says so — to be read in full, in file order,
// until the index ends, stops matching, or reaches `fullFrom`. The caller parses the transcript in
// full from where this stopped. Anything wrong with the index only ends what it covers: it is a
// cache, never reported as a problem of the session.

import { type FileHandle, open } from "node:fs/promises";
import type { SessionMessageRecord } from "../session-types.js";
import { inspectOutlineSidecar } from "./outline-sidecar-coverage.js";
import { OutlineSidecarEntryReader } from "./outline-sidecar-entry-reader.js";
import { outlineSidecarPath } from "./session-file-names.js";

/** An index line is an outline of a few hundred bytes: a longer one is damage, and ends the index. */
const INDEX_LINE_MAX_BYTES = 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 10;

export interface IndexedLineVisitors {
	outline(record: SessionMessageRecord, lineNumber: number, byteOffset: number, bytes: number): void;
	/** Reads the line in full; false when the transcript does not hold the line the index describes. */
	fullLine(lineNumber: number, byteOffset: number, bytes: number): boolean;
}

/** Where the covered prefix ended: the transcript's next line starts at `from`, as line `lineNumber`. */
export interface IndexedPrefixEnd {
	from: number;
	lineNumber: number;
	/**
	 * Where, in the index, the entry that did not match the transcript (or was not an entry) starts,
	 * when that is what ended the prefix: the index's writer drops it and what follows.
	 */
	damagedAt?: number;
}

export async function visitIndexedLines(
	transcriptPath: string,
	transcript: FileHandle,
	transcriptSize: number,
	sessionId: string,
	fullFrom: number,
	visitors: IndexedLineVisitors,
): Promise<IndexedPrefixEnd> {
	const end: IndexedPrefixEnd = { from: 0, lineNumber: 1 };
	let index: FileHandle;
	try {
		index = await open(outlineSidecarPath(transcriptPath), "r");
	} catch {
		return end; // No index (a session written before it existed): everything is parsed in full.
	}
	try {
		const coverage = inspectOutlineSidecar(index.fd, (await index.stat()).size, transcript.fd, transcriptSize);
		if (!coverage || coverage.coveredEnd === 0) return end;
		let damaged = false;
		const entry = new OutlineSidecarEntryReader(sessionId);
		const stoppedAt = await readIndexLines(index, coverage.indexBytes, (bytes, start, lineEnd) => {
			const read = entry.read(bytes, start, lineEnd);
			if (
				read &&
				entry.offset === end.from &&
				(entry.offset >= fullFrom || entry.offset + entry.length >= coverage.coveredEnd)
			) {
				return false;
			}
			damaged =
				!read ||
				entry.offset !== end.from ||
				(entry.outline === undefined && !visitors.fullLine(end.lineNumber, entry.offset, entry.length));
			if (damaged) return false;
			if (entry.outline) visitors.outline(entry.outline, end.lineNumber, entry.offset, entry.length);
			end.from = entry.offset + entry.length + 1;
			end.lineNumber++;
			return true;
		});
		if (damaged) end.damagedAt = stoppedAt;
	} finally {
		await index.close();
	}
	return end;
}

/**
 * Hands each entry line of the index's first `indexBytes` bytes (all complete lines) to `visit` as a
 * range of the buffer a chunk was read into, valid during the call only. Stops when `visit` returns
 * false, returning where that line starts in the index (undefined: every line was visited, or an
 * overlong one ended the reading).
 */
async function readIndexLines(
	index: FileHandle,
	indexBytes: number,
	visit: (bytes: Buffer, start: number, end: number) => boolean,
): Promise<number | undefined> {
	// Room for a chunk after the start of a line the previous chunk ended in the middle of (at most
	// INDEX_LINE_MAX_BYTES): that start is moved to the front and the next chunk read in behind it,
	// rather than both copied into a new buffer for every chunk.
	const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, indexBytes) + INDEX_LINE_MAX_BYTES);
	let position = 0;
	let carried = 0;
	let header = true;
	while (position < indexBytes) {
		const room = Math.min(CHUNK_BYTES, indexBytes - position);
		const { bytesRead } = await index.read(buffer, carried, room, position);
		if (bytesRead === 0) return undefined;
		position += bytesRead;
		const filled = carried + bytesRead;
		const lastNewline = buffer.lastIndexOf(NEWLINE, filled - 1);
		if (lastNewline === -1) {
			if (filled > INDEX_LINE_MAX_BYTES) return undefined;
			carried = filled;
			continue;
		}
		let start = 0;
		while (start <= lastNewline) {
			const lineEnd = buffer.indexOf(NEWLINE, start);
			// The header, checked by inspectOutlineSidecar.
			if (!header && !visit(buffer, start, lineEnd)) return position - filled + start;
			header = false;
			start = lineEnd + 1;
		}
		// What follows the last newline is the start of a line the next chunk ends.
		carried = buffer.copy(buffer, 0, lastNewline + 1, filled);
		if (carried > INDEX_LINE_MAX_BYTES) return undefined;
	}
	return undefined;
}

// How much of a transcript its outline index (outline-sidecar-format.ts) may be trusted for, decided
// from the index's first line and its last entries alone, so a reader or writer checks a 20 MB index
// in two small reads. The index is trusted only when its header names this transcript's line 1, and
// only up to its last complete entry that lies inside the transcript and ends where the transcript
// has a newline: what a torn tail set aside, a truncation or a lost write left behind is not covered.
// Contiguity of the entries before it is checked by the reader as it goes.

import { readSync } from "node:fs";
import { OutlineSidecarEntryReader } from "./outline-sidecar-entry-reader.js";
import { outlineSidecarHeader } from "./outline-sidecar-format.js";

/** A longer line 1 (a header with a huge title) gets no index: it is read in full, as before. */
const FIRST_LINE_MAX_BYTES = 1024 * 1024;
const TAIL_BYTES = 64 * 1024;
const NEWLINE = 10;

export interface OutlineSidecarCoverage {
	/** The index's header line (with its newline). */
	header: string;
	/** Where, in the index, the trusted entries end (after the last one's newline). */
	indexBytes: number;
	/** Where, in the transcript, the trusted entries' lines end: the first line not covered starts here. */
	coveredEnd: number;
}

/** Line 1 of the transcript without its newline; undefined when it has none (yet) or is too long. */
export function readFirstLine(transcriptFd: number, transcriptSize: number): Buffer | undefined {
	const head = Buffer.allocUnsafe(Math.min(FIRST_LINE_MAX_BYTES, transcriptSize));
	const bytesRead = readSync(transcriptFd, head, 0, head.length, 0);
	const newline = head.subarray(0, bytesRead).indexOf(NEWLINE);
	return newline === -1 ? undefined : head.subarray(0, newline);
}

/**
 * What the index open as `indexFd` (`indexSize` bytes) covers of the transcript open as
 * `transcriptFd`; undefined when the index belongs to another transcript, is of an unknown version
 * or is damaged where it was checked.
 */
export function inspectOutlineSidecar(
	indexFd: number,
	indexSize: number,
	transcriptFd: number,
	transcriptSize: number,
): OutlineSidecarCoverage | undefined {
	const firstLine = readFirstLine(transcriptFd, transcriptSize);
	if (!firstLine) return undefined;
	const header = outlineSidecarHeader(firstLine);
	const head = Buffer.allocUnsafe(Math.min(header.length, indexSize));
	const headRead = readSync(indexFd, head, 0, head.length, 0);
	if (headRead !== header.length || head.toString("latin1") !== header) return undefined;
	// The last complete entries, newest first, until one lies inside the transcript and ends at one
	// of its newlines.
	const tailStart = Math.max(header.length, indexSize - TAIL_BYTES);
	const tail = Buffer.allocUnsafe(indexSize - tailStart);
	const tailRead = readSync(indexFd, tail, 0, tail.length, tailStart);
	let lineEnd = tail.subarray(0, tailRead).lastIndexOf(NEWLINE);
	const newlineByte = Buffer.allocUnsafe(1);
	const entry = new OutlineSidecarEntryReader("");
	while (lineEnd !== -1) {
		const previous = lineEnd === 0 ? -1 : tail.lastIndexOf(NEWLINE, lineEnd - 1);
		// A line starting before the tail read (cut off at its start) cannot be judged: stop there.
		if (previous === -1 && tailStart !== header.length) return undefined;
		if (!entry.read(tail, previous + 1, lineEnd, false)) return undefined;
		const end = entry.offset + entry.length;
		if (end < transcriptSize && readSync(transcriptFd, newlineByte, 0, 1, end) === 1 && newlineByte[0] === NEWLINE) {
			return { header, indexBytes: tailStart + lineEnd + 1, coveredEnd: end + 1 };
		}
		lineEnd = previous;
	}
	// No entry fits (or there is none yet): only the header is trusted.
	return { header, indexBytes: header.length, coveredEnd: 0 };
}

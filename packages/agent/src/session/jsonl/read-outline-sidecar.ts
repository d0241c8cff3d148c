// Reading a transcript through its outline index (outline-sidecar-format.ts): each covered line is
// handed over as its outline, or — where the index says so — to be read in full, in file order,
// until the index ends, stops matching, or reaches `fullFrom`. The caller parses the transcript in
// full from where this stopped. Anything wrong with the index only ends what it covers: it is a
// cache, never reported as a problem of the session.

import { type FileHandle, open } from "node:fs/promises";
import type { SessionMessageRecord } from "../session-types.js";
import { inspectOutlineSidecar } from "./outline-sidecar-coverage.js";
import { parseOutlineSidecarEntry } from "./outline-sidecar-format.js";
import { readLinesForward } from "./read-lines-forward.js";
import { outlineSidecarPath } from "./session-file-names.js";

/** An index line is an outline of a few hundred bytes: a longer one is damage, and ends the index. */
const INDEX_LINE_MAX_BYTES = 1024 * 1024;

export interface IndexedLineVisitors {
	outline(record: SessionMessageRecord, lineNumber: number, byteOffset: number, bytes: number): void;
	/** Reads the line in full; false when the transcript does not hold the line the index describes. */
	fullLine(lineNumber: number, byteOffset: number, bytes: number): boolean;
}

/** Where the covered prefix ended: the transcript's next line starts at `from`, as line `lineNumber`. */
export interface IndexedPrefixEnd {
	from: number;
	lineNumber: number;
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
		await readLinesForward(
			index,
			{ maxLineBytes: INDEX_LINE_MAX_BYTES, endOffset: coverage.indexBytes },
			(text, indexLine) => {
				if (indexLine === 1) return true; // The header, checked by inspectOutlineSidecar.
				const entry = parseOutlineSidecarEntry(text, sessionId, true);
				if (
					!entry ||
					entry.offset !== end.from ||
					entry.offset >= fullFrom ||
					entry.offset + entry.length >= coverage.coveredEnd
				) {
					return false;
				}
				if (entry.outline) visitors.outline(entry.outline, end.lineNumber, entry.offset, entry.length);
				else if (!visitors.fullLine(end.lineNumber, entry.offset, entry.length)) return false;
				end.from = entry.offset + entry.length + 1;
				end.lineNumber++;
				return true;
			},
			() => {},
		);
	} finally {
		await index.close();
	}
	return end;
}

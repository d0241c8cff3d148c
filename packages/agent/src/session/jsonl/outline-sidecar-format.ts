// The outline index beside a JSONL transcript, `<transcript>.outline`: one line per transcript line
// in file order, so opening a huge session with load: "context" reads ~100 bytes per message instead
// of parsing its full record (the SQLite and PostgreSQL stores keep the same outline in a column).
// It is a cache, never the record: a reader trusts it only for the prefix of the transcript it
// covers and that still matches, and parses everything else in full.
//
// Format, version 2 (text, "\n"-terminated lines; a line without its newline is being written):
//   keel-outline 2 <first-line hash>                  the header: format, version, and the first 32
//                                                    hex digits of the SHA-256 of the transcript's
//                                                    line 1 (its header record), which ties the index
//                                                    to this transcript and not to an older one of the
//                                                    same name
//   <byte offset> <length> <outline fields>          a user, assistant or tool-result message whose
//                                                    fields are printable ASCII: its line's offset and
//                                                    size (without the newline), then the fields of
//                                                    outlineMessageRecord's result, tab-separated
//                                                    (outline-sidecar-fields.ts)
//   <byte offset> <length> <outline JSON>            any other message with an outline: its
//                                                    outlineMessageRecord result as JSON, without the
//                                                    session id
//   <byte offset> <length> -                         any other line: read it in full (headers, titles,
//                                                    labels, tombstones, compaction boundaries, lines
//                                                    of an older format or that did not parse)
// The entries are contiguous from byte 0: each starts where the previous line's newline ends.
// Version 1 held every outline as JSON; its files are not read (their header is not this version's)
// and the writer starts them again. Plain fields are read without JSON.parse, each outline built
// at once in its final shape: JSON.parse made a reader spend most of its time on the index.

import { createHash } from "node:crypto";
import type { ParsedSessionRecord } from "../record-format.js";
import { SESSION_FORMAT_VERSION } from "../session-types.js";
import { outlineJson } from "./outline-json.js";
import { outlineFields } from "./outline-sidecar-fields.js";

/** The outline's JSON, when it reads back as what it was: JSON has no NaN nor Infinity for a time. */
function jsonOutline(record: ParsedSessionRecord): string | undefined {
	return Number.isFinite((record as { timestamp?: unknown }).timestamp) ? outlineJson(record) : undefined;
}

const HEADER_PREFIX = "keel-outline 2 ";
const READ_IN_FULL = "-";

/** The index's first line for a transcript whose line 1 (without its newline) is `firstLine`. */
export function outlineSidecarHeader(firstLine: Uint8Array): string {
	return `${HEADER_PREFIX}${createHash("sha256").update(firstLine).digest("hex").slice(0, 32)}\n`;
}

/**
 * Writes the entries of one index, in order: a message's parent is left out when it is the message
 * of the entry before (see outline-sidecar-fields.ts), so the entries depend on those before them.
 */
export class OutlineSidecarEntries {
	/** The id of the message the last entry outlined; undefined when it outlined none. */
	private previousId: string | undefined;

	/** The next entry will follow entries this writer did not write (an index opened again). */
	restart(): void {
		this.previousId = undefined;
	}

	/**
	 * The entry of a transcript line holding `records` (undefined: the line did not parse). Only a
	 * message of the current format gets an outline: a line an older format's migration rewrites, or
	 * that holds more than one record, is read in full, so the outline is always what parsing the
	 * line would give.
	 */
	entry(offset: number, length: number, records: readonly ParsedSessionRecord[] | undefined): string {
		const record = records?.length === 1 ? records[0] : undefined;
		let outline: string | undefined;
		try {
			outline =
				record && (record as { v?: unknown }).v === SESSION_FORMAT_VERSION
					? (outlineFields(record, this.previousId) ?? jsonOutline(record))
					: undefined;
		} catch {
			// A record the writer took but whose message has no outline's shape (a content that is not
			// a list of blocks): read in full, where a reader finds what is wrong with it.
			outline = undefined;
		}
		this.previousId = outline === undefined ? undefined : (record as { id: string }).id;
		return `${offset} ${length} ${outline ?? READ_IN_FULL}\n`;
	}
}

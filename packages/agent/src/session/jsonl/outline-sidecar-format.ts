// The outline index beside a JSONL transcript, `<transcript>.outline`: one line per transcript line
// in file order, so opening a huge session with load: "context" reads ~200 bytes per message instead
// of parsing its full record (the SQLite and PostgreSQL stores keep the same outline in a column).
// It is a cache, never the record: a reader trusts it only for the prefix of the transcript it
// covers and that still matches, and parses everything else in full.
//
// Format, version 1 (text, "\n"-terminated lines; a line without its newline is being written):
//   keel-outline 1 <first-line hash>                  the header: format, version, and the first 32
//                                                    hex digits of the SHA-256 of the transcript's
//                                                    line 1 (its header record), which ties the index
//                                                    to this transcript and not to an older one of the
//                                                    same name
//   <byte offset> <length> <outline JSON>            a message: its line's offset and size (without
//                                                    the newline) and outlineMessageRecord's result
//                                                    as JSON, without the session id
//   <byte offset> <length> -                         any other line: read it in full (headers, titles,
//                                                    labels, tombstones, compaction boundaries, lines
//                                                    of an older format or that did not parse)
// The entries are contiguous from byte 0: each starts where the previous line's newline ends.

import { createHash } from "node:crypto";
import type { ParsedSessionRecord } from "../record-format.js";
import { SESSION_FORMAT_VERSION, type SessionMessageRecord } from "../session-types.js";
import { outlineJson } from "./outline-json.js";

const HEADER_PREFIX = "keel-outline 1 ";
const READ_IN_FULL = "-";

/** The index's first line for a transcript whose line 1 (without its newline) is `firstLine`. */
export function outlineSidecarHeader(firstLine: Uint8Array): string {
	return `${HEADER_PREFIX}${createHash("sha256").update(firstLine).digest("hex").slice(0, 32)}\n`;
}

/**
 * The entry of a transcript line holding `records` (undefined: the line did not parse). Only a
 * message of the current format gets an outline: a line an older format's migration rewrites, or
 * that holds more than one record, is read in full, so the outline is always what parsing the line
 * would give.
 */
export function outlineSidecarEntry(
	offset: number,
	length: number,
	records: readonly ParsedSessionRecord[] | undefined,
): string {
	const record = records?.length === 1 ? records[0] : undefined;
	let outline: string | undefined;
	try {
		outline = record && (record as { v?: unknown }).v === SESSION_FORMAT_VERSION ? outlineJson(record) : undefined;
	} catch {
		// A record the writer took but whose message has no outline's shape (a content that is not a
		// list of blocks): read in full, where a reader finds what is wrong with it.
		outline = undefined;
	}
	return `${offset} ${length} ${outline ?? READ_IN_FULL}\n`;
}

/** One entry as read back; `outline` undefined: read the line in full. */
export interface OutlineSidecarEntry {
	offset: number;
	length: number;
	outline: SessionMessageRecord | undefined;
}

/**
 * Parses the entry line `text.slice(start, end)` (without its newline); undefined when it is not a
 * well-formed entry, which ends what the index covers. The outline is parsed only when
 * `withOutline` is true (else only the line's place is wanted, and `outline` is undefined). Taking
 * the line as a range lets a reader decode a whole chunk of the index at once.
 */
export function parseOutlineSidecarEntry(
	text: string,
	start: number,
	end: number,
	sessionId: string,
	withOutline: boolean,
): OutlineSidecarEntry | undefined {
	const firstSpace = text.indexOf(" ", start);
	const secondSpace = firstSpace === -1 || firstSpace >= end ? -1 : text.indexOf(" ", firstSpace + 1);
	if (secondSpace === -1 || secondSpace + 1 >= end) return undefined;
	const offset = parseDecimal(text, start, firstSpace);
	const length = parseDecimal(text, firstSpace + 1, secondSpace);
	if (offset === undefined || length === undefined || length === 0) return undefined;
	if (end === secondSpace + 2 && text[secondSpace + 1] === READ_IN_FULL) return { offset, length, outline: undefined };
	if (text[secondSpace + 1] !== "{") return undefined;
	if (!withOutline) return { offset, length, outline: undefined };
	let outline: SessionMessageRecord;
	try {
		outline = JSON.parse(text.slice(secondSpace + 1, end)) as SessionMessageRecord;
	} catch {
		return undefined;
	}
	if (!isOutline(outline)) return undefined;
	outline.sessionId = sessionId;
	return { offset, length, outline };
}

function parseDecimal(text: string, start: number, end: number): number | undefined {
	if (end === start || end - start > 15) return undefined;
	let value = 0;
	for (let index = start; index < end; index++) {
		const digit = text.charCodeAt(index) - 48;
		if (digit < 0 || digit > 9) return undefined;
		value = value * 10 + digit;
	}
	return value;
}

/** The shape outlineMessageRecord gives: enough for a garbled line never to reach the session tree. */
function isOutline(value: unknown): value is SessionMessageRecord {
	const record = value as Partial<SessionMessageRecord> | null;
	return (
		typeof record === "object" &&
		record !== null &&
		record.type === "message" &&
		typeof record.id === "string" &&
		typeof record.timestamp === "number" &&
		(record.parentId === null || typeof record.parentId === "string") &&
		typeof record.message === "object" &&
		record.message !== null &&
		typeof (record.message as { role?: unknown }).role === "string"
	);
}

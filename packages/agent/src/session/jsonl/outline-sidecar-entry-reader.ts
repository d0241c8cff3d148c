// Reads the entries of an outline index (outline-sidecar-format.ts) in order, from the bytes of the
// index as read: no decoding of the whole index, one new string per id or tool-call id, and each
// outline built in outlineMessageRecord's shape.

import { outlineMessageRecord } from "../context-loading.js";
import type { SessionMessageRecord } from "../session-types.js";
import { OutlineFieldsReader } from "./outline-sidecar-fields.js";

const SPACE = 32;
const DIGIT_0 = 48;
const READ_IN_FULL = 45; // "-"
const JSON_OBJECT = 123; // "{"
const MAX_DIGITS = 15;

/**
 * One reader per pass over an index, fed its entry lines in order (an entry may depend on the one
 * before it). After a `read` that returned true, `offset`, `length` and `outline` describe the entry.
 */
export class OutlineSidecarEntryReader {
	/** Where the entry's transcript line starts. */
	offset = 0;
	/** The line's size, without its newline. */
	length = 0;
	/** The line's outline; undefined: read the line in full (or `read` was asked for its place only). */
	outline: SessionMessageRecord | undefined = undefined;
	/** The id the entry before outlined: a plain outline's empty parent id means that one. */
	private previousId: string | undefined;
	private readonly fields: OutlineFieldsReader;

	constructor(private readonly sessionId: string) {
		this.fields = new OutlineFieldsReader(sessionId);
	}

	/**
	 * Reads the entry line `bytes[start, end)` (without its newline); false when it is not a
	 * well-formed entry, which ends what the index covers. With `withOutline` false only the line's
	 * place is read (and `outline` is undefined): for a check of the index's last entries, out of order.
	 */
	read(bytes: Buffer, start: number, end: number, withOutline = true): boolean {
		const firstSpace = bytes.indexOf(SPACE, start);
		const secondSpace = firstSpace === -1 || firstSpace >= end ? -1 : bytes.indexOf(SPACE, firstSpace + 1);
		if (secondSpace === -1 || secondSpace + 1 >= end) return false;
		const offset = parseDecimal(bytes, start, firstSpace);
		const length = parseDecimal(bytes, firstSpace + 1, secondSpace);
		if (offset === -1 || length <= 0) return false;
		this.offset = offset;
		this.length = length;
		this.outline = undefined;
		const body = secondSpace + 1;
		if (end === body + 1 && bytes[body] === READ_IN_FULL) {
			this.previousId = undefined;
			return true;
		}
		if (!withOutline) return true;
		const outline =
			bytes[body] === JSON_OBJECT
				? jsonOutline(bytes.toString("utf8", body, end), this.sessionId)
				: this.fields.read(bytes, body, end, this.previousId);
		if (!outline) return false;
		this.outline = outline;
		this.previousId = outline.id;
		return true;
	}
}

function parseDecimal(bytes: Buffer, start: number, end: number): number {
	if (end === start || end - start > MAX_DIGITS) return -1;
	let value = 0;
	for (let index = start; index < end; index++) {
		const digit = bytes[index] - DIGIT_0;
		if (digit < 0 || digit > 9) return -1;
		value = value * 10 + digit;
	}
	return value;
}

/** An outline written as JSON, rebuilt by outlineMessageRecord so it has that shape; undefined if garbled. */
function jsonOutline(text: string, sessionId: string): SessionMessageRecord | undefined {
	try {
		const parsed = JSON.parse(text) as unknown;
		return isOutline(parsed) ? outlineMessageRecord(parsed, sessionId) : undefined;
	} catch {
		return undefined;
	}
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

// How a database store's `readAt` checks the positions it is asked for and hands the rows back:
// the helpers the SQLite and PostgreSQL stores share, pinned once here.
import { describe, expect, it } from "vitest";
import { assertRecordPositions, recordsAtPositions, serializeSessionRecord } from "../src/session/index.js";
import { userRecord } from "./session-fixtures.js";

const first = userRecord("s1", "u1", null, "first");
const second = userRecord("s1", "u2", "u1", "second");
const rows = [
	{ seq: 1, line: serializeSessionRecord(first) },
	{ seq: 2, line: serializeSessionRecord(second) },
];

describe("the positions a database store's readAt accepts", () => {
	it("accepts integer positions from 1", () => {
		expect(() => assertRecordPositions("s1", [1, 2, 40])).not.toThrow();
	});

	it.each([0, -1, 1.5, Number.NaN])("refuses position %s with a RangeError naming the session", (position) => {
		expect(() => assertRecordPositions("s1", [1, position])).toThrow(RangeError);
		expect(() => assertRecordPositions("s1", [1, position])).toThrow(
			`position ${position} is not a record of session "s1" (positions start at 1)`,
		);
	});
});

describe("the records a database store's readAt hands back", () => {
	it("returns the records in the order asked, a repeated position twice", () => {
		const ids = recordsAtPositions("s1", [2, 1, 2], rows).map((record) => (record as { id: string }).id);
		expect(ids).toEqual(["u2", "u1", "u2"]);
	});

	it("reads PostgreSQL's bigint seq, returned as a string, as the same position", () => {
		const records = recordsAtPositions("s1", [2], [{ seq: "2", line: rows[1].line }]);
		expect(records).toEqual([second]);
	});

	it("refuses a position with no row rather than leaving its record out", () => {
		expect(() => recordsAtPositions("s1", [1, 3], rows)).toThrow(
			new RangeError('position 3 is not a record of session "s1"'),
		);
	});
});

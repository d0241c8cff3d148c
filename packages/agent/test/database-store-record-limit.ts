// A record larger than a database store's `maxRecordBytes`, the same behaviour in every database
// store (run by the SQLite and PostgreSQL bad-input tests): a clear error, nothing of its batch
// written, and the writer goes on; and a limit beyond what the database can hold, refused when the
// store is made.
import { afterEach, describe, expect, it } from "vitest";
import { SessionRecordError } from "../src/session/index.js";
import type { DatabaseStoreHarness } from "./database-store-harness.js";
import { header, userRecord } from "./session-fixtures.js";

export function describeRecordSizeLimit(
	name: string,
	harness: DatabaseStoreHarness,
	/** The store's largest accepted `maxRecordBytes` (its *_MAX_RECORD_BYTES). */
	largestRecordBytes: number,
): void {
	describe(`a record too large for the ${name} store`, () => {
		afterEach(() => harness.cleanup());

		it("is refused with its size and the limit; the batch is not written and the writer goes on", async () => {
			const store = await harness.open({ maxRecordBytes: 1024 });
			const writer = await store.openWriter("s1", { create: header("s1") });
			await writer.append(userRecord("s1", "u1", null, "small"));
			const error = await writer
				.append([userRecord("s1", "u2", "u1", "fits"), userRecord("s1", "u3", "u2", "x".repeat(2048))])
				.catch((thrown: unknown) => thrown);
			expect(error).toBeInstanceOf(SessionRecordError);
			expect((error as Error).message).toMatch(/message record of \d+ bytes is over the limit of 1024 bytes/);
			await writer.append(userRecord("s1", "u2", "u1", "after"));
			await writer.close();
			const { records, problems } = await store.read("s1");
			expect(problems).toEqual([]);
			expect(records.map((record) => (record as { id?: string }).id ?? record.type)).toEqual(["session", "u1", "u2"]);
		});

		it("refuses a maxRecordBytes above what the database can hold, naming the option and the maximum", async () => {
			const error = await harness.open({ maxRecordBytes: largestRecordBytes + 1 }).catch((thrown: unknown) => thrown);
			expect(error).toBeInstanceOf(RangeError);
			expect((error as Error).message).toBe(
				`maxRecordBytes must be at most ${largestRecordBytes} (the largest record the ${name} store can hold), got ${largestRecordBytes + 1}.`,
			);
			await harness.cleanup();
			const store = await harness.open({ maxRecordBytes: largestRecordBytes });
			const writer = await store.openWriter("s1", { create: header("s1") });
			await writer.append(userRecord("s1", "u1", null, "small"));
			await writer.close();
			expect((await store.read("s1")).records).toHaveLength(2);
		});
	});
}

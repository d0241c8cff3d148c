import { describe, expect, it } from "vitest";
import {
	createMemoryTranscriptStore,
	InvalidSessionIdError,
	SessionLockedError,
	SessionNotFoundError,
} from "../src/session/index.js";
import { header, summaryRecord, userRecord } from "./session-fixtures.js";

describe("the in-memory transcript store", () => {
	it("writes the header on create and reads back every appended record in order", async () => {
		const store = createMemoryTranscriptStore();
		const writer = await store.openWriter("s1", { create: header("s1", { title: "Hello" }) });
		await writer.append(userRecord("s1", "u1", null, "one"));
		await writer.append([userRecord("s1", "u2", "u1", "two"), userRecord("s1", "u3", "u2", "three")]);
		await writer.close();
		const { records, problems } = await store.read("s1");
		expect(problems).toEqual([]);
		expect(records.map((record) => (record.type === "message" ? record.id : record.type))).toEqual([
			"session",
			"u1",
			"u2",
			"u3",
		]);
	});

	it("is not changed by later mutation of an appended object", async () => {
		const store = createMemoryTranscriptStore();
		const writer = await store.openWriter("s1", { create: header("s1") });
		const record = userRecord("s1", "u1", null, "original");
		await writer.append(record);
		record.id = "changed";
		expect(((await store.read("s1")).records[1] as typeof record).id).toBe("u1");
	});

	it("gives a second writer a SessionLockedError until the first closes", async () => {
		const store = createMemoryTranscriptStore();
		const first = await store.openWriter("s1", { create: header("s1") });
		await expect(store.openWriter("s1")).rejects.toBeInstanceOf(SessionLockedError);
		await first.close();
		const second = await store.openWriter("s1");
		await second.close();
	});

	it("refuses to open a missing session without create, and bad ids", async () => {
		const store = createMemoryTranscriptStore();
		await expect(store.openWriter("nope")).rejects.toBeInstanceOf(SessionNotFoundError);
		await expect(store.read("../etc/passwd")).rejects.toBeInstanceOf(InvalidSessionIdError);
		await expect(store.openWriter("s1", { create: header("other") })).rejects.toThrow('sessionId "s1"');
	});

	it("reads the last entries and the last summary", async () => {
		const store = createMemoryTranscriptStore();
		const writer = await store.openWriter("s1", { create: header("s1") });
		await writer.append(summaryRecord("s1", "sum", null, "earlier"));
		for (let index = 0; index < 10; index++) await writer.append(userRecord("s1", `u${index}`, null, `m${index}`));
		const tail = await store.readTail("s1", { entries: 3 });
		expect(tail.records.map((record) => (record as { id: string }).id)).toEqual(["u7", "u8", "u9"]);
		expect(tail.lastSummary?.id).toBe("sum");
	});

	it("lists sessions newest first with the latest title and their parents", async () => {
		const store = createMemoryTranscriptStore();
		const a = await store.openWriter("a", { create: header("a", { title: "A", timestamp: 10 }) });
		const b = await store.openWriter("b", {
			create: header("b", { timestamp: 20, parentSessionId: "a", parentMessageId: "m1" }),
		});
		await a.append({ v: 1, type: "title", sessionId: "a", timestamp: 30, title: "A renamed" });
		const list = await store.list();
		expect(list.map((info) => [info.sessionId, info.title, info.updatedAt])).toEqual([
			["a", "A renamed", 30],
			["b", undefined, 20],
		]);
		expect(list[1]).toMatchObject({ parentSessionId: "a", parentMessageId: "m1", createdAt: 20 });
		expect(list[0].sizeBytes).toBeGreaterThan(0);
		await b.close();
		await store.delete("b");
		expect(await store.exists("b")).toBe(false);
	});
});

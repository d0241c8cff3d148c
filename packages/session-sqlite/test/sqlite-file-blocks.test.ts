// A user message with a 5 MB PDF block round-trips through the SQLite store byte for byte (the
// block is kept inline in the record; the database, unlike a JSONL line, is not re-read whole).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionMessageRecord } from "@keel/agent-core/session";
import type { UserContent, UserMessage } from "@keel/ai";
import { afterEach, expect, it } from "vitest";
import { createSqliteTranscriptStore } from "../src/index.js";

let directory: string | undefined;
afterEach(() => {
	if (directory) rmSync(directory, { recursive: true, force: true });
});

it("round-trips a 5 MB PDF file block byte for byte", async () => {
	directory = mkdtempSync(join(tmpdir(), "keel-sqlite-files-"));
	const store = createSqliteTranscriptStore({ path: join(directory, "sessions.db") });
	try {
		const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(5 * 1024 * 1024)]);
		const block: UserContent = {
			type: "file",
			mimeType: "application/pdf",
			data: pdf.toString("base64"),
			filename: "a.pdf",
		};
		const writer = await store.openWriter("s1", { create: { v: 1, type: "session", sessionId: "s1", timestamp: 1 } });
		const record: SessionMessageRecord = {
			v: 1,
			type: "message",
			sessionId: "s1",
			id: "u1",
			parentId: null,
			timestamp: 2,
			message: { role: "user", content: [block], timestamp: 2 },
		};
		await writer.append(record);
		await writer.close();
		const { records, problems } = await store.read("s1");
		expect(problems).toEqual([]);
		const [read] = ((records[1] as SessionMessageRecord).message as UserMessage).content as UserContent[];
		expect(read).toEqual(block);
		expect(Buffer.from((read as { data: string }).data, "base64").equals(pdf)).toBe(true);
	} finally {
		store.close();
	}
});

// File and audio blocks in sessions: the JSONL store keeps a large block's bytes in a
// content-addressed file beside the transcript and puts them back on every read, byte for byte;
// the memory store keeps them inline.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolResultMessage, UserContent, UserMessage } from "@keel/ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMemoryTranscriptStore, Session, type SessionMessageRecord } from "../src/session/index.js";
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";
import { header } from "./session-fixtures.js";
import { assistantMessage, userMessage } from "./session-helpers.js";

let directory: string;
beforeEach(() => {
	directory = mkdtempSync(join(tmpdir(), "keel-session-files-"));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

const FIVE_MB_PDF = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(5 * 1024 * 1024)]);

function recordWith(sessionId: string, id: string, content: UserContent[]): SessionMessageRecord {
	return {
		v: 1,
		type: "message",
		sessionId,
		id,
		parentId: null,
		timestamp: 2_000,
		message: { role: "user", content, timestamp: 2_000 },
	};
}

const pdfBlock = (): UserContent => ({
	type: "file",
	mimeType: "application/pdf",
	data: FIVE_MB_PDF.toString("base64"),
	filename: "big.pdf",
});

function contentOf(record: unknown): UserContent[] {
	return ((record as SessionMessageRecord).message as UserMessage).content as UserContent[];
}

describe("file blocks in the JSONL store", () => {
	it("stores a 5 MB PDF beside the transcript, keeps the transcript small, and reads it back byte for byte", async () => {
		const store = createJsonlTranscriptStore({ directory });
		const writer = await store.openWriter("s1", { create: header("s1") });
		await writer.append(recordWith("s1", "u1", [{ type: "text", text: "Read this" }, pdfBlock()]));
		await writer.close();

		expect(statSync(join(directory, "s1.jsonl")).size).toBeLessThan(2_000);
		const blobs = readdirSync(join(directory, "s1.jsonl.blobs"));
		expect(blobs).toHaveLength(1);
		expect(statSync(join(directory, "s1.jsonl.blobs", blobs[0])).size).toBe(FIVE_MB_PDF.length);

		const { records, problems } = await store.read("s1");
		expect(problems).toEqual([]);
		const [text, file] = contentOf(records[1]);
		expect(text).toEqual({ type: "text", text: "Read this" });
		expect(file).toEqual(pdfBlock());
		expect(Buffer.from((file as { data: string }).data, "base64").equals(FIVE_MB_PDF)).toBe(true);

		const tail = await store.readTail("s1", { entries: 1 });
		expect(contentOf(tail.records[0])[1]).toEqual(pdfBlock());
	});

	it("stores the same file attached twice once, and keeps small blocks inline", async () => {
		const store = createJsonlTranscriptStore({ directory });
		const small: UserContent = { type: "audio", mimeType: "audio/wav", data: Buffer.from("RIFF").toString("base64") };
		const writer = await store.openWriter("s2", { create: header("s2") });
		await writer.append([recordWith("s2", "u1", [pdfBlock(), small]), recordWith("s2", "u2", [pdfBlock()])]);
		await writer.close();
		expect(readdirSync(join(directory, "s2.jsonl.blobs"))).toHaveLength(1);
		const { records } = await store.read("s2");
		expect(contentOf(records[1])).toEqual([pdfBlock(), small]);
		expect(contentOf(records[2])).toEqual([pdfBlock()]);
	});

	it("reports a record whose blob is damaged as a problem naming the blob, and reads the others", async () => {
		const store = createJsonlTranscriptStore({ directory });
		const writer = await store.openWriter("s3", { create: header("s3") });
		await writer.append(recordWith("s3", "u1", [pdfBlock()]));
		await writer.append(recordWith("s3", "u2", [{ type: "text", text: "after" }]));
		await writer.close();
		const [blob] = readdirSync(join(directory, "s3.jsonl.blobs"));
		writeFileSync(join(directory, "s3.jsonl.blobs", blob), "not the pdf");
		const { records, problems } = await store.read("s3");
		expect(problems).toHaveLength(1);
		expect(problems[0].message).toContain(`the blob file ${blob} is damaged`);
		expect(records.map((record) => record.type)).toEqual(["session", "message"]);
	});

	it("removes the blob files with the session", async () => {
		const store = createJsonlTranscriptStore({ directory });
		const writer = await store.openWriter("s4", { create: header("s4") });
		await writer.append(recordWith("s4", "u1", [pdfBlock()]));
		await writer.close();
		await store.delete("s4");
		expect(readdirSync(directory).filter((name) => name.startsWith("s4"))).toEqual([]);
	});
});

/** A tool result holding the PDF a tool fetched, as the agent loop appends it. */
function pdfToolResult(toolCallId: string): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId,
		toolName: "fetch_report",
		content: [{ type: "text", text: "Here is the report" }, pdfBlock() as ToolResultMessage["content"][number]],
		isError: false,
		timestamp: 3_000,
	};
}

function toolResultRecord(sessionId: string, id: string, message: ToolResultMessage): SessionMessageRecord {
	return { v: 1, type: "message", sessionId, id, parentId: null, timestamp: 3_000, message };
}

describe("file blocks of tool results in the JSONL store", () => {
	it("stores a 5 MB PDF a tool returned beside the transcript, keeps the line under 2,000 bytes, and reads it back byte for byte", async () => {
		const store = createJsonlTranscriptStore({ directory });
		const writer = await store.openWriter("t1", { create: header("t1") });
		await writer.append(toolResultRecord("t1", "r1", pdfToolResult("call-1")));
		await writer.close();

		expect(statSync(join(directory, "t1.jsonl")).size).toBeLessThan(2_000);
		const blobs = readdirSync(join(directory, "t1.jsonl.blobs"));
		expect(blobs).toHaveLength(1);
		expect(statSync(join(directory, "t1.jsonl.blobs", blobs[0])).size).toBe(FIVE_MB_PDF.length);

		const { records, problems } = await store.read("t1");
		expect(problems).toEqual([]);
		const message = (records[1] as SessionMessageRecord).message as ToolResultMessage;
		expect(message).toEqual(pdfToolResult("call-1"));
		const file = message.content[1] as { data: string };
		expect(Buffer.from(file.data, "base64").equals(FIVE_MB_PDF)).toBe(true);
	});

	it("stores the same file once when a user attached it and a tool returned it", async () => {
		const store = createJsonlTranscriptStore({ directory });
		const writer = await store.openWriter("t2", { create: header("t2") });
		await writer.append([recordWith("t2", "u1", [pdfBlock()]), toolResultRecord("t2", "r1", pdfToolResult("call-1"))]);
		await writer.close();
		expect(readdirSync(join(directory, "t2.jsonl.blobs"))).toHaveLength(1);
		expect(statSync(join(directory, "t2.jsonl")).size).toBeLessThan(4_000);
		const { records } = await store.read("t2");
		expect(contentOf(records[1])).toEqual([pdfBlock()]);
		expect((records[2] as SessionMessageRecord).message).toEqual(pdfToolResult("call-1"));
	});

	it.each(["context", "all"] as const)(
		'puts a tool result\'s PDF back when a session is resumed with load: "%s"',
		async (load) => {
			const store = createJsonlTranscriptStore({ directory });
			const session = await Session.create(store);
			await session.append(userMessage("fetch the report"));
			await session.append(assistantMessage("", [{ id: "call-1", name: "fetch_report" }]));
			await session.append(pdfToolResult("call-1"));
			const expected = session.modelContext();
			await session.close();
			expect(readdirSync(join(directory, `${session.id}.jsonl.blobs`))).toHaveLength(1);

			const opened = await Session.open(store, session.id, { load });
			try {
				expect(opened.modelContext()).toEqual(expected);
				const resumed = opened.modelContext().at(-1) as ToolResultMessage;
				expect(resumed.content[1]).toEqual(pdfBlock());
			} finally {
				await opened.close();
			}
		},
	);
});

describe("file blocks in the memory store", () => {
	it("round-trips a PDF block byte for byte", async () => {
		const store = createMemoryTranscriptStore();
		const writer = await store.openWriter("m1", { create: header("m1") });
		await writer.append(recordWith("m1", "u1", [pdfBlock()]));
		await writer.close();
		const { records } = await store.read("m1");
		expect(contentOf(records[1])).toEqual([pdfBlock()]);
	});
});

describe("searching a JSONL store with blobs", () => {
	it("finds a session by the text next to a stored PDF without its blob files", async () => {
		const store = createJsonlTranscriptStore({ directory });
		const writer = await store.openWriter("s5", { create: header("s5") });
		await writer.append(recordWith("s5", "u1", [{ type: "text", text: "quarterly numbers" }, pdfBlock()]));
		await writer.close();
		rmSync(join(directory, "s5.jsonl.blobs"), { recursive: true });
		const found = await store.list({ search: "quarterly" });
		expect(found.map((info) => info.sessionId)).toEqual(["s5"]);
	});
});

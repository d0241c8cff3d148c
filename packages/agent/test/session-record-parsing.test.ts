import { describe, expect, it } from "vitest";
import {
	getAgentMessageImages,
	getAgentMessageText,
	getAgentMessageThinking,
	getAgentMessageToolCalls,
	parseAgentMessage,
	parseSessionRecord,
	type SessionRecord,
	SessionRecordError,
	serializeSessionRecord,
} from "../src/session/index.js";
import { assistantMessage, header, summaryRecord, userRecord } from "./session-fixtures.js";

function recordError(line: string, lineNumber?: number): SessionRecordError {
	try {
		parseSessionRecord(line, lineNumber);
	} catch (error) {
		expect(error).toBeInstanceOf(SessionRecordError);
		return error as SessionRecordError;
	}
	throw new Error("expected a SessionRecordError");
}

describe("serialising and parsing session records", () => {
	it("round-trips every record type through one line of JSON", () => {
		const records: SessionRecord[] = [
			header("s1", { title: "First", parentSessionId: "p", parentMessageId: "m" }),
			userRecord("s1", "u1", null, "line one\nline two \u2028"),
			{
				v: 1,
				type: "message",
				sessionId: "s1",
				id: "a1",
				parentId: "u1",
				timestamp: 3_000,
				message: assistantMessage([
					{ type: "thinking", thinking: "hmm", thinkingSignature: "sig" },
					{ type: "text", text: "answer" },
					{ type: "toolCall", id: "c1", name: "read", arguments: { path: "a.txt" } },
				]),
			},
			{
				v: 1,
				type: "state",
				sessionId: "s1",
				timestamp: 5,
				state: { workingDirectory: "/w", activeSubAgentIds: ["x"] },
			},
			{ v: 1, type: "leaf", sessionId: "s1", timestamp: 6, leafId: null },
			{
				v: 1,
				type: "queue",
				sessionId: "s1",
				timestamp: 7,
				action: "enqueued",
				queueItemId: "q1",
				queue: "steering",
				priority: 2,
				message: { role: "user", content: "hi", timestamp: 7 },
			},
			{ v: 1, type: "title", sessionId: "s1", timestamp: 8, title: "Renamed" },
			summaryRecord("s1", "sum", "a1", "what happened"),
		];
		for (const record of records) {
			const line = serializeSessionRecord(record);
			expect(line).not.toContain("\n");
			expect(parseSessionRecord(line)).toEqual(record);
		}
	});

	it("refuses to serialise a record JSON cannot hold", () => {
		const cyclic = userRecord("s1", "u1", null, "x") as SessionRecord & { self?: unknown };
		cyclic.self = cyclic;
		expect(() => serializeSessionRecord(cyclic)).toThrow(SessionRecordError);
		expect(() => serializeSessionRecord({ ...header("s1"), timestamp: Number.NaN })).toThrow(
			"record.timestamp must be a finite number",
		);
	});

	it("names the line and the field of a bad content block", () => {
		const record = userRecord("s1", "u1", null, "x");
		const line = JSON.stringify({
			...record,
			message: {
				...record.message,
				content: [
					{ type: "text", text: "a" },
					{ type: "image", data: "AA", mimeType: "image/png" },
					{ type: "text", text: 42 },
				],
			},
		});
		const error = recordError(line, 12);
		expect(error.message).toBe("line 12: message.content[2].text must be a string, got a number");
		expect(error.line).toBe(12);
		expect(error.field).toBe("message.content[2].text");
	});

	it("reports a truncated line as invalid JSON with its line number", () => {
		const line = serializeSessionRecord(userRecord("s1", "u1", null, "hello"));
		expect(recordError(line.slice(0, 30), 4).message).toMatch(/^line 4: not valid JSON/);
	});

	it("checks the required fields of each record type and message role", () => {
		const base = { v: 1, sessionId: "s1", timestamp: 1 };
		expect(
			recordError(
				JSON.stringify({
					...base,
					type: "message",
					parentId: null,
					message: { role: "user", content: "x", timestamp: 1 },
				}),
				2,
			).message,
		).toBe("line 2: record.id must be a string, got nothing");
		expect(recordError(JSON.stringify({ ...base, type: "leaf" })).message).toBe(
			"leafId must be a string or null, got nothing",
		);
		expect(recordError(JSON.stringify({ ...base, type: "queue", action: "eaten", queueItemId: "q" })).field).toBe(
			"action",
		);
		const toolResult = { role: "toolResult", toolCallId: "c1", toolName: "t", content: [], timestamp: 1 };
		expect(
			recordError(JSON.stringify({ ...base, type: "message", id: "m", parentId: null, message: toolResult })).message,
		).toBe("message.isError must be a boolean, got nothing");
		const assistant = { ...assistantMessage([]), usage: undefined };
		expect(
			recordError(JSON.stringify({ ...base, type: "message", id: "m", parentId: null, message: assistant })).field,
		).toBe("message.usage");
		expect(
			recordError(
				JSON.stringify({
					...base,
					type: "message",
					id: "m",
					parentId: null,
					message: { role: "summary", summary: "s", timestamp: 1 },
				}),
			).field,
		).toBe("message.summarisedMessageCount");
	});

	it("checks a compact boundary's summary and first kept message", () => {
		const base = { v: 1, type: "message", sessionId: "s1", timestamp: 1, id: "b", parentId: "sum" };
		const boundary = {
			role: "compact_boundary",
			trigger: "auto",
			summaryId: "sum",
			firstKeptMessageId: "m7",
			timestamp: 1,
		};
		expect(parseSessionRecord(JSON.stringify({ ...base, message: boundary }))).toEqual({ ...base, message: boundary });
		expect(recordError(JSON.stringify({ ...base, message: { ...boundary, firstKeptMessageId: 7 } }), 9).message).toBe(
			"line 9: message.firstKeptMessageId must be a string when present, got a number",
		);
	});

	it("refuses a known block type in the wrong place", () => {
		const record = userRecord("s1", "u1", null, "x");
		const line = JSON.stringify({
			...record,
			message: { ...record.message, content: [{ type: "toolCall", id: "c", name: "n", arguments: {} }] },
		});
		expect(recordError(line, 3).message).toBe(
			'line 3: message.content[0].type "toolCall" is not allowed here (expected text, image, file, audio)',
		);
	});

	it("keeps content blocks and record types it does not know", () => {
		const record = userRecord("s1", "u1", null, "x");
		const future = { type: "video", data: "AAA", format: "mp4" };
		const line = JSON.stringify({
			...record,
			message: { ...record.message, content: [future, { type: "text", text: "t" }] },
		});
		const parsed = parseSessionRecord(line) as typeof record;
		expect(parsed.message).toEqual({ ...record.message, content: [future, { type: "text", text: "t" }] });
		expect(serializeSessionRecord(parsed)).toBe(line);

		const unknown = { v: 2, type: "checkpoint", sessionId: "s1", timestamp: 9, snapshot: { a: 1 } };
		expect(parseSessionRecord(JSON.stringify(unknown))).toEqual(unknown);
	});

	it("keeps application message kinds it does not know", () => {
		const note = { role: "note", text: "remember", timestamp: 1 };
		expect(parseAgentMessage(JSON.stringify(note))).toEqual(note);
	});

	it("requires the format version on Keel's own record types", () => {
		const { v: _version, ...withoutVersion } = header("s1");
		expect(recordError(JSON.stringify(withoutVersion), 1).message).toBe(
			"line 1: v must be a number (the record's format version), got nothing",
		);
		expect(recordError(JSON.stringify({ ...header("s1"), v: "1" })).field).toBe("v");
	});

	it("rejects a line that is not an object", () => {
		expect(recordError("[1,2]", 5).message).toBe("line 5: record must be an object, got an array");
		expect(recordError("", 6).message).toMatch(/^line 6: not valid JSON/);
	});
});

describe("parseAgentMessage", () => {
	it("validates one message and names the field", () => {
		const message = assistantMessage([{ type: "text", text: "ok" }]);
		expect(parseAgentMessage(JSON.stringify(message))).toEqual(message);
		expect(parseAgentMessage(message)).toBe(message);
		expect(() =>
			parseAgentMessage({ ...message, content: [{ type: "toolCall", id: "c", name: "n", arguments: "{}" }] }),
		).toThrow("message.content[0].arguments must be an object, got a string");
		expect(() => parseAgentMessage("{")).toThrow(/^message is not valid JSON/);
	});
});

describe("reading a message's text, tool calls, thinking and images", () => {
	const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };

	it("covers the LLM roles", () => {
		const message = assistantMessage([
			{ type: "thinking", thinking: "plan" },
			{ type: "text", text: "a" },
			{ type: "toolCall", id: "c1", name: "read", arguments: {} },
			{ type: "text", text: "b" },
		]);
		expect(getAgentMessageText(message)).toBe("ab");
		expect(getAgentMessageThinking(message)).toBe("plan");
		expect(getAgentMessageToolCalls(message).map((call) => call.id)).toEqual(["c1"]);
		expect(getAgentMessageImages({ role: "user", content: [image], timestamp: 0 })).toEqual([image]);
	});

	it("covers the session's own kinds", () => {
		const attachment = {
			role: "attachment" as const,
			name: "doc",
			content: [{ type: "text" as const, text: "body" }, image],
			timestamp: 0,
		};
		expect(getAgentMessageText(attachment)).toBe("body");
		expect(getAgentMessageImages(attachment)).toEqual([image]);
		expect(getAgentMessageText({ role: "notification", kind: "hook_blocked", text: "blocked", timestamp: 0 })).toBe(
			"blocked",
		);
		expect(getAgentMessageText({ role: "summary", summary: "so far", summarisedMessageCount: 2, timestamp: 0 })).toBe(
			"so far",
		);
		expect(getAgentMessageText({ role: "tombstone", targetId: "x", timestamp: 0 })).toBe("");
		expect(getAgentMessageToolCalls({ role: "progress", text: "50%", timestamp: 0 })).toEqual([]);
	});
});

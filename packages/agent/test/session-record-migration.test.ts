import { describe, expect, it } from "vitest";
import {
	parseSessionRecord,
	parseSessionRecords,
	type SessionMessageRecord,
	SessionRecordError,
} from "../src/session/index.js";

// Version 0 is the line shape of Claude Code's transcripts: uuid / parentUuid, ISO timestamps,
// Anthropic Messages content blocks.
const user0 = {
	parentUuid: null,
	isSidechain: false,
	cwd: "/work",
	sessionId: "cc-1",
	type: "user",
	message: { role: "user", content: "list the files" },
	uuid: "u-1",
	timestamp: "2025-06-01T10:00:00.000Z",
};
const assistant0 = {
	parentUuid: "u-1",
	sessionId: "cc-1",
	type: "assistant",
	message: {
		id: "msg_1",
		type: "message",
		role: "assistant",
		model: "claude-sonnet-4-5",
		content: [
			{ type: "thinking", thinking: "use ls", signature: "sig-1" },
			{ type: "redacted_thinking", data: "opaque" },
			{ type: "text", text: "Listing." },
			{ type: "tool_use", id: "toolu_1", name: "bash", input: { command: "ls" } },
		],
		stop_reason: "tool_use",
		usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 3, cache_creation_input_tokens: 2 },
	},
	uuid: "a-1",
	timestamp: "2025-06-01T10:00:01.000Z",
};
const results0 = {
	parentUuid: "a-1",
	sessionId: "cc-1",
	type: "user",
	message: {
		role: "user",
		content: [
			{ type: "tool_result", tool_use_id: "toolu_1", content: "a.txt\nb.txt" },
			{
				type: "tool_result",
				tool_use_id: "toolu_2",
				content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } }],
				is_error: true,
			},
		],
	},
	uuid: "r-1",
	timestamp: "2025-06-01T10:00:02.000Z",
};

describe("migrating version-0 records on read", () => {
	it("turns a uuid/parentUuid user line into a version-1 message record", () => {
		expect(parseSessionRecord(JSON.stringify(user0), 1)).toEqual({
			v: 1,
			type: "message",
			sessionId: "cc-1",
			id: "u-1",
			parentId: null,
			timestamp: Date.parse("2025-06-01T10:00:00.000Z"),
			message: { role: "user", content: "list the files", timestamp: Date.parse("2025-06-01T10:00:00.000Z") },
		});
	});

	it("maps an Anthropic-shaped assistant message onto Keel's blocks, usage and stop reason", () => {
		const record = parseSessionRecord(JSON.stringify(assistant0)) as SessionMessageRecord;
		expect(record.parentId).toBe("u-1");
		expect(record.message).toMatchObject({
			role: "assistant",
			api: "anthropic-messages",
			provider: "anthropic",
			model: "claude-sonnet-4-5",
			responseId: "msg_1",
			stopReason: "toolUse",
			usage: { input: 10, output: 5, cacheRead: 3, cacheWrite: 2, totalTokens: 20 },
			content: [
				{ type: "thinking", thinking: "use ls", thinkingSignature: "sig-1" },
				{ type: "thinking", thinking: "", thinkingSignature: "opaque", redacted: true },
				{ type: "text", text: "Listing." },
				{ type: "toolCall", id: "toolu_1", name: "bash", arguments: { command: "ls" } },
			],
		});
	});

	it("splits a line of several tool results into chained toolResult records", () => {
		const records = parseSessionRecords(JSON.stringify(results0), 3) as SessionMessageRecord[];
		expect(records.map((record) => [record.id, record.parentId])).toEqual([
			["r-1", "a-1"],
			["r-1#1", "r-1"],
		]);
		expect(records[0].message).toMatchObject({
			role: "toolResult",
			toolCallId: "toolu_1",
			isError: false,
			content: [{ type: "text", text: "a.txt\nb.txt" }],
		});
		expect(records[1].message).toMatchObject({
			role: "toolResult",
			toolCallId: "toolu_2",
			isError: true,
			content: [{ type: "image", data: "AAAA", mimeType: "image/png" }],
		});
		expect(() => parseSessionRecord(JSON.stringify(results0), 3)).toThrow(SessionRecordError);
	});

	it("keeps version-0 lines without a Keel equivalent as unknown records", () => {
		const title = { type: "summary", summary: "Listing files", leafUuid: "a-1" };
		expect(parseSessionRecord(JSON.stringify(title))).toEqual({ ...title, v: 1 });
	});

	it("validates what the migration produced, naming the line", () => {
		const broken = { ...user0, uuid: 7 };
		expect(() => parseSessionRecord(JSON.stringify(broken), 8)).toThrow(
			"line 8: record.id must be a string, got a number",
		);
	});
});

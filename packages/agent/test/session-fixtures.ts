// Records for the session tests.
import type { AssistantMessage } from "@keel/ai";
import type { SessionHeaderRecord, SessionMessageRecord } from "../src/session/index.js";

export function header(sessionId: string, extra: Partial<SessionHeaderRecord> = {}): SessionHeaderRecord {
	return { v: 1, type: "session", sessionId, timestamp: 1_000, ...extra };
}

export function userRecord(sessionId: string, id: string, parentId: string | null, text: string): SessionMessageRecord {
	return {
		v: 1,
		type: "message",
		sessionId,
		id,
		parentId,
		timestamp: 2_000,
		message: { role: "user", content: [{ type: "text", text }], timestamp: 2_000 },
	};
}

export function assistantMessage(content: AssistantMessage["content"]): AssistantMessage {
	return {
		role: "assistant",
		content,
		api: "faux",
		provider: "faux",
		model: "faux-model",
		usage: {
			input: 1,
			output: 1,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 2,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "stop",
		timestamp: 3_000,
	};
}

export function summaryRecord(
	sessionId: string,
	id: string,
	parentId: string | null,
	summary: string,
): SessionMessageRecord {
	return {
		v: 1,
		type: "message",
		sessionId,
		id,
		parentId,
		timestamp: 4_000,
		message: { role: "summary", summary, summarisedMessageCount: 3, timestamp: 4_000 },
	};
}

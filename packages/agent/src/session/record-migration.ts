// Migrating records written in an older format on read. `MIGRATIONS[n]` turns a version-n record
// into version-(n+1) records; a record is stepped through the table until it reaches
// SESSION_FORMAT_VERSION. A step may split one record into several (see version 0 below), so the
// chain is applied to arrays.
//
// Version 0 is the line shape of Claude Code's JSONL transcripts (and of tools that copy it):
// `{ type: "user" | "assistant", uuid, parentUuid, sessionId, timestamp: ISO string, message: { role,
// content } }` with Anthropic Messages content blocks (`tool_use`, `tool_result`, `thinking`, base64
// `image` sources). It has no `v` field. Migrating it lets Keel open such a transcript as a session.

import { SESSION_FORMAT_VERSION } from "./session-types.js";

type RawRecord = Record<string, unknown>;
type Migration = (record: RawRecord) => RawRecord[];

export const MIGRATIONS: Readonly<Record<number, Migration>> = {
	0: migrateVersion0,
};

/**
 * The records read from a version-0 line. Keel never writes version 0, so a transcript holding only
 * such records was written by another tool; `Session.open` uses this to refuse it (see
 * foreign-transcript.ts) without adding a field to the records.
 */
const version0Records = new WeakSet<object>();

/** Whether a record was read from a version-0 line (another tool's line shape). */
export function isVersion0Record(record: object): boolean {
	return version0Records.has(record);
}

/** Steps `record` (of format `version`) up to SESSION_FORMAT_VERSION. */
export function migrateRecord(record: RawRecord, version: number): RawRecord[] {
	let records = [record];
	for (let step = version; step < SESSION_FORMAT_VERSION; step++) {
		const migration = MIGRATIONS[step];
		if (!migration) throw new Error(`no migration from format version ${step} to ${step + 1}`);
		records = records.flatMap(migration);
	}
	if (version === 0) for (const migrated of records) version0Records.add(migrated);
	return records;
}

// ---------------------------------------------------------------------------
// Version 0 → 1
// ---------------------------------------------------------------------------

function migrateVersion0(record: RawRecord): RawRecord[] {
	const message = record.message as RawRecord | undefined;
	if ((record.type !== "user" && record.type !== "assistant") || typeof message !== "object" || message === null) {
		// Other version-0 lines (titles, system events, snapshots) have no Keel equivalent: they are
		// kept as records of an unknown type, which a reader passes through untouched.
		return [{ ...record, v: 1 }];
	}
	const base = {
		v: 1,
		sessionId: record.sessionId,
		timestamp: migrateTimestamp(record.timestamp),
	};
	const id = record.uuid;
	const parentId = record.parentUuid ?? null;
	if (record.type === "assistant") {
		return [{ ...base, type: "message", id, parentId, message: migrateAssistantMessage(message, base.timestamp) }];
	}
	return migrateUserMessage(message, base, id, parentId);
}

export function migrateTimestamp(value: unknown): unknown {
	if (typeof value !== "string") return value;
	const parsed = Date.parse(value);
	return Number.isNaN(parsed) ? value : parsed;
}

/**
 * A version-0 user line carries tool results as `tool_result` blocks; Keel stores each as its own
 * toolResult message. The first keeps the line's id, the others get `<id>#<n>` and chain after it,
 * and any remaining text or images follow as a user message, so the branch order is preserved.
 */
function migrateUserMessage(message: RawRecord, base: RawRecord, id: unknown, parentId: unknown): RawRecord[] {
	const content = message.content;
	if (!Array.isArray(content)) {
		return [{ ...base, type: "message", id, parentId, message: { role: "user", content, timestamp: base.timestamp } }];
	}
	const messages: RawRecord[] = [];
	const rest: unknown[] = [];
	for (const block of content as RawRecord[]) {
		if (block?.type === "tool_result") {
			messages.push({
				role: "toolResult",
				toolCallId: block.tool_use_id,
				// Version 0 does not repeat the tool's name on its result.
				toolName: typeof block.name === "string" ? block.name : "",
				content: migrateToolResultContent(block.content),
				isError: block.is_error === true,
				timestamp: base.timestamp,
			});
		} else {
			rest.push(migrateUserBlock(block));
		}
	}
	if (rest.length > 0 || messages.length === 0)
		messages.push({ role: "user", content: rest, timestamp: base.timestamp });
	let previous = parentId;
	return messages.map((migrated, index) => {
		const messageId = index === 0 ? id : `${String(id)}#${index}`;
		const record = { ...base, type: "message", id: messageId, parentId: previous, message: migrated };
		previous = messageId;
		return record;
	});
}

export function migrateToolResultContent(content: unknown): unknown {
	if (typeof content === "string") return [{ type: "text", text: content }];
	if (Array.isArray(content)) return content.map((block) => migrateUserBlock(block as RawRecord));
	return content === undefined ? [] : content;
}

export function migrateUserBlock(block: RawRecord): unknown {
	if (block?.type === "image" && typeof block.source === "object" && block.source !== null) {
		const source = block.source as RawRecord;
		if (source.type === "base64") return { type: "image", data: source.data, mimeType: source.media_type };
	}
	return block;
}

const STOP_REASONS: Record<string, string> = {
	end_turn: "stop",
	stop_sequence: "stop",
	tool_use: "toolUse",
	max_tokens: "length",
	refusal: "stop",
	pause_turn: "stop",
};

export function migrateAssistantMessage(message: RawRecord, timestamp: unknown): RawRecord {
	const content = Array.isArray(message.content) ? (message.content as RawRecord[]).map(migrateAssistantBlock) : [];
	const usage = (typeof message.usage === "object" && message.usage !== null ? message.usage : {}) as RawRecord;
	const count = (key: string) => (typeof usage[key] === "number" ? (usage[key] as number) : 0);
	const input = count("input_tokens");
	const output = count("output_tokens");
	const cacheRead = count("cache_read_input_tokens");
	const cacheWrite = count("cache_creation_input_tokens");
	const rawStopReason = typeof message.stop_reason === "string" ? message.stop_reason : undefined;
	const stopReason = rawStopReason === undefined ? "stop" : (STOP_REASONS[rawStopReason] ?? "stop");
	return {
		role: "assistant",
		content,
		api: "anthropic-messages",
		provider: "anthropic",
		model: typeof message.model === "string" ? message.model : "unknown",
		...(typeof message.id === "string" ? { responseId: message.id } : {}),
		usage: {
			input,
			output,
			cacheRead,
			cacheWrite,
			totalTokens: input + output + cacheRead + cacheWrite,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason,
		...(rawStopReason !== undefined && !(rawStopReason in STOP_REASONS) ? { rawStopReason } : {}),
		timestamp,
	};
}

function migrateAssistantBlock(block: RawRecord): unknown {
	switch (block?.type) {
		case "tool_use":
			return { type: "toolCall", id: block.id, name: block.name, arguments: block.input ?? {} };
		case "thinking":
			return {
				type: "thinking",
				thinking: block.thinking,
				...(typeof block.signature === "string" ? { thinkingSignature: block.signature } : {}),
			};
		case "redacted_thinking":
			return { type: "thinking", thinking: "", thinkingSignature: block.data, redacted: true };
		default:
			return block;
	}
}

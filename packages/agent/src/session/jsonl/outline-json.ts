// A message's outline (outlineMessageRecord) as the outline index stores it: JSON without the
// session id. The writer does this on every append, so the messages Keel writes most — user,
// assistant and tool-result messages with the usual field types — are written as text directly:
// building the outline's objects only to stringify them cost twice as much. Anything else goes
// through outlineMessageRecord and JSON.stringify; session-jsonl-outline-index.test.ts holds the
// two equal.

import { outlineMessageRecord } from "../context-loading.js";
import type { ParsedSessionRecord } from "../record-format.js";

/** Strings JSON writes as they are, between quotes: printable ASCII but for the quote and backslash. */
const PLAIN = /^[ !#-[\]-~]*$/;

/** The outline's JSON, or undefined for a record that has none (see outlineMessageRecord). */
export function outlineJson(record: ParsedSessionRecord): string | undefined {
	const direct = directOutlineJson(record as unknown as MessageLike);
	if (direct !== undefined) return direct;
	const outlined = outlineMessageRecord(record);
	if (!outlined) return undefined;
	// The reader knows the session: its id is not repeated on every line.
	(outlined as { sessionId?: string }).sessionId = undefined;
	return JSON.stringify(outlined);
}

interface MessageLike {
	type?: unknown;
	v?: unknown;
	timestamp?: unknown;
	id?: unknown;
	parentId?: unknown;
	message?: {
		role?: unknown;
		timestamp?: unknown;
		content?: unknown;
		stopReason?: unknown;
		toolCallId?: unknown;
		toolName?: unknown;
		isError?: unknown;
	};
}

/** What JSON.stringify gives for outlineMessageRecord's result, for the usual cases; else undefined. */
function directOutlineJson(record: MessageLike): string | undefined {
	const message = record.message;
	if (
		record.type !== "message" ||
		typeof record.v !== "number" ||
		!isFiniteNumber(record.timestamp) ||
		!isPlain(record.id) ||
		!(record.parentId === null || isPlain(record.parentId)) ||
		typeof message !== "object" ||
		message === null ||
		!isFiniteNumber(message.timestamp)
	) {
		return undefined;
	}
	let outline: string;
	if (message.role === "user") outline = `{"role":"user","timestamp":${message.timestamp}}`;
	else if (message.role === "assistant") {
		if (!Array.isArray(message.content) || !isPlain(message.stopReason)) return undefined;
		let calls = "";
		for (const block of message.content as { type?: unknown; id?: unknown; name?: unknown }[]) {
			if (block?.type !== "toolCall") continue;
			if (!isPlain(block.id) || !isPlain(block.name)) return undefined;
			calls += `${calls ? "," : ""}{"type":"toolCall","id":"${block.id}","name":"${block.name}","arguments":{}}`;
		}
		outline = `{"role":"assistant","content":[${calls}],"stopReason":"${message.stopReason}","timestamp":${message.timestamp}}`;
	} else if (message.role === "toolResult") {
		if (!isPlain(message.toolCallId) || !isPlain(message.toolName) || typeof message.isError !== "boolean") {
			return undefined;
		}
		outline = `{"role":"toolResult","toolCallId":"${message.toolCallId}","toolName":"${message.toolName}","content":[],"isError":${message.isError},"timestamp":${message.timestamp}}`;
	} else return undefined;
	const parentId = record.parentId === null ? "null" : `"${record.parentId}"`;
	return `{"type":"message","v":${record.v},"timestamp":${record.timestamp},"id":"${record.id}","parentId":${parentId},"message":${outline}}`;
}

function isPlain(value: unknown): value is string {
	return typeof value === "string" && PLAIN.test(value);
}

function isFiniteNumber(value: unknown): value is number {
	return typeof value === "number" && Number.isFinite(value);
}

// The one serialisable form of a session: a record is one line of JSON. `serializeSessionRecord`
// writes it, `parseSessionRecord` reads it back, validating what Keel relies on and migrating older
// format versions. Every failure is a SessionRecordError naming the line and the field.

import type { AgentMessage } from "../types.js";
import { validateApprovalRecord } from "./approval-record-validation.js";
import {
	describe,
	FieldError,
	isPlainObject,
	optionalNumber,
	optionalString,
	requireNumber,
	requireObject,
	requireString,
	validateAgentMessage,
} from "./message-validation.js";
import { migrateRecord } from "./record-migration.js";
import { SessionRecordError } from "./session-errors.js";
import { SESSION_FORMAT_VERSION, type SessionRecord, type UnknownSessionRecord } from "./session-types.js";

/** A record as read back: one Keel knows, or a newer writer's kept as it is. */
export type ParsedSessionRecord = SessionRecord | UnknownSessionRecord;

/** The record types of the current format; other types are kept, not validated. */
const KNOWN_RECORD_TYPES = new Set(["session", "message", "state", "leaf", "queue", "title", "approval"]);

/**
 * One record as one line of JSON (no trailing newline). Throws a SessionRecordError when the record
 * cannot round-trip: a value JSON cannot hold (a cycle, a BigInt), a missing type, or a timestamp
 * that is not a finite number (JSON would turn NaN into null).
 */
export function serializeSessionRecord(record: SessionRecord): string {
	if (!isPlainObject(record) || typeof record.type !== "string") {
		throw new SessionRecordError("record.type must be a string: a session record is an object with a type", {
			field: "type",
		});
	}
	if (typeof record.timestamp !== "number" || !Number.isFinite(record.timestamp)) {
		throw new SessionRecordError(`record.timestamp must be a finite number, got ${describe(record.timestamp)}`, {
			field: "timestamp",
		});
	}
	try {
		return JSON.stringify(record);
	} catch (error) {
		throw new SessionRecordError(
			`a ${record.type} record cannot be written as JSON: ${error instanceof Error ? error.message : String(error)}`,
		);
	}
}

/**
 * Parses one line of a transcript into the records it holds: one, except when migrating an older
 * format splits a line (a version-0 user line with several tool results).
 */
export function parseSessionRecords(
	line: string,
	lineNumber?: number,
	/** Runs on the parsed object before validation (the JSONL store puts blob data back here). */
	prepare?: (record: Record<string, unknown>) => void,
): ParsedSessionRecord[] {
	const prefix = lineNumber === undefined ? "" : `line ${lineNumber}: `;
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new SessionRecordError(`${prefix}not valid JSON (${reason}); a record is one JSON object per line`, {
			line: lineNumber,
		});
	}
	try {
		const record = requireObject(value, "record");
		prepare?.(record);
		const version = recordVersion(record);
		if (version >= SESSION_FORMAT_VERSION) return [validateRecord(record)];
		return migrateRecord(record, version).map(validateRecord);
	} catch (error) {
		if (error instanceof FieldError) {
			throw new SessionRecordError(`${prefix}${error.message}`, { line: lineNumber, field: error.field });
		}
		if (error instanceof SessionRecordError) throw error;
		const reason = error instanceof Error ? error.message : String(error);
		throw new SessionRecordError(`${prefix}${reason}`, { line: lineNumber });
	}
}

/** Parses one line holding exactly one record (see parseSessionRecords for migrated lines that split). */
export function parseSessionRecord(line: string, lineNumber?: number): ParsedSessionRecord {
	const records = parseSessionRecords(line, lineNumber);
	if (records.length !== 1) {
		const prefix = lineNumber === undefined ? "" : `line ${lineNumber}: `;
		throw new SessionRecordError(
			`${prefix}an older-format line that migrates into ${records.length} records; read it with parseSessionRecords`,
			{ line: lineNumber },
		);
	}
	return records[0];
}

/**
 * Parses and validates one message from JSON (a string, or a value already parsed). Errors name the
 * field from `message`, for example `message.content[2].text must be a string, got a number`.
 */
export function parseAgentMessage(json: string | unknown): AgentMessage {
	let value = json;
	if (typeof json === "string") {
		try {
			value = JSON.parse(json);
		} catch (error) {
			throw new SessionRecordError(
				`message is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
			);
		}
	}
	try {
		return validateAgentMessage(value, "message");
	} catch (error) {
		if (error instanceof FieldError) throw new SessionRecordError(error.message, { field: error.field });
		throw error;
	}
}

function recordVersion(record: Record<string, unknown>): number {
	const version = record.v;
	if (version === undefined) {
		// No version field: the version-0 line shape. Keel's own record types always carry `v`, so one
		// without it is damaged rather than old.
		if (typeof record.type === "string" && KNOWN_RECORD_TYPES.has(record.type)) {
			throw new FieldError("v", "must be a number (the record's format version), got nothing");
		}
		return 0;
	}
	if (typeof version !== "number" || !Number.isInteger(version) || version < 0) {
		throw new FieldError("v", `must be a non-negative integer (the record's format version), got ${describe(version)}`);
	}
	return version;
}

/**
 * Validates a current-format record. A record of a newer version is read with the same checks:
 * versions add fields, and what this version needs must still be there.
 */
function validateRecord(record: Record<string, unknown>): ParsedSessionRecord {
	const type = requireString(record, "type", "record");
	if (!KNOWN_RECORD_TYPES.has(type)) return record as UnknownSessionRecord;
	requireString(record, "sessionId", "record");
	requireNumber(record, "timestamp", "record");
	switch (type) {
		case "session":
			optionalString(record, "title", "record");
			optionalString(record, "parentSessionId", "record");
			optionalString(record, "parentMessageId", "record");
			optionalString(record, "parentToolCallId", "record");
			break;
		case "message":
			requireString(record, "id", "record");
			requireNullableString(record, "parentId");
			validateAgentMessage(record.message, "message");
			break;
		case "state":
			validateState(record.state);
			break;
		case "leaf":
			requireNullableString(record, "leafId");
			break;
		case "queue":
			if (record.action !== "enqueued" && record.action !== "delivered" && record.action !== "dropped") {
				throw new FieldError(
					"action",
					`must be "enqueued", "delivered" or "dropped", got ${JSON.stringify(record.action)}`,
				);
			}
			requireString(record, "queueItemId", "record");
			optionalString(record, "queue", "record");
			optionalNumber(record, "priority", "record");
			if (record.message !== undefined) validateAgentMessage(record.message, "message");
			break;
		case "title":
			requireString(record, "title", "record");
			break;
		case "approval":
			validateApprovalRecord(record);
			break;
	}
	return record as unknown as SessionRecord;
}

function requireNullableString(record: Record<string, unknown>, key: string): void {
	const value = record[key];
	if (value !== null && typeof value !== "string") {
		throw new FieldError(key, `must be a string or null, got ${describe(value)}`);
	}
}

function validateState(value: unknown): void {
	const state = requireObject(value, "state");
	for (const key of ["workingDirectory", "currentTask", "memorySummary", "permissionMode"]) {
		optionalString(state, key, "state");
	}
	if (state.activeSubAgentIds !== undefined) {
		if (!Array.isArray(state.activeSubAgentIds) || state.activeSubAgentIds.some((id) => typeof id !== "string")) {
			throw new FieldError("state.activeSubAgentIds", "must be an array of strings when present");
		}
	}
	if (state.tokenBudget !== undefined) {
		const budget = requireObject(state.tokenBudget, "state.tokenBudget");
		for (const key of ["contextWindow", "lastInputTokens", "compactionCount"])
			optionalNumber(budget, key, "state.tokenBudget");
	}
	if (state.custom !== undefined) requireObject(state.custom, "state.custom");
}

// Validates a message read back from JSON: the role-specific fields and the shape of every content
// block. It checks what the rest of Keel relies on and nothing more, so that a message written by a
// newer version (an extra field, a block type this version does not know) is kept, not rejected.

import { MessageValidationError, validateContentBlocks, validateMessage } from "@keel/ai";
import type { AgentMessage } from "../types.js";

/**
 * Thrown with the path of the offending field; the caller adds the line number. The same class as
 * @keel/ai's MessageValidationError, which checks the LLM roles for sessions and the proxy alike.
 */
export const FieldError = MessageValidationError;
export type FieldError = MessageValidationError;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function requireObject(value: unknown, field: string): Record<string, unknown> {
	if (!isPlainObject(value)) throw new FieldError(field, `must be an object, got ${describe(value)}`);
	return value;
}

export function requireString(object: Record<string, unknown>, key: string, path: string): string {
	const value = object[key];
	if (typeof value !== "string") throw new FieldError(`${path}.${key}`, `must be a string, got ${describe(value)}`);
	return value;
}

export function optionalString(object: Record<string, unknown>, key: string, path: string): void {
	const value = object[key];
	if (value !== undefined && typeof value !== "string") {
		throw new FieldError(`${path}.${key}`, `must be a string when present, got ${describe(value)}`);
	}
}

export function requireNumber(object: Record<string, unknown>, key: string, path: string): number {
	const value = object[key];
	if (typeof value !== "number" || !Number.isFinite(value)) {
		throw new FieldError(`${path}.${key}`, `must be a finite number, got ${describe(value)}`);
	}
	return value;
}

export function optionalNumber(object: Record<string, unknown>, key: string, path: string): void {
	const value = object[key];
	if (value !== undefined && (typeof value !== "number" || !Number.isFinite(value))) {
		throw new FieldError(`${path}.${key}`, `must be a finite number when present, got ${describe(value)}`);
	}
}

function requireArray(object: Record<string, unknown>, key: string, path: string): unknown[] {
	const value = object[key];
	if (!Array.isArray(value)) throw new FieldError(`${path}.${key}`, `must be an array, got ${describe(value)}`);
	return value;
}

/** A short description of a value for an error message (never the value itself: it may be large or private). */
export function describe(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array";
	if (value === undefined) return "nothing";
	return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

const USER_BLOCKS = ["text", "image"] as const;

/** Validates one message in place and returns it typed. `path` names it in errors (`message`). */
export function validateAgentMessage(value: unknown, path: string): AgentMessage {
	const message = requireObject(value, path);
	const role = requireString(message, "role", path);
	switch (role) {
		case "system":
		case "user":
		case "assistant":
		case "toolResult":
			// The LLM roles: one validator, in @keel/ai, for stored transcripts and proxy requests alike.
			validateMessage(message, path);
			break;
		case "progress":
			optionalString(message, "toolCallId", path);
			optionalString(message, "text", path);
			requireNumber(message, "timestamp", path);
			break;
		case "attachment":
			requireString(message, "name", path);
			optionalString(message, "mimeType", path);
			validateContentBlocks(requireArray(message, "content", path), `${path}.content`, USER_BLOCKS);
			requireNumber(message, "timestamp", path);
			break;
		case "notification":
			requireString(message, "kind", path);
			requireString(message, "text", path);
			requireNumber(message, "timestamp", path);
			break;
		case "summary":
			requireString(message, "summary", path);
			requireNumber(message, "summarisedMessageCount", path);
			requireNumber(message, "timestamp", path);
			break;
		case "compact_boundary":
			requireString(message, "trigger", path);
			requireString(message, "summaryId", path);
			optionalString(message, "firstKeptMessageId", path);
			optionalNumber(message, "tokensBefore", path);
			requireNumber(message, "timestamp", path);
			break;
		case "tombstone":
			requireString(message, "targetId", path);
			optionalString(message, "reason", path);
			requireNumber(message, "timestamp", path);
			break;
		default:
			// An application's own kind (declaration merging) or a newer version's: kept as it is.
			break;
	}
	return message as unknown as AgentMessage;
}

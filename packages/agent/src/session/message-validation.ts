// Validates a message read back from JSON: the role-specific fields and the shape of every content
// block. It checks what the rest of Keel relies on and nothing more, so that a message written by a
// newer version (an extra field, a block type this version does not know) is kept, not rejected.

import type { AgentMessage } from "../types.js";

/** Thrown with the path of the offending field; the caller adds the line number. */
export class FieldError extends Error {
	readonly field: string;

	constructor(field: string, problem: string) {
		super(`${field} ${problem}`);
		this.field = field;
	}
}

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

function requireBoolean(object: Record<string, unknown>, key: string, path: string): void {
	if (typeof object[key] !== "boolean") {
		throw new FieldError(`${path}.${key}`, `must be a boolean, got ${describe(object[key])}`);
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

type BlockKind = "text" | "image" | "thinking" | "toolCall";

/**
 * Checks each block of a content array. Blocks of the kinds in `allowed` are checked field by field;
 * a block of a type Keel does not know at all is kept as it is (a newer version's); a known type in
 * the wrong place (a tool call in a user message) is an error.
 */
function validateContentBlocks(blocks: unknown[], path: string, allowed: readonly BlockKind[]): void {
	for (let index = 0; index < blocks.length; index++) {
		const blockPath = `${path}[${index}]`;
		const block = requireObject(blocks[index], blockPath);
		const type = requireString(block, "type", blockPath);
		switch (type) {
			case "text":
				requireString(block, "text", blockPath);
				optionalString(block, "textSignature", blockPath);
				break;
			case "image":
				requireString(block, "data", blockPath);
				requireString(block, "mimeType", blockPath);
				break;
			case "thinking":
				requireString(block, "thinking", blockPath);
				optionalString(block, "thinkingSignature", blockPath);
				break;
			case "toolCall":
				requireString(block, "id", blockPath);
				requireString(block, "name", blockPath);
				requireObject(block.arguments, `${blockPath}.arguments`);
				optionalString(block, "thoughtSignature", blockPath);
				break;
			default:
				// A newer version's block type: kept verbatim so nothing is lost on a round trip.
				continue;
		}
		if (!allowed.includes(type as BlockKind)) {
			throw new FieldError(`${blockPath}.type`, `"${type}" is not allowed here (expected ${allowed.join(", ")})`);
		}
	}
}

const USER_BLOCKS = ["text", "image"] as const;
const ASSISTANT_BLOCKS = ["text", "thinking", "toolCall"] as const;

/** Validates one message in place and returns it typed. `path` names it in errors (`message`). */
export function validateAgentMessage(value: unknown, path: string): AgentMessage {
	const message = requireObject(value, path);
	const role = requireString(message, "role", path);
	switch (role) {
		case "user": {
			requireNumber(message, "timestamp", path);
			const content = message.content;
			if (typeof content !== "string") {
				if (!Array.isArray(content)) {
					throw new FieldError(`${path}.content`, `must be a string or an array, got ${describe(content)}`);
				}
				validateContentBlocks(content, `${path}.content`, USER_BLOCKS);
			}
			break;
		}
		case "assistant":
			validateContentBlocks(requireArray(message, "content", path), `${path}.content`, ASSISTANT_BLOCKS);
			requireString(message, "api", path);
			requireString(message, "provider", path);
			requireString(message, "model", path);
			requireObject(message.usage, `${path}.usage`);
			requireString(message, "stopReason", path);
			optionalString(message, "errorMessage", path);
			requireNumber(message, "timestamp", path);
			break;
		case "toolResult":
			requireString(message, "toolCallId", path);
			requireString(message, "toolName", path);
			validateContentBlocks(requireArray(message, "content", path), `${path}.content`, USER_BLOCKS);
			requireBoolean(message, "isError", path);
			requireNumber(message, "timestamp", path);
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

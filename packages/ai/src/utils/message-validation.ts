// Checks that a value read from JSON (a stored transcript, a request body) is a message of the three
// LLM roles: the role-specific fields and the shape of every content block, which the provider
// encoders rely on. Every failure names the field (`message.content[2].text must be a string, got a
// number`). Pure: no I/O, nothing from Node, safe in any runtime.
import { isStandardSchema } from "../schema/standard-schema.js";
import type { Message } from "../types.js";

/** A value that is not the shape Keel needs, with the path of the offending field. */
export class MessageValidationError extends Error {
	/** The path of the field, e.g. `context.messages[0].content[1].text`. */
	readonly field: string;
	/** What is wrong with it, e.g. `must be a string, got a number`. */
	readonly problem: string;

	constructor(field: string, problem: string) {
		super(`${field} ${problem}`);
		this.name = "MessageValidationError";
		this.field = field;
		this.problem = problem;
	}
}

/** A short description of a value for an error message (never the value itself: it may be large or private). */
export function describeValue(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "an array";
	if (value === undefined) return "nothing";
	return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function requireObject(value: unknown, field: string): Record<string, unknown> {
	if (!isPlainObject(value)) throw new MessageValidationError(field, `must be an object, got ${describeValue(value)}`);
	return value;
}

function requireString(object: Record<string, unknown>, key: string, path: string): void {
	const value = object[key];
	if (typeof value !== "string") {
		throw new MessageValidationError(`${path}.${key}`, `must be a string, got ${describeValue(value)}`);
	}
}

function optionalString(object: Record<string, unknown>, key: string, path: string): void {
	const value = object[key];
	if (value !== undefined && typeof value !== "string") {
		throw new MessageValidationError(`${path}.${key}`, `must be a string when present, got ${describeValue(value)}`);
	}
}

function requireNumber(object: Record<string, unknown>, key: string, path: string): void {
	const value = object[key];
	if (typeof value !== "number" || !Number.isFinite(value)) {
		throw new MessageValidationError(`${path}.${key}`, `must be a finite number, got ${describeValue(value)}`);
	}
}

function requireBoolean(object: Record<string, unknown>, key: string, path: string): void {
	if (typeof object[key] !== "boolean") {
		throw new MessageValidationError(`${path}.${key}`, `must be a boolean, got ${describeValue(object[key])}`);
	}
}

function requireArray(object: Record<string, unknown>, key: string, path: string): unknown[] {
	const value = object[key];
	if (!Array.isArray(value)) {
		throw new MessageValidationError(`${path}.${key}`, `must be an array, got ${describeValue(value)}`);
	}
	return value;
}

export interface MessageValidationOptions {
	/**
	 * A content block of a type Keel does not know. `"keep"` (the default) keeps it as it is: a
	 * transcript written by a newer version must round-trip. `"reject"` refuses it: a request about
	 * to reach a provider encoder must hold only the blocks the encoders handle.
	 */
	unknownBlockTypes?: "keep" | "reject";
}

/** The content block types Keel knows. */
export type ContentBlockType = "text" | "image" | "file" | "audio" | "thinking" | "toolCall";
const USER_BLOCKS: readonly ContentBlockType[] = ["text", "image", "file", "audio"];
const TOOL_RESULT_BLOCKS: readonly ContentBlockType[] = ["text", "image", "file"];
const ASSISTANT_BLOCKS: readonly ContentBlockType[] = ["text", "thinking", "toolCall"];

/**
 * Checks each block of a content array (of an LLM message, or of an application's own kind of
 * message that holds content). Blocks of the kinds in `allowed` are checked field by field; a known
 * type in the wrong place (a tool call in a user message) is an error.
 */
export function validateContentBlocks(
	blocks: unknown[],
	path: string,
	allowed: readonly ContentBlockType[],
	options: MessageValidationOptions = {},
): void {
	for (let index = 0; index < blocks.length; index++) {
		const blockPath = `${path}[${index}]`;
		const block = requireObject(blocks[index], blockPath);
		requireString(block, "type", blockPath);
		const type = block.type as string;
		switch (type) {
			case "text":
				requireString(block, "text", blockPath);
				optionalString(block, "textSignature", blockPath);
				break;
			case "image":
			case "audio":
				requireString(block, "data", blockPath);
				requireString(block, "mimeType", blockPath);
				break;
			case "file":
				requireString(block, "mimeType", blockPath);
				optionalString(block, "data", blockPath);
				optionalString(block, "url", blockPath);
				optionalString(block, "filename", blockPath);
				if ((block.data === undefined) === (block.url === undefined)) {
					throw new MessageValidationError(blockPath, "must have exactly one of data (base64) and url");
				}
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
				if (options.unknownBlockTypes === "reject") {
					throw new MessageValidationError(
						`${blockPath}.type`,
						`must be one of ${allowed.join(", ")}, got ${JSON.stringify(type.slice(0, 64))}`,
					);
				}
				// A newer version's block type: kept verbatim so nothing is lost on a round trip.
				continue;
		}
		if (!allowed.includes(type as ContentBlockType)) {
			throw new MessageValidationError(
				`${blockPath}.type`,
				`"${type}" is not allowed here (expected ${allowed.join(", ")})`,
			);
		}
	}
}

/**
 * The roles `validateMessage` knows. `system` is a system message inside the transcript (new
 * instructions, prompt sections or tool changes from that point on).
 */
export const MESSAGE_ROLES: readonly string[] = ["system", "user", "assistant", "toolResult"];

/** Checks one tool definition: a string name, an optional string description, an object schema. */
export function validateTool(value: unknown, path: string): void {
	const tool = requireObject(value, path);
	requireString(tool, "name", path);
	optionalString(tool, "description", path);
	if (!isPlainObject(tool.parameters) && !isStandardSchema(tool.parameters)) {
		throw new MessageValidationError(
			`${path}.parameters`,
			`must be a JSON Schema object, a TypeBox schema or a Standard Schema (Zod, Valibot, ArkType), got ${describeValue(tool.parameters)}`,
		);
	}
	if (tool.strict !== undefined && typeof tool.strict !== "boolean") {
		throw new MessageValidationError(
			`${path}.strict`,
			`must be a boolean when present, got ${describeValue(tool.strict)}`,
		);
	}
}

function validateSystemMessage(
	message: Record<string, unknown>,
	path: string,
	options: MessageValidationOptions,
): void {
	requireNumber(message, "timestamp", path);
	const content = message.content;
	if (typeof content !== "string") {
		if (!Array.isArray(content)) {
			throw new MessageValidationError(
				`${path}.content`,
				`must be a string or an array, got ${describeValue(content)}`,
			);
		}
		validateContentBlocks(content, `${path}.content`, ["text"], options);
	}
	if (message.sections !== undefined) {
		const sections = requireObject(message.sections, `${path}.sections`);
		for (const [name, text] of Object.entries(sections)) {
			if (text !== null && typeof text !== "string") {
				throw new MessageValidationError(
					`${path}.sections.${name}`,
					`must be a string or null, got ${describeValue(text)}`,
				);
			}
		}
	}
	if (message.toolsAdded !== undefined) {
		const added = requireArray(message, "toolsAdded", path);
		for (let index = 0; index < added.length; index++) validateTool(added[index], `${path}.toolsAdded[${index}]`);
	}
	if (message.toolsRemoved !== undefined) {
		const removed = requireArray(message, "toolsRemoved", path);
		for (let index = 0; index < removed.length; index++) {
			const referencePath = `${path}.toolsRemoved[${index}]`;
			requireString(requireObject(removed[index], referencePath), "name", referencePath);
		}
	}
}

/**
 * Validates one message of the LLM roles (system, user, assistant, toolResult) in place and
 * returns it typed; `path` names it in errors (default `message`). Fields Keel does not read are
 * kept as they are. Any other role is an error: an application's own kinds of message are
 * validated by whoever defines them.
 */
export function validateMessage(value: unknown, path = "message", options: MessageValidationOptions = {}): Message {
	const message = requireObject(value, path);
	requireString(message, "role", path);
	switch (message.role) {
		case "system":
			validateSystemMessage(message, path, options);
			break;
		case "user": {
			requireNumber(message, "timestamp", path);
			const content = message.content;
			if (typeof content !== "string") {
				if (!Array.isArray(content)) {
					throw new MessageValidationError(
						`${path}.content`,
						`must be a string or an array, got ${describeValue(content)}`,
					);
				}
				validateContentBlocks(content, `${path}.content`, USER_BLOCKS, options);
			}
			break;
		}
		case "assistant":
			validateContentBlocks(requireArray(message, "content", path), `${path}.content`, ASSISTANT_BLOCKS, options);
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
			validateContentBlocks(requireArray(message, "content", path), `${path}.content`, TOOL_RESULT_BLOCKS, options);
			requireBoolean(message, "isError", path);
			requireNumber(message, "timestamp", path);
			// What the tool itself spent (an agent run as a tool); absent on most results.
			if (message.usage !== undefined) requireObject(message.usage, `${path}.usage`);
			break;
		default:
			throw new MessageValidationError(
				`${path}.role`,
				`must be one of ${MESSAGE_ROLES.join(", ")}, got ${JSON.stringify((message.role as string).slice(0, 64))}`,
			);
	}
	return message as unknown as Message;
}

/**
 * Parses and validates one message from JSON (a string, or a value already parsed). Errors are
 * MessageValidationErrors naming the field from `message`.
 */
export function parseMessage(json: unknown, options: MessageValidationOptions = {}): Message {
	let value = json;
	if (typeof json === "string") {
		try {
			value = JSON.parse(json);
		} catch (error) {
			throw new MessageValidationError(
				"message",
				`is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
			);
		}
	}
	return validateMessage(value, "message", options);
}

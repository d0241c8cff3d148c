// Checks that a value read from JSON is a whole Context before any provider sees it: its system
// prompt, every message (validateMessage, with unknown block types refused) and every tool, within
// limits on nesting depth and counts. A server that takes contexts from clients (the proxy) calls
// it first, so a malformed or hostile body is a clear error naming the field rather than a crash,
// a stack overflow or a confusing provider error later. Pure and iterative: a 100,000-deep array
// (which JSON.parse accepts, and JSON.stringify would overflow the stack on) is measured without
// recursion and refused.
import type { Context } from "../types.js";
import { describeValue, MessageValidationError, validateMessage, validateTool } from "./message-validation.js";

/** Bounds on a context read from an untrusted source. */
export interface ContextLimits {
	/**
	 * The deepest nesting of arrays and objects allowed, counted from the context itself (a
	 * message's content block is at depth 4, a tool call's arguments at 5). Default 64: deep enough
	 * for any real tool schema or arguments, far below what overflows a stack.
	 */
	maxDepth?: number;
	/** The most messages. Default 10,000. */
	maxMessages?: number;
	/** The most tools. Default 1,000. */
	maxTools?: number;
}

export const DEFAULT_CONTEXT_LIMITS: Required<ContextLimits> = { maxDepth: 64, maxMessages: 10_000, maxTools: 1_000 };

/** The path segments shown for a value nested too deep: enough to find it, never the whole chain. */
const SHOWN_PATH_SEGMENTS = 8;

/** Where a nested value sits: its own segment and its parent's place (the path is built only on failure). */
interface Place {
	segment: string;
	parent: Place | undefined;
}

function pathOf(place: Place): string {
	const segments: string[] = [];
	for (let current: Place | undefined = place; current; current = current.parent) segments.push(current.segment);
	segments.reverse();
	return segments.length > SHOWN_PATH_SEGMENTS
		? `${segments.slice(0, SHOWN_PATH_SEGMENTS).join("")}…`
		: segments.join("");
}

/**
 * The path of the first array or object nested deeper than `maxDepth` below `value` (counting
 * `value` as depth 1), or undefined. Iterative: it never recurses, whatever the depth, and it keeps
 * one small record per array or object, not a path string.
 */
function findTooDeep(value: object, path: string, maxDepth: number): string | undefined {
	const stack: { value: object; depth: number; place: Place }[] = [
		{ value, depth: 1, place: { segment: path, parent: undefined } },
	];
	while (stack.length > 0) {
		const { value: current, depth, place } = stack.pop()!;
		if (depth > maxDepth) return pathOf(place);
		if (Array.isArray(current)) {
			for (let index = 0; index < current.length; index++) {
				const item: unknown = current[index];
				if (typeof item === "object" && item !== null) {
					stack.push({ value: item, depth: depth + 1, place: { segment: `[${index}]`, parent: place } });
				}
			}
			continue;
		}
		for (const key in current) {
			const item: unknown = (current as Record<string, unknown>)[key];
			if (typeof item === "object" && item !== null) {
				stack.push({ value: item, depth: depth + 1, place: { segment: `.${key}`, parent: place } });
			}
		}
	}
	return undefined;
}

function checkLimit(value: number | undefined, name: keyof ContextLimits): number {
	const limit = value ?? DEFAULT_CONTEXT_LIMITS[name];
	if (!Number.isInteger(limit) || limit < 1) {
		throw new Error(`validateContext: limits.${name} must be a positive integer, got ${String(value)}`);
	}
	return limit;
}

/**
 * Validates a whole context in place and returns it typed, with only its three fields
 * (`systemPrompt`, `messages`, `tools`): anything else on the object is dropped. Throws a
 * MessageValidationError naming the field (`context.messages[0].content[0].text must be a string,
 * got a number`). Content blocks of a type Keel does not know are refused.
 */
export function validateContext(value: unknown, limits: ContextLimits = {}, path = "context"): Context {
	const maxDepth = checkLimit(limits.maxDepth, "maxDepth");
	const maxMessages = checkLimit(limits.maxMessages, "maxMessages");
	const maxTools = checkLimit(limits.maxTools, "maxTools");
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		throw new MessageValidationError(path, `must be an object with a messages array, got ${describeValue(value)}`);
	}
	const tooDeep = findTooDeep(value, path, maxDepth);
	if (tooDeep !== undefined) {
		throw new MessageValidationError(tooDeep, `nests arrays or objects deeper than ${maxDepth} levels (maxDepth)`);
	}
	const context = value as Record<string, unknown>;
	if (context.systemPrompt !== undefined && typeof context.systemPrompt !== "string") {
		throw new MessageValidationError(
			`${path}.systemPrompt`,
			`must be a string when present, got ${describeValue(context.systemPrompt)}`,
		);
	}
	const messages = context.messages;
	if (!Array.isArray(messages)) {
		throw new MessageValidationError(`${path}.messages`, `must be an array, got ${describeValue(messages)}`);
	}
	if (messages.length > maxMessages) {
		throw new MessageValidationError(
			`${path}.messages`,
			`holds ${messages.length} messages, more than the limit of ${maxMessages} (maxMessages)`,
		);
	}
	for (let index = 0; index < messages.length; index++) {
		validateMessage(messages[index], `${path}.messages[${index}]`, { unknownBlockTypes: "reject" });
	}
	const validated: Context = { messages: messages as Context["messages"] };
	if (context.systemPrompt !== undefined) validated.systemPrompt = context.systemPrompt as string;
	if (context.tools !== undefined) {
		validated.tools = validateTools(context.tools, `${path}.tools`, maxTools);
	}
	return validated;
}

function validateTools(tools: unknown, path: string, maxTools: number): Context["tools"] {
	if (!Array.isArray(tools)) throw new MessageValidationError(path, `must be an array, got ${describeValue(tools)}`);
	if (tools.length > maxTools) {
		throw new MessageValidationError(
			path,
			`holds ${tools.length} tools, more than the limit of ${maxTools} (maxTools)`,
		);
	}
	for (let index = 0; index < tools.length; index++) validateTool(tools[index], `${path}[${index}]`);
	return tools as Context["tools"];
}

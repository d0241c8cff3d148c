// The plain form of an outline in the outline index (outline-sidecar-format.ts): the fields of
// outlineMessageRecord's result for a user, assistant or tool-result message, tab-separated, read
// back byte by byte into the outline's final shape — no JSON.parse, no object filled in later.
//
//   u <v> <timestamp> <id> <parent id> <message timestamp>                 a user message
//   a <v> <timestamp> <id> <parent id> <message timestamp> <stop reason>   an assistant message,
//     [<tool-call id> <tool name>]…                                         with its tool calls
//   r <v> <timestamp> <id> <parent id> <message timestamp> <tool-call id>  a tool result
//     <tool name> <0 | 1: isError>
//
// An empty parent id is the id of the message the entry before outlined (nearly every message
// follows the one before it), and the reader hands over that very string; an empty message
// timestamp is the record's. Only messages whose strings are printable ASCII (no tab) and whose
// numbers are integers of at most 15 digits take this form, with a parent: the rest are written
// as JSON.

import type { AssistantMessage, ToolResultMessage } from "@keel/ai";
import type { AgentMessage } from "../../types.js";
import type { ParsedSessionRecord } from "../record-format.js";
import type { SessionMessageRecord } from "../session-types.js";

const TAB = 9;
const DIGIT_0 = 48;
const PRINTABLE_FIRST = 32;
const PRINTABLE_LAST = 126;
const USER = 117; // "u"
const ASSISTANT = 97; // "a"
const TOOL_RESULT = 114; // "r"
const FIELD_TEXT = /^[ -~]*$/;
const MAX_DIGITS = 15;
/** How many distinct stop reasons and tool names a reader shares one string for. */
const POOLED_STRINGS = 64;

/** Shared by every outline that has none, as outlineMessageRecord's outlines share theirs. */
const NO_CONTENT = Object.freeze([]) as unknown as AssistantMessage["content"];

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

/**
 * The plain fields of `record`'s outline, `previousId` being the id of the message the entry before
 * outlined; undefined when the record has no outline of this form (write its JSON instead).
 */
export function outlineFields(parsed: ParsedSessionRecord, previousId: string | undefined): string | undefined {
	const record = parsed as unknown as MessageLike;
	const message = record.message;
	if (
		record.type !== "message" ||
		!isCount(record.v) ||
		!isCount(record.timestamp) ||
		!isFieldText(record.id) ||
		!isFieldText(record.parentId) ||
		record.parentId === "" ||
		typeof message !== "object" ||
		message === null ||
		!isCount(message.timestamp)
	) {
		return undefined;
	}
	const parent = record.parentId === previousId ? "" : record.parentId;
	const messageTimestamp = message.timestamp === record.timestamp ? "" : message.timestamp;
	const head = `${record.v}\t${record.timestamp}\t${record.id}\t${parent}\t${messageTimestamp}`;
	if (message.role === "user") return `u\t${head}`;
	if (message.role === "assistant") {
		if (!Array.isArray(message.content) || !isFieldText(message.stopReason)) return undefined;
		let calls = "";
		for (const block of message.content as { type?: unknown; id?: unknown; name?: unknown }[]) {
			if (typeof block !== "object" || block === null) return undefined;
			if (block.type !== "toolCall") continue;
			if (!isFieldText(block.id) || !isFieldText(block.name)) return undefined;
			calls += `\t${block.id}\t${block.name}`;
		}
		return `a\t${head}\t${message.stopReason}${calls}`;
	}
	if (message.role === "toolResult") {
		if (!isFieldText(message.toolCallId) || !isFieldText(message.toolName) || typeof message.isError !== "boolean") {
			return undefined;
		}
		return `r\t${head}\t${message.toolCallId}\t${message.toolName}\t${message.isError ? 1 : 0}`;
	}
	return undefined;
}

function isFieldText(value: unknown): value is string {
	return typeof value === "string" && FIELD_TEXT.test(value);
}

function isCount(value: unknown): value is number {
	return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 && value < 10 ** MAX_DIGITS;
}

/**
 * Reads plain outline fields back. One per index read: it keeps the stop reasons and tool names it
 * has read, so that the outlines of a session share one string for each.
 */
export class OutlineFieldsReader {
	private bytes: Buffer = Buffer.alloc(0);
	/** Where the next field starts; past `end` + 1 when the last one has been read. */
	private at = 0;
	private end = 0;
	private fieldStart = 0;
	private fieldEnd = 0;
	private failed = false;
	private readonly pooled: string[] = [];

	constructor(private readonly sessionId: string) {}

	/**
	 * The outline in `bytes` from `start` to `end` (the entry after its offset and length), or
	 * undefined when it is not well-formed. `previousId`: the id the entry before outlined.
	 */
	read(bytes: Buffer, start: number, end: number, previousId: string | undefined): SessionMessageRecord | undefined {
		if (end - start < 2 || bytes[start + 1] !== TAB) return undefined;
		const kind = bytes[start];
		this.bytes = bytes;
		this.at = start + 2;
		this.end = end;
		this.failed = false;
		const v = this.count();
		const timestamp = this.count();
		const id = this.text();
		this.next();
		const parentId = this.fieldStart === this.fieldEnd ? previousId : this.decoded();
		this.next();
		const messageTimestamp = this.fieldStart === this.fieldEnd ? timestamp : this.digits();
		let message: AgentMessage;
		if (kind === USER) {
			message = { role: "user", timestamp: messageTimestamp } as AgentMessage;
		} else if (kind === ASSISTANT) {
			const stopReason = this.pooledText();
			let content = NO_CONTENT;
			while (this.at <= this.end && !this.failed) {
				const callId = this.text();
				const name = this.pooledText();
				if (content === NO_CONTENT) content = [];
				content.push({ type: "toolCall", id: callId, name, arguments: {} });
			}
			message = { role: "assistant", content, stopReason, timestamp: messageTimestamp } as unknown as AgentMessage;
		} else if (kind === TOOL_RESULT) {
			const toolCallId = this.text();
			const toolName = this.pooledText();
			this.next();
			const flag = this.fieldEnd - this.fieldStart === 1 ? bytes[this.fieldStart] - DIGIT_0 : -1;
			if (flag !== 0 && flag !== 1) return undefined;
			message = {
				role: "toolResult",
				toolCallId,
				toolName,
				content: NO_CONTENT as unknown as ToolResultMessage["content"],
				isError: flag === 1,
				timestamp: messageTimestamp,
			} as ToolResultMessage;
		} else return undefined;
		if (this.failed || this.at !== this.end + 1 || parentId === undefined) return undefined;
		// One literal in outlineMessageRecord's shape: every outline shares its hidden class.
		return { type: "message", v, sessionId: this.sessionId, timestamp, id, parentId, message };
	}

	/** Moves to the next field, checking that it is printable; fails the entry when there is none. */
	private next(): void {
		const bytes = this.bytes;
		const end = this.end;
		let at = this.at;
		if (at > end) {
			this.failed = true;
			this.fieldStart = this.fieldEnd = end;
			return;
		}
		this.fieldStart = at;
		for (; at < end; at++) {
			const byte = bytes[at];
			if (byte === TAB) break;
			if (byte < PRINTABLE_FIRST || byte > PRINTABLE_LAST) this.failed = true;
		}
		this.fieldEnd = at;
		this.at = at + 1;
	}

	private count(): number {
		this.next();
		return this.digits();
	}

	/** The current field as a number of at most MAX_DIGITS digits. */
	private digits(): number {
		const { bytes, fieldStart, fieldEnd } = this;
		if (fieldEnd === fieldStart || fieldEnd - fieldStart > MAX_DIGITS) this.failed = true;
		let value = 0;
		for (let index = fieldStart; index < fieldEnd; index++) {
			const digit = bytes[index] - DIGIT_0;
			if (digit < 0 || digit > 9) this.failed = true;
			value = value * 10 + digit;
		}
		return value;
	}

	private text(): string {
		this.next();
		return this.decoded();
	}

	/** The current field as a new string: no slice of the chunk read, which it would keep alive. */
	private decoded(): string {
		return this.bytes.toString("latin1", this.fieldStart, this.fieldEnd);
	}

	/** The next field as a string shared with the outlines before it that hold the same one. */
	private pooledText(): string {
		this.next();
		const { bytes, fieldStart, fieldEnd } = this;
		const length = fieldEnd - fieldStart;
		for (const candidate of this.pooled) {
			if (candidate.length !== length) continue;
			let index = 0;
			while (index < length && candidate.charCodeAt(index) === bytes[fieldStart + index]) index++;
			if (index === length) return candidate;
		}
		const text = this.decoded();
		if (this.pooled.length < POOLED_STRINGS) this.pooled.push(text);
		return text;
	}
}

// What `Session.open(store, id, { load: "context" })` keeps as the model context: the messages after
// the branch's last compaction boundary, and of those at most the newest `contextTokens` estimated
// tokens. No model takes more than its context window, so a never-compacted session of hundreds of
// megabytes is opened as the part a model could be sent, and the older messages stay on disk as
// outlines, as the messages before a compaction boundary do.
import type { AgentMessage } from "../types.js";
import { serializeSessionRecord } from "./record-format.js";
import type { SessionMessageRecord } from "./session-types.js";

/**
 * The default window of load: "context", in estimated tokens: the largest context window of every
 * model in @keel/ai's catalogue but the few listed in LARGER_WINDOW_MODELS (a test keeps it so), so
 * those models are never sent less than they could take and resuming a huge never-compacted session
 * holds a few megabytes of messages, not hundreds. Written out rather than read from the catalogue,
 * which this package does not load. An application on one of the larger models passes
 * `contextTokens: model.contextWindow`.
 */
export const DEFAULT_CONTEXT_TOKENS = 2_000_000;

/**
 * The catalogued models whose context window is larger than DEFAULT_CONTEXT_TOKENS, as
 * "provider/id": a session resumed for one of them should pass its window as `contextTokens`.
 * Kept equal to the catalogue's by a test, so a new larger window is a decision, not a surprise.
 */
export const LARGER_WINDOW_MODELS: readonly string[] = [
	// Llama 4 Scout on Bedrock: a 10,000,000-token window.
	"amazon-bedrock/meta.llama4-scout-17b-instruct-v1:0",
	"amazon-bedrock/us.meta.llama4-scout-17b-instruct-v1:0",
];

/**
 * Bytes of a stored record per estimated token: the 4 characters a token `estimateTokens` (the
 * compaction's estimate) counts, applied to the record's stored bytes, which stores know without
 * parsing it. A record's bytes are at least its message's characters, so this never estimates less.
 */
export const BYTES_PER_TOKEN = 4;

/** What load: "context" left out of the model context of the current branch (see `Session.contextCut`). */
export interface SessionContextCut {
	/** The first message of the model context now: a user message, so no tool call loses its result. */
	firstMessageId: string;
	/** Messages of the branch's context before it (after its last compaction boundary), left on disk. */
	omittedMessages: number;
	/** The window asked for, in estimated tokens. */
	contextTokens: number;
}

/** `contextTokens` as given to Session.open, checked: a whole number of tokens above 0. */
export function checkContextTokens(value: unknown): number {
	if (value === undefined) return DEFAULT_CONTEXT_TOKENS;
	if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
		throw new RangeError(
			`Session.open(): contextTokens must be a whole number of tokens above 0, got ${typeof value === "number" ? String(value) : JSON.stringify(value)}`,
		);
	}
	return value;
}

/** The estimated tokens of a record of `bytes` stored bytes. */
export function tokensOfBytes(bytes: number): number {
	return Math.ceil(bytes / BYTES_PER_TOKEN);
}

/** The UTF-8 size of a record as a store writes it, for records read without their stored size. */
export function serializedBytes(record: SessionMessageRecord): number {
	return utf8Length(serializeSessionRecord(record));
}

/**
 * Where the model context is cut so that it holds at most `contextTokens` estimated tokens: the
 * oldest user message whose tail (it and every message after it) fits. A user message starts a
 * turn, so a tool call is never parted from its result. When no user message lies in the window
 * (one turn longer than it), the cut goes back to that turn's user message: the window is then
 * larger than asked, but a valid transcript. Undefined when nothing is cut.
 */
export function chooseContextCut(
	context: readonly SessionMessageRecord[],
	bytesOf: (record: SessionMessageRecord) => number,
	contextTokens: number,
): SessionContextCut | undefined {
	let start = context.length;
	let tokens = 0;
	while (start > 0) {
		const next = tokensOfBytes(bytesOf(context[start - 1]));
		if (tokens + next > contextTokens) break;
		tokens += next;
		start--;
	}
	if (start === 0) return undefined;
	let first = -1;
	for (let index = start; index < context.length && first === -1; index++) {
		if (isUserMessage(context[index].message)) first = index;
	}
	for (let index = start - 1; index > 0 && first === -1; index--) {
		if (isUserMessage(context[index].message)) first = index;
	}
	if (first <= 0) return undefined;
	return { firstMessageId: context[first].id, omittedMessages: first, contextTokens };
}

function isUserMessage(message: AgentMessage): boolean {
	return (message as { role?: unknown }).role === "user";
}

/** UTF-8 bytes of a string, counted without encoding it (TextEncoder would copy it). */
function utf8Length(text: string): number {
	let bytes = text.length;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code < 0x80) continue;
		if (code < 0x800) bytes += 1;
		else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
			// A surrogate pair: 4 bytes for its 2 UTF-16 units.
			bytes += 2;
			index++;
		} else bytes += 2;
	}
	return bytes;
}

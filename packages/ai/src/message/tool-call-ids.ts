// Tool-call id normalisers, one per wire API. A conversation begun on one API carries that API's
// ids (Anthropic `toolu_…`, Responses `call_…|fc_…`, Mistral 9 characters, Google free text); the
// next API may reject them. Each function here is pure: the same id always gives the same result.
// `transformMessages` applies them to tool calls from another model and rewrites the matching
// tool results, so calls and results stay paired.

import type { Api, AssistantMessage, Model } from "../types.js";

/** What `transformMessages` calls for each tool call that came from another model. */
export type ToolCallIdNormalizer = (id: string, targetModel: Model<Api>, source: AssistantMessage) => string;

const INVALID_ID_CHARACTERS = /[^A-Za-z0-9_-]/g;

/** Replaces every character outside `[A-Za-z0-9_-]` with `_`. */
export function sanitizeToolCallIdCharacters(id: string): string {
	return id.replace(INVALID_ID_CHARACTERS, "_");
}

/**
 * Anthropic Messages: ids must match `^[a-zA-Z0-9_-]+$`, at most 64 characters. An empty id
 * becomes `_` so the request is still valid.
 */
export function normalizeAnthropicToolCallId(id: string): string {
	const normalized = sanitizeToolCallIdCharacters(id).slice(0, 64);
	return normalized === "" ? "_" : normalized;
}

/**
 * OpenAI Chat Completions: OpenAI rejects ids longer than 40 characters. A Responses id
 * `callId|itemId` keeps only the call id (the part the other API knows the call by).
 */
export function normalizeOpenAICompletionsToolCallId(id: string): string {
	const callId = id.split("|", 1)[0];
	const normalized = sanitizeToolCallIdCharacters(callId).slice(0, 40);
	return normalized === "" ? "_" : normalized;
}

/** The two halves of a Responses tool-call id. `itemId` is absent for ids from other APIs. */
export interface ResponsesToolCallId {
	callId: string;
	itemId?: string;
}

/** Splits a stored Responses id `callId|itemId`; an id without a pipe is only a call id. */
export function parseResponsesToolCallId(id: string): ResponsesToolCallId {
	const pipe = id.indexOf("|");
	if (pipe < 0) return { callId: id };
	return { callId: id.slice(0, pipe), itemId: id.slice(pipe + 1) };
}

/**
 * OpenAI Responses (and Azure, Codex): Keel stores these ids as `callId|itemId`. Both parts are
 * reduced to `[A-Za-z0-9_-]`, cut to 64 characters and stripped of trailing underscores; the item
 * id must start with `fc` (the API rejects a function_call item id that does not), so `fc_` is
 * prefixed when missing. An id from another API has no item id and stays a bare call id.
 */
export function normalizeOpenAIResponsesToolCallId(id: string): string {
	const { callId, itemId } = parseResponsesToolCallId(id);
	const normalizedCallId = trimPart(callId) || "call";
	if (itemId === undefined) return normalizedCallId;
	let normalizedItemId = sanitizeToolCallIdCharacters(itemId);
	if (!normalizedItemId.startsWith("fc")) normalizedItemId = `fc_${normalizedItemId}`;
	return `${normalizedCallId}|${trimPart(normalizedItemId)}`;
}

function trimPart(part: string): string {
	return sanitizeToolCallIdCharacters(part).slice(0, 64).replace(/_+$/, "");
}

const ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/**
 * A deterministic hash of `text` written with `length` characters of [0-9A-Za-z]. Two
 * independent 32-bit FNV-1a style lanes give 64 bits, enough for the short ids this file builds.
 */
export function hashToAlphanumeric(text: string, length: number): string {
	let first = 0x811c9dc5;
	let second = 0x9e3779b9;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		first = Math.imul(first ^ code, 0x01000193);
		second = Math.imul(second ^ code, 0x5bd1e995);
		second ^= second >>> 15;
	}
	let value = (BigInt(first >>> 0) << 32n) | BigInt(second >>> 0);
	let result = "";
	for (let index = 0; index < length; index++) {
		result += ALPHANUMERIC[Number(value % 62n)];
		value /= 62n;
		// 64 bits run out after ~10 characters; refill so any length stays defined.
		if (value === 0n) value = BigInt(Math.imul(first, index + 1) >>> 0) + 1n;
	}
	return result;
}

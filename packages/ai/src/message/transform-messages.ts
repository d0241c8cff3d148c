// Prepares a conversation for the model it is sent to. Messages may come from any model and API
// (a session that switched from Claude to GPT, say); what one API produced the next may reject:
// signed or encrypted thinking, provider-specific ids, tool calls whose results never arrived.
// Provider encoders call this first, then translate the result to their wire format.

import type {
	Api,
	AssistantMessage,
	Message,
	Model,
	SystemMessage,
	ToolCall,
	ToolResultMessage,
	UserMessage,
} from "../types.js";
import { blockProblem, currentTurnStart, omittedBlockNote } from "./input-support.js";
import { hashToAlphanumeric, type ToolCallIdNormalizer } from "./tool-call-ids.js";

/** The text of the synthetic result given to a tool call that never got one. */
export const MISSING_TOOL_RESULT_TEXT = "No result provided";

/** True when the message was produced by exactly this model (provider, API and id all equal). */
export function isSameModel(message: AssistantMessage, model: Model<Api>): boolean {
	return message.provider === model.provider && message.api === model.api && message.model === model.id;
}

/**
 * Returns the messages rewritten for `targetModel`; the input is not modified.
 *
 * - User messages pass through unchanged, except that in turns before the current one (the user
 *   messages after the last completed assistant message) a file or audio block the target model
 *   cannot take becomes a text note saying it was omitted. In the current turn such a block is an
 *   error before the call (see input-support.ts), so it reaches here only when an encoder is used directly.
 * - Assistant turns that ended in `error` or `aborted` are dropped, with the tool results after
 *   them: their content is incomplete (half a tool call, thinking without its signature) and APIs
 *   reject it. To keep what an interrupted turn said, copy its text into the next user message yourself.
 * - From the same model everything is kept (signatures replay reasoning), except thinking that
 *   is blank and unsigned.
 * - From another model: thinking becomes plain text (redacted or blank thinking is removed), text
 *   loses its signature, tool calls lose `thoughtSignature` and their ids go through
 *   `normalizeToolCallId`; tool results are rewritten to the new ids. Should two different ids
 *   normalise to the same value, the second is salted so calls and results stay paired.
 * - Every API wants each tool call of an assistant turn answered by exactly one result before the
 *   conversation goes on, and each result to answer a call of the turn right before it. So a tool
 *   result is kept only when it answers a call of the latest assistant turn that has no result yet
 *   (a second result for a call, or one whose call was dropped or pruned away, is removed), and a
 *   call still without a result gets a synthetic error result (`No result provided`) when the next
 *   user or assistant message starts, or at the end when results of its turn follow it (a
 *   transcript saved in the middle of a batch). Only the tool calls of an assistant message that
 *   is the last message are left unanswered: the caller may be about to run them.
 * - System messages are kept for every model. One that stands between a tool call and its results
 *   moves to just after the results (no API takes anything between the two), keeping its order.
 */
export function transformMessages(
	messages: readonly Message[],
	targetModel: Model<Api>,
	normalizeToolCallId?: ToolCallIdNormalizer,
): Message[] {
	const idMap = new Map<string, string>();
	const usedIds = new Set<string>();
	const output: Message[] = [];
	// Tool calls of the latest kept assistant turn that have no result yet, in call order. Ids are
	// unique within one assistant message only (some servers number calls per response), so results
	// are matched against this turn's calls and nothing older.
	let pending: ToolCall[] = [];
	let pendingTimestamp = 0;
	// System messages waiting for the results of the current turn's tool calls.
	let held: SystemMessage[] = [];

	const answerPending = () => {
		for (const call of pending) output.push(syntheticResult(call, pendingTimestamp));
		pending = [];
	};
	const releaseHeld = () => {
		if (held.length > 0) output.push(...held);
		held = [];
	};

	const turnStart = currentTurnStart(messages);
	for (const [index, message] of messages.entries()) {
		if (message.role === "system") {
			if (pending.length > 0) held.push(message);
			else output.push(message);
			continue;
		}
		if (message.role === "user") {
			answerPending();
			releaseHeld();
			output.push(index < turnStart ? withoutUnreadableBlocks(message, targetModel) : message);
			continue;
		}
		if (message.role === "toolResult") {
			const toolCallId = idMap.get(message.toolCallId) ?? message.toolCallId;
			const index = pending.findIndex((call) => call.id === toolCallId);
			// No open call of the turn before: a duplicate, a result of a dropped turn, or an orphan.
			if (index === -1) continue;
			pending.splice(index, 1);
			const readable = withoutUnreadableFiles(message, targetModel);
			output.push(toolCallId === readable.toolCallId ? readable : { ...readable, toolCallId });
			if (pending.length === 0) releaseHeld();
			continue;
		}
		answerPending();
		releaseHeld();
		// Dropped with its tool calls; the results that follow find no open call and go too.
		if (message.stopReason === "error" || message.stopReason === "aborted") continue;
		const transformed = isSameModel(message, targetModel)
			? keepForSameModel(message)
			: convertFromOtherModel(message, (id) => mapId(id, message));
		pendingTimestamp = message.timestamp;
		for (const block of transformed.content) {
			if (block.type === "toolCall") {
				usedIds.add(block.id);
				pending.push(block);
			}
		}
		output.push(transformed);
	}
	// Results of the last turn follow it, but not all of them: the rest will never come.
	if (pending.length > 0 && output[output.length - 1].role === "toolResult") answerPending();
	releaseHeld();
	return output;

	function mapId(id: string, source: AssistantMessage): string {
		if (!normalizeToolCallId) return id;
		const known = idMap.get(id);
		if (known !== undefined) return known;
		let normalized = normalizeToolCallId(id, targetModel, source);
		// The salt goes in front so that normalisers which cut long ids keep it.
		for (let attempt = 1; usedIds.has(normalized) && normalized !== id && attempt <= 8; attempt++) {
			normalized = normalizeToolCallId(`${hashToAlphanumeric(`${id}#${attempt}`, 6)}_${id}`, targetModel, source);
		}
		idMap.set(id, normalized);
		usedIds.add(normalized);
		return normalized;
	}
}

/** A user message of an earlier turn with each file or audio block the model cannot take replaced by a note. */
function withoutUnreadableBlocks(message: UserMessage, model: Model<Api>): UserMessage {
	if (typeof message.content === "string") return message;
	let changed = false;
	const content = message.content.map((block) => {
		if ((block.type !== "file" && block.type !== "audio") || blockProblem(block, model) === undefined) return block;
		changed = true;
		return { type: "text" as const, text: omittedBlockNote(block) };
	});
	return changed ? { ...message, content } : message;
}

/**
 * A tool result with each file block the model cannot take replaced by a note, in every turn: the
 * tool chose the file, not the user, so the model reads why it is missing and can try another way.
 */
function withoutUnreadableFiles(message: ToolResultMessage, model: Model<Api>): ToolResultMessage {
	if (!Array.isArray(message.content)) return message;
	let changed = false;
	const content = message.content.map((block) => {
		if (block.type !== "file" || blockProblem(block, model) === undefined) return block;
		changed = true;
		return { type: "text" as const, text: omittedBlockNote(block) };
	});
	return changed ? { ...message, content } : message;
}

function keepForSameModel(message: AssistantMessage): AssistantMessage {
	const content = message.content.filter(
		(block) => block.type !== "thinking" || block.thinking.trim() !== "" || block.thinkingSignature !== undefined,
	);
	return content.length === message.content.length ? message : { ...message, content };
}

function convertFromOtherModel(message: AssistantMessage, mapId: (id: string) => string): AssistantMessage {
	const content: AssistantMessage["content"] = [];
	for (const block of message.content) {
		if (block.type === "thinking") {
			if (block.redacted || block.thinking.trim() === "") continue;
			content.push({ type: "text", text: block.thinking });
		} else if (block.type === "text") {
			content.push({ type: "text", text: block.text });
		} else {
			content.push({ type: "toolCall", id: mapId(block.id), name: block.name, arguments: block.arguments });
		}
	}
	return { ...message, content };
}

/** Timestamped like the call's turn, so the output is deterministic. */
function syntheticResult(call: ToolCall, timestamp: number): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: call.id,
		toolName: call.name,
		content: [{ type: "text", text: MISSING_TOOL_RESULT_TEXT }],
		isError: true,
		timestamp,
	};
}

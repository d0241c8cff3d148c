// Prepares a conversation for the model it is sent to. Messages may come from any model and API
// (a session that switched from Claude to GPT, say); what one API produced the next may reject:
// signed or encrypted thinking, provider-specific ids, tool calls whose results never arrived.
// Provider encoders call this first, then translate the result to their wire format.

import type { Api, AssistantMessage, Message, Model, ToolCall, ToolResultMessage } from "../../types.js";
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
 * - User messages pass through unchanged.
 * - Assistant turns that ended in `error` or `aborted` are dropped, with any tool results that
 *   answer their tool calls: their content is incomplete (half a tool call, thinking without its
 *   signature) and APIs reject it. To keep what an interrupted turn said, copy its text into the
 *   next user message yourself.
 * - From the same model everything is kept (signatures replay reasoning), except thinking that
 *   is blank and unsigned.
 * - From another model: thinking becomes plain text (redacted or blank thinking is removed), text
 *   loses its signature, tool calls lose `thoughtSignature` and their ids go through
 *   `normalizeToolCallId`; tool results are rewritten to the new ids. Should two different ids
 *   normalise to the same value, the second is salted so calls and results stay paired.
 * - A tool call still without a result when the next user or assistant message starts gets a
 *   synthetic error result (`No result provided`), because every API requires one. Tool calls in
 *   the last assistant message are left alone: the caller may be about to run them.
 */
export function transformMessages(
	messages: readonly Message[],
	targetModel: Model<Api>,
	normalizeToolCallId?: ToolCallIdNormalizer,
): Message[] {
	const idMap = new Map<string, string>();
	const usedIds = new Set<string>();
	const droppedCallIds = new Set<string>();
	const output: Message[] = [];
	// Tool calls of the latest assistant turn that have not been answered yet, in call order.
	let pending: ToolCall[] = [];
	let pendingTimestamp = 0;

	const answerPending = () => {
		for (const call of pending) output.push(syntheticResult(call, pendingTimestamp));
		pending = [];
	};

	for (const message of messages) {
		if (message.role === "user") {
			answerPending();
			output.push(message);
			continue;
		}
		if (message.role === "toolResult") {
			if (droppedCallIds.has(message.toolCallId)) continue;
			const toolCallId = idMap.get(message.toolCallId) ?? message.toolCallId;
			pending = pending.filter((call) => call.id !== toolCallId);
			output.push(toolCallId === message.toolCallId ? message : { ...message, toolCallId });
			continue;
		}
		if (message.stopReason === "error" || message.stopReason === "aborted") {
			for (const block of message.content) if (block.type === "toolCall") droppedCallIds.add(block.id);
			continue;
		}
		answerPending();
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

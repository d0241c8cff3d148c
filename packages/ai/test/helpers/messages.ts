// Message literals the provider tests build again and again: an assistant turn with zero usage
// (from createEmptyAssistantMessage, so the usage shape is written once), a user turn, a tool result.

import type { AssistantMessage, ToolResultMessage, Usage, UserMessage } from "../../src/types.js";
import { createEmptyAssistantMessage } from "../../src/utils/event-stream.js";

/** Zero tokens and zero cost, a fresh object each call (tests may mutate it). */
export function emptyUsage(): Usage {
	return createEmptyAssistantMessage("none", "none", "none").usage;
}

/** Which model produced an assistant turn. */
export interface Origin {
	api: string;
	provider: string;
	model: string;
}

/** An assistant turn with zero usage, stop reason "stop" and timestamp 2 unless overridden. */
export function assistantMessage(
	origin: Origin,
	content: AssistantMessage["content"],
	overrides: Partial<AssistantMessage> = {},
): AssistantMessage {
	return {
		...createEmptyAssistantMessage(origin.api, origin.provider, origin.model),
		content,
		timestamp: 2,
		...overrides,
	};
}

export function userMessage(content: UserMessage["content"], timestamp = 1): UserMessage {
	return { role: "user", content, timestamp };
}

export function toolResultMessage(
	toolCallId: string,
	content: ToolResultMessage["content"],
	options: { toolName?: string; isError?: boolean; timestamp?: number } = {},
): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId,
		toolName: options.toolName ?? "read",
		content,
		isError: options.isError ?? false,
		timestamp: options.timestamp ?? 3,
	};
}

/** Every event of a stream, in order (the stream ends after its done or error event). */
export async function collectEvents<T>(stream: AsyncIterable<T>): Promise<T[]> {
	const events: T[] = [];
	for await (const event of stream) events.push(event);
	return events;
}

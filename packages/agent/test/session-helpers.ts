// Small builders for session tests: messages of each role, and a session over an in-memory store.
import type { AssistantMessage, ToolResultMessage, UserMessage } from "@keel/ai";
import { createMemoryTranscriptStore, Session, type TranscriptStore } from "../src/session/index.js";

export function userMessage(text: string): UserMessage {
	return { role: "user", content: text, timestamp: Date.now() };
}

export function assistantMessage(
	text: string,
	toolCalls: { id: string; name: string; arguments?: Record<string, unknown> }[] = [],
): AssistantMessage {
	return {
		role: "assistant",
		content: [
			...(text ? [{ type: "text" as const, text }] : []),
			...toolCalls.map((call) => ({
				type: "toolCall" as const,
				id: call.id,
				name: call.name,
				arguments: call.arguments ?? {},
			})),
		],
		api: "scripted",
		provider: "scripted",
		model: "scripted-model",
		usage: {
			input: 10,
			output: 5,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 15,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: toolCalls.length > 0 ? "toolUse" : "stop",
		timestamp: Date.now(),
	};
}

export function toolResult(toolCallId: string, text: string, toolName = "echo"): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId,
		toolName,
		content: [{ type: "text", text }],
		isError: false,
		timestamp: Date.now(),
	};
}

export async function createTestSession(store: TranscriptStore = createMemoryTranscriptStore()): Promise<Session> {
	return Session.create(store, { title: "test" });
}

/** The text of each message, by role, for compact assertions. */
export function describeMessages(messages: readonly unknown[]): string[] {
	return messages.map((message) => {
		const value = message as { role: string; content?: unknown; summary?: string; text?: string };
		const content = value.content;
		let text = "";
		if (typeof content === "string") text = content;
		else if (Array.isArray(content)) {
			text = content
				.map((block: { type: string; text?: string; name?: string }) =>
					block.type === "text" ? block.text : block.type === "toolCall" ? `call:${block.name}` : `[${block.type}]`,
				)
				.join(" ");
		} else if (value.summary !== undefined) text = value.summary;
		else if (value.text !== undefined) text = value.text;
		return `${value.role}: ${text}`;
	});
}

// A conversation stored as a session of @keel/agent-core/session: the session header, a state
// record holding the conversation's settings, then one message record per message on one branch.
// The Agent writes it (conversation/conversation.ts); reading for `keel sessions` and `keel logs`
// goes through the store alone, so it works while a chat has the session open.

import type { SessionMessageRecord, SessionState, TranscriptStore } from "@keel/agent-core/session";
import type { Message } from "@keel/ai";

/** What the chat remembers beside its messages (kept in the state record's `custom.chat`). */
export interface ChatSettings {
	/** provider/id, or for a custom server the model name it expects. */
	model: string;
	baseUrl?: string;
	api?: string;
	reasoning?: string;
	systemPrompt?: string;
	/** Model options given with -o or --max-tokens. */
	options?: { maxTokens?: number; temperature?: number };
	/** Built-in tools given with -T. */
	tools?: string[];
}

export interface ChatTranscript {
	readonly sessionId: string;
	readonly title?: string;
	readonly messages: Message[];
	readonly settings?: ChatSettings;
}

/** A session id that sorts by time and reads as one: 2026-11-22T23-45-01-k3j9x2. */
export function createSessionId(now = new Date()): string {
	const stamp = now
		.toISOString()
		.replace(/\.\d+Z$/, "")
		.replace(/:/g, "-");
	return `${stamp}-${Math.random().toString(36).slice(2, 8)}`;
}

const isChatMessage = (message: { role?: unknown }): message is Message =>
	message.role === "user" || message.role === "assistant" || message.role === "toolResult";

export function settingsOf(state: SessionState | undefined): ChatSettings | undefined {
	return state?.custom?.chat as ChatSettings | undefined;
}

/**
 * The conversation as stored, without taking the session's lock: the messages of the current branch
 * (following each message's parent from the leaf), in order, and the last settings.
 */
export async function readChatTranscript(store: TranscriptStore, sessionId: string): Promise<ChatTranscript> {
	const { records } = await store.read(sessionId);
	const byId = new Map<string, SessionMessageRecord>();
	let leafId: string | null = null;
	let state: SessionState | undefined;
	let title: string | undefined;
	for (const record of records) {
		if (record.type === "message") {
			const message = record as SessionMessageRecord;
			byId.set(message.id, message);
			leafId = message.id;
		} else if (record.type === "leaf") {
			leafId = (record as { leafId: string | null }).leafId;
		} else if (record.type === "state") {
			state = (record as { state: SessionState }).state;
		} else if (record.type === "session" || record.type === "title") {
			title = (record as { title?: string }).title ?? title;
		}
	}
	const chain: Message[] = [];
	const seen = new Set<string>();
	for (let id = leafId; id !== null && byId.has(id) && !seen.has(id); id = byId.get(id)!.parentId) {
		seen.add(id);
		const { message } = byId.get(id)!;
		if (isChatMessage(message as { role?: unknown })) chain.push(message as Message);
	}
	return { sessionId, title, messages: chain.reverse(), settings: settingsOf(state) };
}

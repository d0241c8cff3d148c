// A chat conversation stored as a session transcript: a header record, then one message record per
// user or assistant message, each pointing at the one before it, and a state record with the chat's
// model and reasoning level. Works over any TranscriptStore.

import {
	SESSION_FORMAT_VERSION,
	type SessionMessageRecord,
	type SessionRecord,
	type TranscriptStore,
	type TranscriptWriter,
} from "@keel/agent-core/session";
import type { Message } from "@keel/ai";

/** What the chat remembers beside its messages (kept in the state record's `custom`). */
export interface ChatSettings {
	/** provider/id, or for a custom server the model name it expects. */
	model: string;
	baseUrl?: string;
	api?: string;
	reasoning?: string;
	systemPrompt?: string;
}

export interface ChatTranscript {
	readonly sessionId: string;
	readonly messages: Message[];
	readonly settings?: ChatSettings;
}

/** A session id that sorts by time: 2026-11-22T23-45-01-abc123. */
export function createSessionId(now = new Date()): string {
	const stamp = now
		.toISOString()
		.replace(/\.\d+Z$/, "")
		.replace(/:/g, "-");
	return `${stamp}-${Math.random().toString(36).slice(2, 8)}`;
}

/** The conversation as the chat continues it: messages of the current branch, in order, and the last settings. */
export async function readChatTranscript(store: TranscriptStore, sessionId: string): Promise<ChatTranscript> {
	const { records } = await store.read(sessionId);
	const byId = new Map<string, SessionMessageRecord>();
	let leafId: string | null | undefined;
	let settings: ChatSettings | undefined;
	for (const record of records) {
		if (record.type === "message") {
			const message = record as SessionMessageRecord;
			byId.set(message.id, message);
			leafId = message.id;
		} else if (record.type === "leaf") {
			leafId = (record as { leafId: string | null }).leafId;
		} else if (record.type === "state") {
			const custom = (record as { state: { custom?: Record<string, unknown> } }).state.custom;
			if (custom?.chat) settings = custom.chat as ChatSettings;
		}
	}
	const chain: Message[] = [];
	const seen = new Set<string>();
	for (let id = leafId ?? null; id !== null && byId.has(id) && !seen.has(id); id = byId.get(id)!.parentId) {
		seen.add(id);
		const { message } = byId.get(id)!;
		if (message.role === "user" || message.role === "assistant" || message.role === "toolResult") {
			chain.push(message as Message);
		}
	}
	return { sessionId, messages: chain.reverse(), settings };
}

/** Appends a chat's messages and settings to its transcript, keeping the parent chain. */
export class ChatTranscriptWriter {
	private lastMessageId: string | null;
	private counter = 0;

	private constructor(
		private readonly writer: TranscriptWriter,
		lastMessageId: string | null,
	) {
		this.lastMessageId = lastMessageId;
	}

	get sessionId(): string {
		return this.writer.sessionId;
	}

	static async create(store: TranscriptStore, sessionId: string, title: string): Promise<ChatTranscriptWriter> {
		const writer = await store.openWriter(sessionId, {
			create: { type: "session", v: SESSION_FORMAT_VERSION, sessionId, timestamp: Date.now(), title },
		});
		return new ChatTranscriptWriter(writer, null);
	}

	static async resume(store: TranscriptStore, sessionId: string): Promise<ChatTranscriptWriter> {
		const { records } = await store.read(sessionId);
		let last: string | null = null;
		for (const record of records) {
			if (record.type === "message") last = (record as SessionMessageRecord).id;
			if (record.type === "leaf") last = (record as { leafId: string | null }).leafId;
		}
		return new ChatTranscriptWriter(await store.openWriter(sessionId), last);
	}

	async appendMessage(message: Message): Promise<void> {
		const id = `${Date.now().toString(36)}-${(this.counter++).toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
		const record: SessionRecord = {
			type: "message",
			v: SESSION_FORMAT_VERSION,
			sessionId: this.sessionId,
			timestamp: Date.now(),
			id,
			parentId: this.lastMessageId,
			message,
		};
		this.lastMessageId = id;
		await this.writer.append(record);
	}

	async saveSettings(settings: ChatSettings): Promise<void> {
		await this.writer.append({
			type: "state",
			v: SESSION_FORMAT_VERSION,
			sessionId: this.sessionId,
			timestamp: Date.now(),
			state: { custom: { chat: settings } },
		});
	}

	close(): Promise<void> {
		return this.writer.close();
	}
}

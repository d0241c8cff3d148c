// The log `keel logs` shows: every stored conversation cut into exchanges, one prompt and the
// answer to it (the assistant messages and tool results until the next prompt), each with its
// model, usage, cost and the time the answer took.
import type { TranscriptStore } from "@keel/agent-core/session";
import { type AssistantMessage, addUsage, emptyUsage, type Message, type Usage } from "@keel/ai";
import { readChatTranscript } from "./chat-transcript.js";

export interface LogEntry {
	conversationId: string;
	title?: string;
	/** When the prompt was sent, epoch milliseconds. */
	timestamp: number;
	system?: string;
	prompt: string;
	response: string;
	/** provider/id of the model that answered (the last answer's, with tool calls in between). */
	model?: string;
	usage: Usage;
	/** Milliseconds from request to complete answer, summed over the exchange's model calls. */
	durationMs?: number;
	/** stop, length, toolUse, error or aborted: how the last answer ended. */
	stopReason?: string;
	errorMessage?: string;
	attachments: number;
}

export function textOf(message: Message): string {
	if (typeof message.content === "string") return message.content;
	return message.content
		.map((block) => (block.type === "text" ? block.text : ""))
		.filter((text) => text !== "")
		.join("\n");
}

/** The exchanges of one conversation, oldest first. */
export function entriesOf(
	conversationId: string,
	title: string | undefined,
	messages: Message[],
	system?: string,
): LogEntry[] {
	const entries: LogEntry[] = [];
	let current: LogEntry | undefined;
	for (const message of messages) {
		if (message.role === "user") {
			current = {
				conversationId,
				title,
				timestamp: message.timestamp,
				system,
				prompt: textOf(message),
				response: "",
				usage: emptyUsage(),
				attachments:
					typeof message.content === "string" ? 0 : message.content.filter((block) => block.type !== "text").length,
			};
			entries.push(current);
		} else if (message.role === "assistant" && current) {
			const answer = message as AssistantMessage & { durationMs?: number };
			const text = textOf(answer);
			if (text !== "") current.response = current.response === "" ? text : `${current.response}\n${text}`;
			current.model = `${answer.provider}/${answer.model}`;
			addUsage(current.usage, answer.usage);
			if (typeof answer.durationMs === "number") current.durationMs = (current.durationMs ?? 0) + answer.durationMs;
			current.stopReason = answer.stopReason;
			current.errorMessage = answer.errorMessage;
		}
	}
	return entries;
}

/** Every exchange of every stored conversation, newest first. */
export async function readLogEntries(store: TranscriptStore, conversationId?: string): Promise<LogEntry[]> {
	const ids = conversationId !== undefined ? [conversationId] : (await store.list()).map((info) => info.sessionId);
	const entries: LogEntry[] = [];
	for (const id of ids) {
		const transcript = await readChatTranscript(store, id);
		entries.push(...entriesOf(id, transcript.title, transcript.messages, transcript.settings?.systemPrompt));
	}
	return entries.sort((a, b) => b.timestamp - a.timestamp);
}

// How a session's message kinds reach the model. User, assistant and tool results go as they are;
// an attachment becomes user content, a notification a user message inside a clearly marked system
// event (so the model can tell it from what the user typed), a summary a user message carrying the
// summary; progress, compact boundaries and tombstones never reach the model.
import type { Message, UserMessage } from "@keel/ai";
import type { AgentMessage } from "../types.js";
import type { AttachmentMessage, NotificationMessage, SummaryMessage } from "./session-types.js";

/** Converts an application's own kind; return undefined to leave it out of the request. */
export type ConvertCustomMessage = (message: AgentMessage) => Message | Message[] | undefined;

export interface SessionConvertToLlmOptions {
	/** Called for every role this function does not know (an application's own kinds). */
	convertCustomMessage?: ConvertCustomMessage;
}

/** The words before a summary, so the model reads it as the earlier conversation, not a request. */
export const SUMMARY_PREFIX =
	"The conversation so far was compacted. This is a summary of everything before this point:";

/** `convertToLlm` for an Agent with a session: see the file comment for each kind. */
export function sessionConvertToLlm(messages: AgentMessage[]): Message[] {
	return convertSessionMessages(messages, undefined);
}

/** A `sessionConvertToLlm` that also converts the application's own kinds. */
export function createSessionConvertToLlm(
	options: SessionConvertToLlmOptions,
): (messages: AgentMessage[]) => Message[] {
	return (messages) => convertSessionMessages(messages, options.convertCustomMessage);
}

function convertSessionMessages(
	messages: AgentMessage[],
	convertCustomMessage: ConvertCustomMessage | undefined,
): Message[] {
	const converted: Message[] = [];
	for (const message of messages) {
		// Read through unknown: this module is also compiled where the session kinds are not merged
		// into AgentMessage (the root entry's types).
		const value: unknown = message;
		switch ((value as { role?: unknown }).role) {
			case "user":
			case "assistant":
			case "toolResult":
				converted.push(message as Message);
				break;
			case "attachment":
				converted.push(attachmentToUserMessage(value as AttachmentMessage));
				break;
			case "notification": {
				const notification = value as NotificationMessage;
				if (notification.forModel !== false) converted.push(notificationToUserMessage(notification));
				break;
			}
			case "summary":
				converted.push(summaryToUserMessage(value as SummaryMessage));
				break;
			case "progress":
			case "compact_boundary":
			case "tombstone":
				break;
			default: {
				const custom = convertCustomMessage?.(message);
				if (Array.isArray(custom)) converted.push(...custom);
				else if (custom) converted.push(custom);
			}
		}
	}
	return converted;
}

function attachmentToUserMessage(attachment: AttachmentMessage): UserMessage {
	const type = attachment.mimeType ? ` type="${attachment.mimeType}"` : "";
	return {
		role: "user",
		content: [
			{ type: "text", text: `<attachment name="${attachment.name}"${type}>` },
			...attachment.content,
			{ type: "text", text: "</attachment>" },
		],
		timestamp: attachment.timestamp,
	};
}

function notificationToUserMessage(notification: NotificationMessage): UserMessage {
	return {
		role: "user",
		content: `<system-event kind="${notification.kind}">\n${notification.text}\n</system-event>`,
		timestamp: notification.timestamp,
	};
}

function summaryToUserMessage(summary: SummaryMessage): UserMessage {
	return {
		role: "user",
		content: `${SUMMARY_PREFIX}\n<summary>\n${summary.summary}\n</summary>`,
		timestamp: summary.timestamp,
	};
}

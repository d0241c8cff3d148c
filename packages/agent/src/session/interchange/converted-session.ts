// What an import produces before anything is written: the sessions it converted, as Keel records.
import type { AgentMessage } from "../../types.js";
import {
	SESSION_FORMAT_VERSION,
	type SessionHeaderRecord,
	type SessionRecord,
	type SessionState,
} from "../session-types.js";
import type { ForeignTranscriptFormat } from "./transcript-lines.js";

export interface ConvertedMessage {
	id: string;
	parentId: string | null;
	timestamp: number;
	message: AgentMessage;
}

/** One Keel session an import will write: a main session or a sidechain (a sub-agent's transcript). */
export interface ConvertedSession {
	sessionId: string;
	/** When the source session started (epoch milliseconds). */
	timestamp: number;
	title?: string;
	/** For a sidechain: the imported session and message that started it. */
	parentSessionId?: string;
	parentMessageId?: string;
	/** In append order: every parent comes before its children. */
	messages: ConvertedMessage[];
	/** The current branch's last message, when it is not the last message written. */
	leafId?: string | null;
	state?: SessionState;
}

export interface ConvertedTranscript {
	format: ForeignTranscriptFormat;
	main: ConvertedSession;
	sidechains: ConvertedSession[];
	/** Source lines not imported as messages, by kind (progress, hooks, snapshots…): nothing the model saw. */
	skipped: Record<string, number>;
}

/** The records that hold a converted session, header first, in the order they are written. */
export function convertedSessionRecords(session: ConvertedSession): SessionRecord[] {
	const base = { v: SESSION_FORMAT_VERSION, sessionId: session.sessionId } as const;
	const header: SessionHeaderRecord = { ...base, type: "session", timestamp: session.timestamp };
	if (session.title !== undefined) header.title = session.title;
	if (session.parentSessionId !== undefined) header.parentSessionId = session.parentSessionId;
	if (session.parentMessageId !== undefined) header.parentMessageId = session.parentMessageId;
	const records: SessionRecord[] = [header];
	for (const converted of session.messages) {
		records.push({
			...base,
			type: "message",
			timestamp: converted.timestamp,
			id: converted.id,
			parentId: converted.parentId,
			message: converted.message,
		});
	}
	const last = session.messages.at(-1);
	if (session.leafId !== undefined && session.leafId !== (last?.id ?? null)) {
		records.push({ ...base, type: "leaf", timestamp: last?.timestamp ?? session.timestamp, leafId: session.leafId });
	}
	if (session.state !== undefined) {
		records.push({ ...base, type: "state", timestamp: last?.timestamp ?? session.timestamp, state: session.state });
	}
	return records;
}

/** Adds one to the count of a skipped kind. */
export function countSkipped(skipped: Record<string, number>, kind: string): void {
	skipped[kind] = (skipped[kind] ?? 0) + 1;
}

// What the restart tests share with their child process: the tools, and an agent's persistence to a
// transcript (each message as a record on its branch, and the approval records).
import { Type } from "@keel/ai";
import type { Agent, AgentMessage, AgentTool, AgentToolResult, PausedToolRun } from "../src/index.js";
import {
	createToolApprovalRecorder,
	type SessionMessageRecord,
	type SessionRecord,
	type TranscriptWriter,
	type UnknownSessionRecord,
} from "../src/session/index.js";

/** A tool that answers `<name>:<value>` and notes each run. */
export function answeringTool(name: string, requiresApproval = false): AgentTool & { runs: string[] } {
	const runs: string[] = [];
	return {
		name,
		label: name,
		description: `answers with its value (${name})`,
		parameters: Type.Object({ value: Type.String() }),
		requiresApproval,
		async execute(toolCallId, params): Promise<AgentToolResult> {
			runs.push(toolCallId);
			return { content: [{ type: "text", text: `${name}:${(params as { value: string }).value}` }], details: {} };
		},
		runs,
	};
}

/** The messages of a transcript (one branch, in order) and the id of the last one. */
export function messagesOf(records: readonly (SessionRecord | UnknownSessionRecord)[]): {
	messages: AgentMessage[];
	lastId: string | null;
} {
	const messageRecords = records.filter((record): record is SessionMessageRecord => record.type === "message");
	return {
		messages: messageRecords.map((record) => record.message),
		lastId: messageRecords.length > 0 ? messageRecords[messageRecords.length - 1].id : null,
	};
}

/**
 * Appends each message the agent ends as a record chained to the previous one, and keeps the approval
 * records with the recorder. `pausedRun`: the paused run a restarted process resumes.
 */
export function persistAgent(
	agent: Agent,
	writer: TranscriptWriter,
	lastId: string | null,
	pausedRun?: PausedToolRun,
): void {
	let parentId = lastId;
	let count = 0;
	const recorder = createToolApprovalRecorder(writer, { pausedRun });
	agent.subscribe(async (event) => {
		if (event.type === "message_end") {
			const id = `${writer.sessionId}-${Date.now()}-${count++}-${Math.random().toString(36).slice(2)}`;
			await writer.append({
				v: 1,
				type: "message",
				sessionId: writer.sessionId,
				id,
				parentId,
				timestamp: Date.now(),
				message: event.message,
			});
			parentId = id;
		}
		await recorder(event);
	});
}

// Importing a pi session file (pi's coding agent, ~/.pi/agent/sessions/…/<time>_<id>.jsonl) into a
// Keel session. The format is documented at
// https://github.com/earendil-works/pi/blob/main/packages/coding-agent/docs/session-format.md:
// a header `{"type":"session","version":3,"id","timestamp":"<ISO>","cwd"}`, then entries that form
// a tree by `id` / `parentId` (ISO timestamps). `message` entries hold pi-ai messages, which have
// Keel's shapes (user, assistant, toolResult, system), plus pi's own roles (bashExecution, custom);
// `compaction`, `branch_summary` and `custom_message` entries become messages the model sees;
// model and thinking-level changes, labels, usage and extension state do not reach the model. The
// leaf is the last entry of the file.
import type { AgentMessage } from "../../types.js";
import type { CompactBoundaryMessage, SummaryMessage } from "../session-types.js";
import {
	type ConvertedMessage,
	type ConvertedSession,
	type ConvertedTranscript,
	countSkipped,
} from "./converted-session.js";
import {
	describeLine,
	detectTranscriptFormat,
	parseTranscriptLines,
	TranscriptInterchangeError,
	type TranscriptLine,
	toEpochMilliseconds,
} from "./transcript-lines.js";

export interface PiImportOptions {
	/** The Keel session id to import into. Default: the pi session's id. */
	sessionId?: string;
	/** How errors name the file. Default: "the transcript". */
	source?: string;
}

/** pi's versions 1 and 2 have other entry shapes; pi itself migrates them when it opens a file. */
const SUPPORTED_VERSIONS = new Set([3]);

/** Converts a pi session file to a Keel session, writing nothing. */
export function convertPiSession(text: string, options: PiImportOptions = {}): ConvertedTranscript {
	const source = options.source ?? "the transcript";
	const lines = parseTranscriptLines(text, source);
	const format = detectTranscriptFormat(lines);
	if (format !== "pi") {
		throw new TranscriptInterchangeError(
			`${source} is not a pi session: ${format === undefined ? `it starts with ${describeLine(lines[0])}` : `it is a ${format} transcript`}`,
		);
	}
	const header = lines[0];
	const version = typeof header.version === "number" ? header.version : 1;
	if (!SUPPORTED_VERSIONS.has(version)) {
		throw new TranscriptInterchangeError(
			`${source} is a pi session of format version ${version}; Keel imports version 3 — open it once with pi (which migrates it) and import it again`,
			1,
		);
	}
	const skipped: Record<string, number> = {};
	const messages: ConvertedMessage[] = [];
	const messageIds = new Set<string>();
	// pi entry id → the Keel message it leaves the branch at (entries that are not messages pass it on).
	const branchPoint = new Map<string, string | null>();
	let title: string | undefined;
	let lastTimestamp = toEpochMilliseconds(header.timestamp, 0);
	let leafId: string | null = null;

	for (let index = 1; index < lines.length; index++) {
		const entry = lines[index];
		const lineNumber = index + 1;
		if (typeof entry.id !== "string" || (entry.parentId !== null && typeof entry.parentId !== "string")) {
			throw new TranscriptInterchangeError(
				`${source}: line ${lineNumber} is not a pi session entry (it needs a string id and a parentId): ${describeLine(entry)}`,
				lineNumber,
			);
		}
		const parent = entry.parentId === null ? null : (branchPoint.get(entry.parentId) ?? null);
		lastTimestamp = toEpochMilliseconds(entry.timestamp, lastTimestamp);
		const add = (id: string, parentId: string | null, message: AgentMessage): string => {
			messages.push({ id, parentId, timestamp: lastTimestamp, message });
			messageIds.add(id);
			return id;
		};
		let at: string | null = parent;
		switch (entry.type) {
			case "message": {
				const message = piMessage(entry.message, source, lineNumber);
				if (message === undefined)
					countSkipped(skipped, `message ${String((entry.message as { role?: unknown })?.role)}`);
				else at = add(entry.id, parent, message);
				break;
			}
			case "compaction": {
				// pi's compaction: the summary replaces the branch before `firstKeptEntryId`; Keel's is a
				// summary followed by its boundary, which names the first kept message.
				const summary: SummaryMessage = {
					role: "summary",
					summary: String(entry.summary ?? ""),
					summarisedMessageCount: 0,
					timestamp: lastTimestamp,
				};
				const summaryId = add(`${entry.id}-summary`, parent, summary as unknown as AgentMessage);
				const boundary: CompactBoundaryMessage = {
					role: "compact_boundary",
					trigger: entry.fromHook === true ? "manual" : "auto",
					summaryId,
					timestamp: lastTimestamp,
				};
				if (typeof entry.tokensBefore === "number") boundary.tokensBefore = entry.tokensBefore;
				const kept = typeof entry.firstKeptEntryId === "string" ? firstMessageFrom(entry.firstKeptEntryId) : undefined;
				if (kept !== undefined && kept !== null) boundary.firstKeptMessageId = kept;
				at = add(entry.id, summaryId, boundary as unknown as AgentMessage);
				// pi gives the model the prompt and tools as they stood at the compaction (its
				// `systemMessage` checkpoint, or the system messages before it); Keel's context starts at
				// the summary, so they are replayed after the boundary.
				const checkpoint = isObject(entry.systemMessage)
					? [entry.systemMessage as unknown as AgentMessage]
					: systemMessagesBefore(parent);
				checkpoint.forEach((system, number) => {
					at = add(`${entry.id}-system-${number + 1}`, at, { ...system, timestamp: lastTimestamp } as AgentMessage);
				});
				break;
			}
			case "branch_summary": {
				const summary: SummaryMessage = {
					role: "summary",
					summary: String(entry.summary ?? ""),
					summarisedMessageCount: 0,
					timestamp: lastTimestamp,
				};
				at = add(entry.id, parent, summary as unknown as AgentMessage);
				break;
			}
			case "custom_message":
				at = add(entry.id, parent, {
					role: "user",
					content: typeof entry.content === "string" ? entry.content : (entry.content as never),
					timestamp: lastTimestamp,
				} as AgentMessage);
				break;
			case "session_info":
				if (typeof entry.name === "string") title = entry.name;
				break;
			default:
				countSkipped(skipped, String(entry.type));
		}
		branchPoint.set(entry.id, at);
		leafId = at;
	}
	if (messages.length === 0)
		throw new TranscriptInterchangeError(`${source} holds no message: there is nothing to import`);

	/** The system messages on the branch ending at `leaf`, oldest first. */
	function systemMessagesBefore(leaf: string | null): AgentMessage[] {
		const byId = new Map(messages.map((message) => [message.id, message]));
		const found: AgentMessage[] = [];
		for (let cursor = leaf; cursor !== null; ) {
			const message = byId.get(cursor);
			if (message === undefined) break;
			if ((message.message as { role?: unknown }).role === "system") found.push(message.message);
			cursor = message.parentId;
		}
		return found.reverse();
	}

	/** The first message at or after a pi entry on its branch (a kept range may start at a non-message). */
	function firstMessageFrom(entryId: string): string | null | undefined {
		if (messageIds.has(entryId)) return entryId;
		const point = branchPoint.get(entryId);
		if (point === undefined) return undefined;
		return messages.find((message) => message.parentId === point)?.id;
	}

	const sessionId = options.sessionId ?? (header.id as string);
	const main: ConvertedSession = {
		sessionId,
		timestamp: toEpochMilliseconds(header.timestamp, messages[0].timestamp),
		messages,
		leafId,
	};
	if (title !== undefined) main.title = title;
	if (typeof header.cwd === "string" && header.cwd !== "") main.state = { workingDirectory: header.cwd };
	return { format: "pi", main, sidechains: [], skipped };
}

/** A pi message as a Keel message: Keel's roles as they are, pi's own roles as the text pi gives the model. */
function piMessage(value: unknown, source: string, lineNumber: number): AgentMessage | undefined {
	if (typeof value !== "object" || value === null) {
		throw new TranscriptInterchangeError(
			`${source}: line ${lineNumber} is a message entry without a message`,
			lineNumber,
		);
	}
	const message = value as Record<string, unknown>;
	switch (message.role) {
		case "user":
		case "assistant":
		case "toolResult":
		case "system":
			return message as unknown as AgentMessage;
		case "custom":
			return {
				role: "user",
				content: message.content as never,
				timestamp: message.timestamp as number,
			} as AgentMessage;
		case "bashExecution":
			if (message.excludeFromContext === true) return undefined;
			return {
				role: "user",
				content: [{ type: "text", text: bashExecutionText(message) }],
				timestamp: message.timestamp as number,
			} as AgentMessage;
		case "compactionSummary":
		case "branchSummary":
			return {
				role: "summary",
				summary: String(message.summary ?? ""),
				summarisedMessageCount: 0,
				timestamp: message.timestamp as number,
			} as unknown as AgentMessage;
		default:
			return undefined;
	}
}

/** A shell command the user ran in pi (`!command`), as pi shows it to the model. */
function bashExecutionText(message: Record<string, unknown>): string {
	let text = `Ran \`${String(message.command)}\`\n`;
	text +=
		typeof message.output === "string" && message.output !== "" ? `\`\`\`\n${message.output}\n\`\`\`` : "(no output)";
	if (message.cancelled === true) text += "\n\n(command cancelled)";
	else if (typeof message.exitCode === "number" && message.exitCode !== 0)
		text += `\n\nCommand exited with code ${message.exitCode}`;
	return text;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

export type { TranscriptLine };

// Writing a Keel session's current branch as a Claude Code transcript: the line shape Claude Code
// writes (`uuid`, `parentUuid`, `sessionId`, `type`, `message`, `timestamp`, `isSidechain`,
// `userType`, `cwd`, `version`) with Anthropic Messages blocks inside `message`
// (https://docs.anthropic.com/en/api/messages). One line per message (Claude Code splits a response
// into a line per block; one line per response reads back the same), each tool result a `user` line
// with one `tool_result` block, and a compaction as Claude Code writes it: a `system` line
// `compact_boundary` with `parentUuid: null` and `logicalParentUuid`, then the summary as a `user`
// line with `isCompactSummary: true`. Keel's own kinds (notifications, progress) are left out.
import type { AssistantMessage, ToolResultMessage, UserMessage } from "@keel/ai";
import type { ParsedSessionRecord } from "../record-format.js";
import type { CompactBoundaryMessage, SessionMessageRecord, SummaryMessage } from "../session-types.js";
import { outlineSession } from "./session-outline.js";

export interface ClaudeCodeExportOptions {
	/** The working directory the lines name. Default: the session state's, else "". */
	cwd?: string;
}

/** What the lines give as the writing program's version (Claude Code writes its own version here). */
const WRITER_VERSION = "keel";

const STOP_REASONS: Record<string, string> = {
	stop: "end_turn",
	toolUse: "tool_use",
	length: "max_tokens",
};

/** The current branch of a Keel transcript (as `store.read` returns it) as Claude Code JSONL text. */
export function keelSessionToClaudeCode(
	records: readonly ParsedSessionRecord[],
	options: ClaudeCodeExportOptions = {},
): string {
	const sessionId = (records[0] as { sessionId?: string } | undefined)?.sessionId ?? "session";
	const outline = outlineSession(records, sessionId);
	const cwd = options.cwd ?? outline.state.workingDirectory ?? "";
	const lines: Record<string, unknown>[] = [];
	let previous: string | null = null;
	const isSidechain = outline.header.parentSessionId !== undefined;
	// A sidechain imported from Claude Code keeps its agent's id in its session id (`<id>--agent-<agent id>`).
	const agentId = isSidechain ? /--agent-(.+)$/.exec(outline.header.sessionId)?.[1] : undefined;
	const envelope = (record: SessionMessageRecord, uuid = record.id) => ({
		parentUuid: previous,
		isSidechain,
		...(agentId === undefined ? {} : { agentId }),
		userType: "external",
		cwd,
		// Claude Code's sub-agent lines carry the session id of the session that started them.
		sessionId: outline.header.parentSessionId ?? outline.header.sessionId,
		version: WRITER_VERSION,
		uuid,
		timestamp: new Date(record.timestamp).toISOString(),
	});
	const summaries = new Map<string, SessionMessageRecord>();

	for (const record of outline.branch) {
		const message = record.message as { role: string };
		switch (message.role) {
			case "user":
				lines.push({
					...envelope(record),
					type: "user",
					message: { role: "user", content: userContent(record.message as UserMessage) },
				});
				break;
			case "toolResult": {
				const result = record.message as ToolResultMessage;
				lines.push({
					...envelope(record),
					type: "user",
					message: {
						role: "user",
						content: [
							{
								type: "tool_result",
								tool_use_id: result.toolCallId,
								content: userContent({ role: "user", content: result.content, timestamp: result.timestamp }),
								is_error: result.isError,
							},
						],
					},
				});
				break;
			}
			case "assistant":
				lines.push({
					...envelope(record),
					type: "assistant",
					message: assistantMessage(record.message as AssistantMessage),
				});
				break;
			case "summary":
				summaries.set(record.id, record);
				continue;
			case "compact_boundary": {
				const boundary = record.message as unknown as CompactBoundaryMessage;
				const summary = summaries.get(boundary.summaryId);
				const logicalParent = previous;
				previous = null;
				lines.push({
					...envelope(record),
					logicalParentUuid: logicalParent,
					type: "system",
					subtype: "compact_boundary",
					content: "Conversation compacted",
					isMeta: false,
					level: "info",
					compactMetadata: {
						trigger: boundary.trigger === "manual" ? "manual" : "auto",
						preTokens: boundary.tokensBefore ?? 0,
					},
				});
				previous = record.id;
				const text = (summary?.message as unknown as SummaryMessage | undefined)?.summary ?? "";
				lines.push({
					...envelope(summary ?? record, summary?.id ?? `${record.id}-summary`),
					type: "user",
					isCompactSummary: true,
					message: { role: "user", content: text },
				});
				previous = summary?.id ?? `${record.id}-summary`;
				continue;
			}
			default:
				continue;
		}
		previous = record.id;
	}
	return lines.length === 0 ? "" : `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}

function userContent(message: UserMessage): unknown {
	if (typeof message.content === "string") return message.content;
	return message.content.map((block) =>
		block.type === "image"
			? { type: "image", source: { type: "base64", media_type: block.mimeType, data: block.data } }
			: block,
	);
}

function assistantMessage(message: AssistantMessage): Record<string, unknown> {
	const content = message.content.map((block) => {
		switch (block.type) {
			case "toolCall":
				return { type: "tool_use", id: block.id, name: block.name, input: block.arguments };
			case "thinking":
				return block.redacted
					? { type: "redacted_thinking", data: block.thinkingSignature ?? "" }
					: { type: "thinking", thinking: block.thinking, signature: block.thinkingSignature ?? "" };
			default:
				return block;
		}
	});
	return {
		...(message.responseId === undefined ? {} : { id: message.responseId }),
		type: "message",
		role: "assistant",
		model: message.model,
		content,
		stop_reason: message.rawStopReason ?? STOP_REASONS[message.stopReason] ?? "end_turn",
		stop_sequence: null,
		usage: {
			input_tokens: message.usage.input,
			output_tokens: message.usage.output,
			cache_read_input_tokens: message.usage.cacheRead,
			cache_creation_input_tokens: message.usage.cacheWrite,
		},
	};
}

// Importing a Claude Code transcript (~/.claude/projects/<project>/<session>.jsonl) into Keel
// sessions. Claude Code's line shape is not documented as a format; what this reads is what its
// files hold (see packages/agent/test/fixtures/claude-code/, real transcripts):
// - every line has `uuid` and `parentUuid`, and the parent chain runs through every kind of line —
//   `progress` (hook and tool progress), `system` (hook summaries, turn durations) — not only the
//   conversation, so the conversation is found by walking the chain back from the last message;
// - one model response is written as one `assistant` line per content block, all with the same
//   `message.id` and each repeating the response's usage (the last line has the final count);
// - the results of a response's parallel tool calls each hang off the line of their own call, so
//   the chain from the last message passes through only one of them: results are paired with
//   their call by `tool_use_id` instead, and a result does not repeat the tool's name;
// - a compaction is a `system` line with `subtype: "compact_boundary"`, `parentUuid: null` and
//   the previous message in `logicalParentUuid`, followed by a `user` line `isCompactSummary: true`
//   holding the summary;
// - a sub-agent's lines are marked `isSidechain: true` and carry its `agentId`, inline in older
//   versions and in `<session>/subagents/agent-<id>.jsonl` files in newer ones; the main session's
//   `progress` lines with `data.agentId` name the tool call that started it (`parentToolUseID`).
// The blocks inside `message` are Anthropic Messages blocks
// (https://docs.anthropic.com/en/api/messages), converted as record-migration.ts does.
import type { ToolCall } from "@keel/ai";
import type { AgentMessage } from "../../types.js";
import { migrateAssistantMessage, migrateToolResultContent, migrateUserBlock } from "../record-migration.js";
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

/** A sub-agent transcript file of the session (`<session>/subagents/agent-<id>.jsonl`). */
export interface ClaudeCodeSidechainSource {
	/** The file name, used in errors and to name the agent when its lines do not. */
	name: string;
	text: string;
	/** The tool call that started the agent, when known apart from the lines (`agent-<id>.meta.json`'s `toolUseId`). */
	toolUseId?: string;
}

export interface ClaudeCodeImportOptions {
	/** The Keel session id to import into. Default: the transcript's own `sessionId`. */
	sessionId?: string;
	/** The session's sub-agent transcript files, imported as sidechains linked to it. */
	sidechains?: readonly ClaudeCodeSidechainSource[];
	/** How errors name the file. Default: "the transcript". */
	source?: string;
}

/**
 * Converts a Claude Code transcript to Keel sessions, writing nothing: the main conversation (the
 * branch Claude Code resumes, ending at the file's last message) and one sidechain per sub-agent.
 * Throws a TranscriptInterchangeError when the text is not a Claude Code transcript.
 */
export function convertClaudeCodeTranscript(text: string, options: ClaudeCodeImportOptions = {}): ConvertedTranscript {
	const source = options.source ?? "the transcript";
	const lines = parseTranscriptLines(text, source);
	const format = detectTranscriptFormat(lines);
	if (format !== "claude-code") {
		throw new TranscriptInterchangeError(
			`${source} is not a Claude Code transcript: ${format === undefined ? `it starts with ${describeLine(lines[0])}` : `it is a ${format} session`}`,
		);
	}
	const skipped: Record<string, number> = {};
	let mainLines = lines.filter((line) => line.isSidechain !== true);
	const sourceSessionId = firstString(mainLines, "sessionId") ?? firstString(lines, "sessionId");
	let sessionId = options.sessionId ?? sourceSessionId;
	if (sessionId === undefined) throw new TranscriptInterchangeError(`${source} names no sessionId`);
	let parentSessionId: string | undefined;
	if (!mainLines.some(isConversationLine)) {
		// A sub-agent's own file (`agent-<id>.jsonl`, every line a sidechain) imported on its own: its
		// conversation is the session, linked to the session that started it.
		mainLines = lines;
		const agentId = firstString(lines, "agentId");
		if (options.sessionId === undefined && agentId !== undefined) sessionId = `${sessionId}--agent-${agentId}`;
		parentSessionId = sourceSessionId;
	}
	const main = linearise(mainLines, skipped);
	if (main.messages.length === 0) {
		throw new TranscriptInterchangeError(`${source} holds no user or assistant message: there is nothing to import`);
	}
	const mainSession: ConvertedSession = {
		sessionId,
		timestamp: main.messages[0].timestamp,
		messages: main.messages,
	};
	if (parentSessionId !== undefined && parentSessionId !== sessionId) mainSession.parentSessionId = parentSessionId;
	const title = titleOf(lines);
	if (title !== undefined) mainSession.title = title;
	const workingDirectory = lastString(mainLines, "cwd");
	if (workingDirectory !== undefined) mainSession.state = { workingDirectory };

	const agentCalls = agentToolCalls(mainLines);
	const groups = new Map<string, TranscriptLine[]>();
	for (const line of parentSessionId === undefined ? lines : []) {
		if (line.isSidechain !== true) continue;
		const agentId = typeof line.agentId === "string" ? line.agentId : "inline";
		groups.set(agentId, [...(groups.get(agentId) ?? []), line]);
	}
	for (const file of options.sidechains ?? []) {
		const fileLines = parseTranscriptLines(file.text, file.name);
		const agentId = firstString(fileLines, "agentId") ?? file.name.replace(/^agent-/, "").replace(/\.jsonl$/, "");
		groups.set(agentId, [...(groups.get(agentId) ?? []), ...fileLines]);
		if (file.toolUseId !== undefined && !agentCalls.has(agentId)) agentCalls.set(agentId, file.toolUseId);
	}
	const sidechains: ConvertedSession[] = [];
	for (const [agentId, agentLines] of groups) {
		const converted = linearise(agentLines, skipped);
		if (converted.messages.length === 0) continue;
		const sidechain: ConvertedSession = {
			sessionId: `${sessionId}--agent-${agentId}`,
			timestamp: converted.messages[0].timestamp,
			parentSessionId: sessionId,
			messages: converted.messages,
		};
		// A sub-agent started by a tool call (Task) hangs off the message that made the call; the
		// compaction's own summarising call (agent "acompact-…") off the compact boundary.
		const callId = agentCalls.get(agentId);
		const parentMessageId =
			(callId === undefined ? undefined : main.callOwners.get(callId)) ??
			(agentId.startsWith("acompact") ? main.boundaryIds.at(-1) : undefined);
		if (parentMessageId !== undefined) sidechain.parentMessageId = parentMessageId;
		sidechains.push(sidechain);
	}
	return { format: "claude-code", main: mainSession, sidechains, skipped };
}

interface Linearised {
	messages: ConvertedMessage[];
	/** Tool call id → the Keel id of the assistant message that made it. */
	callOwners: Map<string, string>;
	boundaryIds: string[];
}

/** The branch ending at the last message of `lines`, as Keel messages, each following the one before. */
function linearise(lines: readonly TranscriptLine[], skipped: Record<string, number>): Linearised {
	const byUuid = new Map<string, TranscriptLine>();
	for (const line of lines) if (typeof line.uuid === "string") byUuid.set(line.uuid, line);
	const path = pathToLastMessage(lines, byUuid, skipped);

	const responses = new Map<string, TranscriptLine[]>();
	const results = new Map<string, { line: TranscriptLine; index: number; block: Record<string, unknown> }>();
	for (const line of lines) {
		if (line.type === "assistant" && isObject(line.message)) {
			const key = responseKey(line);
			responses.set(key, [...(responses.get(key) ?? []), line]);
		} else if (line.type === "user" && isObject(line.message) && Array.isArray(line.message.content)) {
			line.message.content.forEach((block: unknown, index: number) => {
				if (isObject(block) && block.type === "tool_result" && typeof block.tool_use_id === "string") {
					if (!results.has(block.tool_use_id)) results.set(block.tool_use_id, { line, index, block });
				}
			});
		}
	}

	const output: Linearised = { messages: [], callOwners: new Map(), boundaryIds: [] };
	const usedIds = new Set<string>();
	const done = new Set<TranscriptLine>();
	const answered = new Set<string>();
	let lastTimestamp = 0;
	const push = (preferredId: string, line: TranscriptLine, message: AgentMessage): string => {
		let id = preferredId;
		for (let suffix = 1; usedIds.has(id); suffix++) id = `${preferredId}#${suffix}`;
		usedIds.add(id);
		lastTimestamp = toEpochMilliseconds(line.timestamp, lastTimestamp);
		(message as { timestamp: number }).timestamp = lastTimestamp;
		output.messages.push({ id, parentId: output.messages.at(-1)?.id ?? null, timestamp: lastTimestamp, message });
		return id;
	};

	for (let step = 0; step < path.length; step++) {
		const line = path[step];
		if (done.has(line)) continue;
		if (line.type === "assistant") {
			const group = responses.get(responseKey(line)) ?? [line];
			for (const member of group) done.add(member);
			const message = mergeResponse(group);
			const id = push(String(group[0].uuid), group[0], message);
			const calls = (message as { content: { type: string }[] }).content.filter(
				(block): block is ToolCall => block.type === "toolCall",
			);
			for (const call of calls) {
				output.callOwners.set(call.id, id);
				const result = results.get(call.id);
				if (result === undefined || answered.has(call.id)) continue;
				answered.add(call.id);
				push(String(result.line.uuid), result.line, {
					role: "toolResult",
					toolCallId: call.id,
					toolName: call.name,
					content: migrateToolResultContent(result.block.content),
					isError: result.block.is_error === true,
					timestamp: 0,
				} as AgentMessage);
			}
		} else if (line.type === "user") {
			done.add(line);
			const message = line.message as Record<string, unknown>;
			if (line.isCompactSummary === true) {
				// A summary line without its boundary before it: the text the model was given.
				push(String(line.uuid), line, userMessage(message.content));
				continue;
			}
			const content = message.content;
			if (!Array.isArray(content)) {
				push(String(line.uuid), line, userMessage(content));
				continue;
			}
			const rest = content.filter((block) => !(isObject(block) && block.type === "tool_result"));
			for (const block of content) {
				// Results are written after their call; one whose call is not on the branch answers nothing.
				if (isObject(block) && block.type === "tool_result" && !answered.has(String(block.tool_use_id)))
					countSkipped(skipped, "tool result without its call");
			}
			if (rest.length > 0) push(String(line.uuid), line, userMessage(rest));
		} else if (line.type === "system" && line.subtype === "compact_boundary") {
			const summaryLine = path[step + 1];
			if (summaryLine?.type !== "user" || summaryLine.isCompactSummary !== true) {
				countSkipped(skipped, "compact boundary without a summary");
				continue;
			}
			done.add(summaryLine);
			const summarisedMessageCount = output.messages.length;
			const summaryText = textOf((summaryLine.message as Record<string, unknown>).content);
			const summary: SummaryMessage = { role: "summary", summary: summaryText, summarisedMessageCount, timestamp: 0 };
			const summaryId = push(String(summaryLine.uuid), summaryLine, summary as unknown as AgentMessage);
			const metadata = isObject(line.compactMetadata) ? line.compactMetadata : {};
			const boundary: CompactBoundaryMessage = {
				role: "compact_boundary",
				trigger: metadata.trigger === "manual" ? "manual" : "auto",
				summaryId,
				timestamp: 0,
			};
			if (typeof metadata.preTokens === "number") boundary.tokensBefore = metadata.preTokens;
			output.boundaryIds.push(push(String(line.uuid), line, boundary as unknown as AgentMessage));
		} else {
			countSkipped(skipped, line.type === "system" ? `system ${String(line.subtype)}` : String(line.type));
		}
	}
	return output;
}

/**
 * The lines from the root to the last user or assistant line, following `parentUuid` (and, at a
 * compact boundary, `logicalParentUuid`) through lines of every type. A link to a line the file does
 * not hold (real transcripts have compact boundaries whose logical parent was never written) goes
 * on from the line before it in the file, as Keel mends its own damaged chains, rather than
 * dropping the history before it; each such link is counted in `skipped`.
 */
function pathToLastMessage(
	lines: readonly TranscriptLine[],
	byUuid: Map<string, TranscriptLine>,
	skipped: Record<string, number>,
): TranscriptLine[] {
	const position = new Map(lines.map((line, index) => [line, index]));
	let cursor: TranscriptLine | undefined;
	for (let index = lines.length - 1; index >= 0 && cursor === undefined; index--) {
		if (isConversationLine(lines[index])) cursor = lines[index];
	}
	const path: TranscriptLine[] = [];
	const seen = new Set<TranscriptLine>();
	while (cursor !== undefined && !seen.has(cursor)) {
		seen.add(cursor);
		path.push(cursor);
		const parent =
			typeof cursor.parentUuid === "string"
				? cursor.parentUuid
				: typeof cursor.logicalParentUuid === "string"
					? cursor.logicalParentUuid
					: undefined;
		if (parent === undefined) break;
		const found = byUuid.get(parent);
		if (found !== undefined) {
			cursor = found;
			continue;
		}
		countSkipped(skipped, "link to a line the file does not hold (followed the line before)");
		cursor = lineBefore(lines, position.get(cursor) ?? 0);
	}
	return path.reverse();
}

/** The nearest line before `index` that takes part in the chain (has a uuid). */
function lineBefore(lines: readonly TranscriptLine[], index: number): TranscriptLine | undefined {
	for (let before = index - 1; before >= 0; before--) if (typeof lines[before].uuid === "string") return lines[before];
	return undefined;
}

/** One response from its lines: their blocks in order, the last line's usage and stop reason. */
function mergeResponse(group: readonly TranscriptLine[]): AgentMessage {
	const content: unknown[] = [];
	const callIds = new Set<string>();
	let usage: unknown;
	let stopReason: unknown;
	for (const line of group) {
		const message = line.message as Record<string, unknown>;
		for (const block of Array.isArray(message.content) ? message.content : []) {
			if (isObject(block) && block.type === "tool_use") {
				if (callIds.has(String(block.id))) continue;
				callIds.add(String(block.id));
			}
			content.push(block);
		}
		if (isObject(message.usage)) usage = message.usage;
		if (typeof message.stop_reason === "string") stopReason = message.stop_reason;
	}
	const first = group[0].message as Record<string, unknown>;
	const merged = migrateAssistantMessage({ ...first, content, usage, stop_reason: stopReason }, 0) as Record<
		string,
		unknown
	>;
	if (group.some((line) => line.isApiErrorMessage === true)) {
		merged.stopReason = "error";
		merged.errorMessage = textOf(content) || "the request failed";
	}
	return merged as unknown as AgentMessage;
}

function userMessage(content: unknown): AgentMessage {
	const converted = Array.isArray(content)
		? content.map((block) => migrateUserBlock(block as Record<string, unknown>))
		: typeof content === "string"
			? content
			: "";
	return { role: "user", content: converted, timestamp: 0 } as AgentMessage;
}

function responseKey(line: TranscriptLine): string {
	const message = line.message as Record<string, unknown>;
	return typeof message.id === "string" ? `message:${message.id}` : `line:${String(line.uuid)}`;
}

/** agent id → the tool call that started it, from the main session's agent progress lines. */
function agentToolCalls(lines: readonly TranscriptLine[]): Map<string, string> {
	const calls = new Map<string, string>();
	for (const line of lines) {
		const data = line.data;
		if (line.type !== "progress" || !isObject(data) || typeof data.agentId !== "string") continue;
		if (typeof line.parentToolUseID === "string" && !calls.has(data.agentId))
			calls.set(data.agentId, line.parentToolUseID);
	}
	return calls;
}

/** The session's title: the last `custom-title` line, else the last `summary` line. */
function titleOf(lines: readonly TranscriptLine[]): string | undefined {
	return (
		lastString(
			lines.filter((line) => line.type === "custom-title"),
			"customTitle",
		) ??
		lastString(
			lines.filter((line) => line.type === "summary"),
			"summary",
		)
	);
}

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.filter((block) => isObject(block) && block.type === "text" && typeof block.text === "string")
		.map((block) => (block as { text: string }).text)
		.join("\n");
}

function firstString(lines: readonly TranscriptLine[], key: string): string | undefined {
	for (const line of lines) if (typeof line[key] === "string") return line[key] as string;
	return undefined;
}

function lastString(lines: readonly TranscriptLine[], key: string): string | undefined {
	for (let index = lines.length - 1; index >= 0; index--)
		if (typeof lines[index][key] === "string") return lines[index][key] as string;
	return undefined;
}

function isConversationLine(line: TranscriptLine): boolean {
	return (line.type === "user" || line.type === "assistant") && isObject(line.message);
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

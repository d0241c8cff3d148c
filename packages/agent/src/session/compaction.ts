// Compaction: a model summarises everything of the branch's context before a point; the summary
// and a compact boundary are appended, and from then on the model sees the summary, the recent tail
// kept verbatim, and what follows. Nothing is deleted: the full history stays in the transcript.
import {
	type AssistantMessage,
	type Context,
	formatThrownValue,
	type Message,
	type Model,
	type SimpleStreamOptions,
	streamSimple,
	type ToolResultMessage,
} from "@keel/ai";
import type { AgentMessage, StreamFn } from "../types.js";
import { type Session, waitingForApprovalError } from "./session.js";
import { sessionConvertToLlm } from "./session-convert-to-llm.js";
import type { CompactBoundaryMessage, SessionMessageRecord, SummaryMessage } from "./session-types.js";

/** The summariser's system prompt unless `prompt` replaces it. */
export const DEFAULT_COMPACTION_PROMPT = [
	"You summarise a conversation between a user and an AI assistant that uses tools, so the assistant",
	"can continue it with the summary in place of the messages. Keep: the user's goals and",
	"constraints, decisions made and why, files, commands and identifiers that matter, what was tried",
	"and failed, the current state of the work, and what remains to do. Leave out pleasantries and",
	"repetition. Write the summary only, as plain text.",
].join("\n");

/** Messages kept verbatim after the summary when neither keep option is given. */
export const DEFAULT_KEEP_RECENT_MESSAGES = 4;

/** A tool result longer than this many characters is shortened in the text the summariser reads. */
const TOOL_RESULT_CHARACTERS = 2000;

export interface CompactOptions {
	/** The summariser. */
	model: Model;
	/** Default `streamSimple`. */
	streamFn?: StreamFn;
	/** The summariser's system prompt; default `DEFAULT_COMPACTION_PROMPT`. */
	prompt?: string;
	/** Keep this many of the latest messages verbatim (default 4 when `keepRecentTokens` is not set). */
	keepRecentMessages?: number;
	/** Keep the latest messages whose estimated size (4 characters a token) fits in this many tokens. */
	keepRecentTokens?: number;
	/**
	 * Also keep verbatim every message after the last assistant response (the input the next model
	 * call answers), whatever the keep options say. The Agent's automatic compaction sets it.
	 */
	keepPendingInput?: boolean;
	/** Written into the boundary; default "manual". */
	trigger?: CompactBoundaryMessage["trigger"];
	/** The context's size before compaction, when known; written into the boundary. */
	tokensBefore?: number;
	signal?: AbortSignal;
	/** More options for the summariser's call (apiKey, maxTokens, reasoning, …). */
	streamOptions?: SimpleStreamOptions;
}

export interface CompactionResult {
	summary: SummaryMessage;
	summaryId: string;
	boundaryId: string;
	/** The last message the summary replaces. */
	lastSummarisedMessageId: string;
	/** The first message kept verbatim, when the tail kept any. */
	firstKeptMessageId?: string;
	summarisedMessageCount: number;
}

/**
 * Summarises the current branch's context up to the kept tail and appends the summary and its
 * compact boundary. Resolves to undefined when there is nothing before the tail to summarise.
 * A failed or aborted summary call rejects, and nothing is written.
 */
export async function compact(session: Session, options: CompactOptions): Promise<CompactionResult | undefined> {
	// Checked before the summary call: the compaction would have to close the waiting calls.
	const paused = session.pausedToolRun();
	if (paused) throw waitingForApprovalError(session.id, paused, "compact");
	const context = session.modelContextRecords();
	const cut = chooseCut(context, options);
	if (cut <= 0) return undefined;
	const summarised = context.slice(0, cut);
	const summaryText = await summarise(
		summarised.map((record) => record.message),
		options,
	);
	const summary: SummaryMessage = {
		role: "summary",
		summary: summaryText,
		summarisedMessageCount: summarised.length,
		timestamp: Date.now(),
	};
	const firstKeptMessageId = context[cut]?.id;
	const { summaryRecord, boundaryRecord } = await session.appendCompaction(summary, {
		trigger: options.trigger ?? "manual",
		tokensBefore: options.tokensBefore,
		firstKeptMessageId,
	});
	const result: CompactionResult = {
		summary,
		summaryId: summaryRecord.id,
		boundaryId: boundaryRecord.id,
		lastSummarisedMessageId: summarised[summarised.length - 1].id,
		summarisedMessageCount: summarised.length,
	};
	if (firstKeptMessageId !== undefined) result.firstKeptMessageId = firstKeptMessageId;
	return result;
}

/** A rough size of a message in tokens (4 characters a token), for choosing the tail. */
export function estimateTokens(message: AgentMessage): number {
	return Math.ceil(JSON.stringify(message).length / 4);
}

/**
 * The index of the first kept message. The tail never starts with a tool result: the cut moves back
 * to the assistant message that made the call, so a call and its result stay on one side.
 */
function chooseCut(context: SessionMessageRecord[], options: CompactOptions): number {
	const { keepRecentTokens } = options;
	const keepRecentMessages =
		options.keepRecentMessages ?? (keepRecentTokens === undefined ? DEFAULT_KEEP_RECENT_MESSAGES : undefined);
	for (const [name, value] of [
		["keepRecentMessages", keepRecentMessages],
		["keepRecentTokens", keepRecentTokens],
	] as const) {
		if (value !== undefined && !(Number.isInteger(value) && value >= 0)) {
			throw new RangeError(`compact(): ${name} must be a whole number of 0 or more, got ${String(value)}`);
		}
	}
	let cut = context.length;
	let tokens = 0;
	while (cut > 0) {
		const kept = context.length - cut;
		if (keepRecentMessages !== undefined && kept >= keepRecentMessages) break;
		if (keepRecentTokens !== undefined) {
			const next = estimateTokens(context[cut - 1].message);
			if (tokens + next > keepRecentTokens) break;
			tokens += next;
		}
		cut--;
	}
	if (options.keepPendingInput) {
		let lastAssistant = context.length - 1;
		while (lastAssistant >= 0 && roleOf(context[lastAssistant].message) !== "assistant") lastAssistant--;
		cut = Math.min(cut, lastAssistant + 1);
	}
	while (cut > 0 && cut < context.length && roleOf(context[cut].message) === "toolResult") cut--;
	return cut;
}

async function summarise(messages: AgentMessage[], options: CompactOptions): Promise<string> {
	const transcript = renderTranscript(sessionConvertToLlm(messages));
	const context: Context = {
		systemPrompt: options.prompt ?? DEFAULT_COMPACTION_PROMPT,
		messages: [
			{
				role: "user",
				content: `<conversation>\n${transcript}\n</conversation>\n\nSummarise the conversation above.`,
				timestamp: Date.now(),
			},
		],
	};
	const streamOptions: SimpleStreamOptions = { ...options.streamOptions };
	if (options.signal) streamOptions.signal = options.signal;
	let message: AssistantMessage;
	try {
		const stream = await (options.streamFn ?? streamSimple)(options.model, context, streamOptions);
		message = await stream.result();
	} catch (error) {
		throw new Error(`Compaction failed: the summary call threw (${formatThrownValue(error)})`);
	}
	if (message.stopReason === "error" || message.stopReason === "aborted") {
		throw new Error(
			`Compaction failed: the summary call ended with ${message.stopReason} (${message.errorMessage ?? "no message"})`,
		);
	}
	const text = message.content
		.filter((block) => block.type === "text")
		.map((block) => block.text)
		.join("")
		.trim();
	if (text === "") throw new Error("Compaction failed: the summariser returned no text");
	return text;
}

/** The conversation as plain text: tool calls and results are words for the summariser, not API blocks. */
function renderTranscript(messages: Message[]): string {
	const lines: string[] = [];
	for (const message of messages) {
		if (message.role === "user") {
			lines.push(`User: ${contentText(message.content)}`);
		} else if (message.role === "assistant") {
			for (const block of message.content) {
				if (block.type === "text" && block.text.trim() !== "") lines.push(`Assistant: ${block.text}`);
				else if (block.type === "toolCall")
					lines.push(`Assistant called ${block.name}(${JSON.stringify(block.arguments)})`);
			}
		} else if (message.role === "system") {
			const text = contentText(message.content);
			if (text.trim() !== "") lines.push(`System: ${text}`);
		} else {
			lines.push(toolResultLine(message));
		}
	}
	return lines.join("\n\n");
}

function toolResultLine(message: ToolResultMessage): string {
	let text = contentText(message.content);
	if (text.length > TOOL_RESULT_CHARACTERS) {
		text = `${text.slice(0, TOOL_RESULT_CHARACTERS)} … (${text.length - TOOL_RESULT_CHARACTERS} more characters)`;
	}
	return `Result of ${message.toolName}${message.isError ? " (error)" : ""}: ${text}`;
}

function contentText(content: string | readonly { type: string; text?: string }[]): string {
	if (typeof content === "string") return content;
	return content.map((block) => (block.type === "text" ? (block.text ?? "") : `[${block.type}]`)).join("");
}

function roleOf(message: AgentMessage): unknown {
	return (message as { role?: unknown }).role;
}

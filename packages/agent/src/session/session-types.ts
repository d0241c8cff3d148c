// The shapes a session is made of: the message kinds a real agent stores besides user / assistant /
// tool results, the records of a transcript (one JSON object per line in the JSONL store), the
// session's explicit state, and the store interface both implementations (in memory, JSONL files)
// satisfy. Everything here is plain JSON so a record round-trips through `JSON.stringify` and
// `parseSessionRecord`.

import type { AgentMessage, ThinkingLevel } from "@keel/agent-core";
import type { ImageContent, Model, TextContent } from "@keel/ai";
import type { PausedToolRun } from "../approval/approval-types.js";

/** The format version written into every record; older versions are migrated on read. */
export const SESSION_FORMAT_VERSION = 1;

// ---------------------------------------------------------------------------
// Message kinds a session knows (AgentMessage kinds through declaration merging)
// ---------------------------------------------------------------------------

/**
 * Live UI state (a tool's progress, a spinner text). Shown while it is current, stored for the
 * record, but never part of the parent chain and never sent to the model.
 */
export interface ProgressMessage {
	role: "progress";
	/** The tool call this progress belongs to, when it belongs to one. */
	toolCallId?: string;
	text?: string;
	data?: unknown;
	timestamp: number;
}

/** Extra context the application attaches (a file, a document); the model sees it as user content. */
export interface AttachmentMessage {
	role: "attachment";
	name: string;
	mimeType?: string;
	content: (TextContent | ImageContent)[];
	timestamp: number;
}

/** What a notification reports; applications may use their own strings. */
export type NotificationKind = "hook_blocked" | "permission_decision" | "task_notification" | "context" | (string & {});

/**
 * A structured system event (a hook that blocked, a permission decision, a task notification,
 * extra context). `forModel: false` keeps it out of the model's context.
 */
export interface NotificationMessage {
	role: "notification";
	kind: NotificationKind;
	text: string;
	data?: unknown;
	forModel?: boolean;
	timestamp: number;
}

/** A model-written summary of everything before a compact boundary. */
export interface SummaryMessage {
	role: "summary";
	summary: string;
	/** How many messages of the branch the summary replaces. */
	summarisedMessageCount: number;
	timestamp: number;
}

/** Marks where a compaction cut the branch: the model sees the summary and what follows, not what precedes. */
export interface CompactBoundaryMessage {
	role: "compact_boundary";
	trigger: "manual" | "auto" | "overflow";
	/** The id of the summary message this boundary follows. */
	summaryId: string;
	/**
	 * The first message of the branch kept verbatim after the summary (the recent tail). Absent: the
	 * summary replaces everything before the boundary.
	 */
	firstKeptMessageId?: string;
	/** Input tokens of the branch before compaction, when known. */
	tokensBefore?: number;
	timestamp: number;
}

/** Hides an earlier message: the chain is read as if the target were not there. */
export interface TombstoneMessage {
	role: "tombstone";
	targetId: string;
	reason?: string;
	timestamp: number;
}

// ---------------------------------------------------------------------------
// Session state
// ---------------------------------------------------------------------------

/** Token-budget bookkeeping used to decide when to compact. */
export interface TokenBudgetState {
	contextWindow?: number;
	/** Input tokens of the last model call (its usage.input + cacheRead + cacheWrite). */
	lastInputTokens?: number;
	compactionCount?: number;
}

/** The session's explicit state beside its messages; stored and restored as a whole. */
/** An Agent's request settings as a session stores them (see `SessionState.agent`). */
export interface StoredAgentSettings {
	systemPrompt: string;
	/** The model without its `headers` (which may carry credentials and are never stored). */
	model: Omit<Model, "headers">;
	thinkingLevel: ThinkingLevel;
	/** The names of the Agent's tools, in order; the implementations are given again on resume. */
	toolNames: string[];
}

export interface SessionState {
	workingDirectory?: string;
	currentTask?: string;
	memorySummary?: string;
	activeSubAgentIds?: string[];
	permissionMode?: "default" | "ask" | "accept-edits" | "plan" | "bypass" | (string & {});
	tokenBudget?: TokenBudgetState;
	/**
	 * What an Agent's requests are made of besides the transcript (system prompt, model, thinking
	 * level, tool names), stored by an Agent bound to the session each time a run starts with other
	 * values, so that a resumed Agent sends the same request. Absent in older sessions.
	 */
	agent?: StoredAgentSettings;
	/** Application state that has no field above. */
	custom?: Record<string, unknown>;
}

// ---------------------------------------------------------------------------
// Records: one per line of a transcript
// ---------------------------------------------------------------------------

interface RecordBase {
	/** The format version the record was written with. */
	v: number;
	sessionId: string;
	/** Epoch milliseconds. */
	timestamp: number;
}

/** The first record of every transcript. */
export interface SessionHeaderRecord extends RecordBase {
	type: "session";
	title?: string;
	/** For a sub-agent's transcript (a sidechain): the session and message that started it. */
	parentSessionId?: string;
	parentMessageId?: string;
	/** For a sub-agent run as a tool: the tool call of `parentMessageId` it answers. */
	parentToolCallId?: string;
}

/** A message with identity. The parent chain, not the order of lines, defines a branch's history. */
export interface SessionMessageRecord extends RecordBase {
	type: "message";
	id: string;
	/** The previous message on its branch; null at the root. */
	parentId: string | null;
	message: AgentMessage;
}

/** A snapshot of the session state; the last one wins. */
export interface SessionStateRecord extends RecordBase {
	type: "state";
	state: SessionState;
}

/** Moves the current branch to another leaf (switching branches, forking from an earlier message). */
export interface SessionLeafRecord extends RecordBase {
	type: "leaf";
	/** null: the next message starts a new root. */
	leafId: string | null;
}

/** A change to the queue of messages waiting for the agent (so a crash does not lose them). */
export interface SessionQueueRecord extends RecordBase {
	type: "queue";
	action: "enqueued" | "delivered" | "dropped";
	queueItemId: string;
	queue?: "steering" | "followUp";
	priority?: number;
	/** Present on "enqueued". */
	message?: AgentMessage;
}

/**
 * Renames the session; the last one wins. Stores keep the latest title where `list()` finds it
 * without reading the transcript (the JSONL store in a small sidecar file).
 */
export interface SessionTitleRecord extends RecordBase {
	type: "title";
	title: string;
}

/**
 * A tool-approval change (see docs/approvals.md). "requested": a run paused with calls waiting, and
 * `pausedRun` is the state that resumes it (the last one wins). "granted" / "denied": a waiting call
 * was decided (written before the approved tool runs). "completed": the paused batch's results are
 * in the transcript.
 */
export interface SessionApprovalRecord extends RecordBase {
	type: "approval";
	action: "requested" | "granted" | "denied" | "completed";
	/** The pause the record belongs to (`PausedToolRun.pauseId`). */
	pauseId: string;
	/** Present on "requested". */
	pausedRun?: PausedToolRun;
	/** Present on "granted" and "denied". */
	toolCallId?: string;
	/** A denial's reason: what the model reads as the call's result. */
	reason?: string;
}

/** A line of a record type this version does not know (a newer writer's); kept, not dropped. */
export interface UnknownSessionRecord extends RecordBase {
	type: string;
	[field: string]: unknown;
}

export type SessionRecord =
	| SessionHeaderRecord
	| SessionMessageRecord
	| SessionStateRecord
	| SessionLeafRecord
	| SessionQueueRecord
	| SessionTitleRecord
	| SessionApprovalRecord;

// ---------------------------------------------------------------------------
// The store
// ---------------------------------------------------------------------------

/** What `list()` tells about a session without reading its whole transcript. */
export interface SessionInfo {
	sessionId: string;
	title?: string;
	createdAt: number;
	updatedAt: number;
	/** Size of the transcript in bytes (the JSONL file's size; an estimate in memory). */
	sizeBytes: number;
	parentSessionId?: string;
	parentMessageId?: string;
}

/**
 * What `list()` returns: newest first (by `updatedAt`, then by `sessionId` for equal times), one page
 * at a time when `limit` is given.
 */
export interface SessionListOptions {
	/** At most this many sessions (a positive integer); all of them when absent. */
	limit?: number;
	/**
	 * The next page: the sessions that come after this one in the list's order. Pass the last
	 * `SessionInfo` of the previous page (only its `updatedAt` and `sessionId` are read). Keyset
	 * paging: a session appended to between two pages moves to the front and is not listed twice.
	 */
	after?: Pick<SessionInfo, "updatedAt" | "sessionId">;
	/**
	 * Only the sessions whose title, or the text of one of whose messages (`getAgentMessageText`),
	 * contains this string, compared without case for ASCII letters. An empty string matches every session.
	 */
	search?: string;
}

/** Something a read set aside instead of failing: the rest of the transcript is still returned. */
export interface TranscriptReadProblem {
	/**
	 * 1-based line number in the transcript. `readTail` reads backwards and does not know it: there
	 * it counts from the end, -1 being the last line.
	 */
	line: number;
	/** Where the line starts in the file (JSONL store). */
	byteOffset?: number;
	kind: "torn-last-line" | "malformed" | "oversized";
	message: string;
}

export interface TranscriptReadResult {
	records: (SessionRecord | UnknownSessionRecord)[];
	problems: TranscriptReadProblem[];
}

export interface TranscriptTail extends TranscriptReadResult {
	/** The last summary message record of the transcript, when there is one. */
	lastSummary?: SessionMessageRecord;
}

/** Holds the session's write lock until closed; appends are sequential. */
export interface TranscriptWriter {
	readonly sessionId: string;
	append(records: SessionRecord | SessionRecord[]): Promise<void>;
	/** Makes every appended record durable according to the strictest policy. */
	flush(): Promise<void>;
	/** Flushes and releases the lock. */
	close(): Promise<void>;
}

export interface TranscriptStore {
	/**
	 * Opens a session for appending, creating it when `create` is true (the header record is then
	 * written first). A second writer on the same session gets a `SessionLockedError`.
	 */
	openWriter(sessionId: string, options?: { create?: SessionHeaderRecord }): Promise<TranscriptWriter>;
	/** Every record; problems (a torn last line, a malformed or oversized line) are reported, not thrown. */
	read(sessionId: string): Promise<TranscriptReadResult>;
	/**
	 * The last `entries` records and the last summary, without reading the whole transcript.
	 * `findLastSummary: false` skips the search for the summary further back than the entries.
	 */
	readTail(sessionId: string, options: { entries: number; findLastSummary?: boolean }): Promise<TranscriptTail>;
	/**
	 * Visits every record front to back without keeping them (bounded memory for huge transcripts);
	 * returns the problems met. Both of Keel's stores implement it. `bytes`, where the store knows it,
	 * is the record's stored size (its line's UTF-8 bytes, without the newline): load: "context"
	 * estimates tokens from it.
	 */
	scan?(
		sessionId: string,
		visit: (
			record: SessionRecord | UnknownSessionRecord,
			lineNumber: number,
			byteOffset?: number,
			bytes?: number,
		) => void,
	): Promise<TranscriptReadProblem[]>;
	/**
	 * Every session, newest first, without reading whole transcripts; a page of them with `limit` /
	 * `after`, the ones whose title or text match with `search` (see SessionListOptions). A store
	 * shared by several tenants lists only its own tenant's sessions.
	 */
	list(options?: SessionListOptions): Promise<SessionInfo[]>;
	exists(sessionId: string): Promise<boolean>;
	delete(sessionId: string): Promise<void>;
}

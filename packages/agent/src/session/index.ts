// The public surface of @keel/agent-core/session: message identity, transcripts and their stores,
// resume, branches and compaction. A separate entry so that the message kinds it adds to
// AgentMessage (by declaration merging, below) reach only the programs that use sessions.
import type {
	AttachmentMessage,
	CompactBoundaryMessage,
	NotificationMessage,
	ProgressMessage,
	SummaryMessage,
	TombstoneMessage,
} from "./session-types.js";

// The augmented module is the package's own public entry, not "../types.js": a relative specifier
// is copied verbatim into dist/session.d.ts, where it names no file, and the kinds would silently
// not reach the packed package's users. "@keel/agent-core" resolves to src/index.ts here (tsconfig
// paths) and to dist/index.d.ts in an installed package; both re-export the interface. It lives in
// this entry file (not session-types.ts, which the Agent's types import) so that importing
// "@keel/agent-core" alone does not add the kinds.
declare module "@keel/agent-core" {
	interface CustomAgentMessages {
		progress: ProgressMessage;
		attachment: AttachmentMessage;
		notification: NotificationMessage;
		summary: SummaryMessage;
		compact_boundary: CompactBoundaryMessage;
		tombstone: TombstoneMessage;
	}
}

export {
	type ApprovalRecordWriter,
	createToolApprovalRecorder,
	findPausedToolRun,
	loadPausedToolRun,
	recordPausedToolRun,
	recordToolApprovalDecision,
	recordToolApprovalsCompleted,
} from "../approval/approval-records.js";
export {
	type AgentCompactionOptions,
	DEFAULT_COMPACTION_THRESHOLD,
	estimateContextTokens,
} from "./agent-compaction.js";
export {
	type CompactionResult,
	type CompactOptions,
	compact,
	DEFAULT_COMPACTION_PROMPT,
	DEFAULT_KEEP_RECENT_MESSAGES,
	estimateTokens,
} from "./compaction.js";
export { createMemoryTranscriptStore } from "./memory-transcript-store.js";
export {
	getAgentMessageImages,
	getAgentMessageText,
	getAgentMessageThinking,
	getAgentMessageToolCalls,
} from "./message-content.js";
export type { SessionChainRepair, SessionDamage } from "./record-damage.js";
export {
	type ParsedSessionRecord,
	parseAgentMessage,
	parseSessionRecord,
	parseSessionRecords,
	serializeSessionRecord,
} from "./record-format.js";
export { MIGRATIONS } from "./record-migration.js";
export { type InterruptedToolCallPolicy, type ResumeAgentOptions, resumeAgent } from "./resume.js";
export {
	type CreateSessionOptions,
	type PendingQueueItem,
	Session,
	type SessionAppendOptions,
} from "./session.js";
export {
	type ConvertCustomMessage,
	createSessionConvertToLlm,
	type SessionConvertToLlmOptions,
	SUMMARY_PREFIX,
	sessionConvertToLlm,
} from "./session-convert-to-llm.js";
export {
	InvalidSessionIdError,
	SessionLockedError,
	SessionNotFoundError,
	SessionRecordError,
} from "./session-errors.js";
export { assertValidSessionId, MAX_SESSION_ID_LENGTH } from "./session-id.js";
export type { SessionBranchInfo } from "./session-tree.js";
export {
	type AttachmentMessage,
	type CompactBoundaryMessage,
	type NotificationKind,
	type NotificationMessage,
	type ProgressMessage,
	SESSION_FORMAT_VERSION,
	type SessionApprovalRecord,
	type SessionHeaderRecord,
	type SessionInfo,
	type SessionLeafRecord,
	type SessionMessageRecord,
	type SessionQueueRecord,
	type SessionRecord,
	type SessionState,
	type SessionStateRecord,
	type SessionTitleRecord,
	type SummaryMessage,
	type TokenBudgetState,
	type TombstoneMessage,
	type TranscriptReadProblem,
	type TranscriptReadResult,
	type TranscriptStore,
	type TranscriptTail,
	type TranscriptWriter,
	type UnknownSessionRecord,
} from "./session-types.js";
export { INTERRUPTED_TOOL_TEXT } from "./tool-result-pairing.js";

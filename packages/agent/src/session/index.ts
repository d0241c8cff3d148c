// The public surface of @keel/agent-core/session: message identity, transcripts and their stores,
// resume, branches and compaction. A separate entry so that the message kinds it adds to
// AgentMessage (by declaration merging, below) reach only the programs that use sessions.
import type { CompactionResult, CompactOptions } from "./compaction.js";
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
// this entry file (not session-types.ts, which modules outside this entry import) so that importing
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
	// The types of agent.compact(), which compacts the session of an Agent bound to one.
	interface AgentCompactTypes {
		options: Partial<CompactOptions>;
		result: CompactionResult | undefined;
	}
}

export {
	type AgentCompactionOptions,
	DEFAULT_COMPACTION_THRESHOLD,
	estimateContextTokens,
} from "./agent-compaction.js";
export {
	type ApprovalRecordWriter,
	createToolApprovalRecorder,
	findPausedToolRun,
	loadPausedToolRun,
	recordPausedToolRun,
	recordToolApprovalDecision,
	recordToolApprovalsCompleted,
} from "./approval-records.js";
export {
	type CompactionResult,
	type CompactOptions,
	compact,
	DEFAULT_COMPACTION_PROMPT,
	DEFAULT_KEEP_RECENT_MESSAGES,
	estimateTokens,
} from "./compaction.js";
export {
	type DatabaseOpenWriterOptions,
	type DatabaseTranscriptStore,
	type OffsetReadingStore,
	outlineMessageRecord,
} from "./context-loading.js";
export {
	BYTES_PER_TOKEN,
	DEFAULT_CONTEXT_TOKENS,
	LARGER_WINDOW_MODELS,
	type SessionContextCut,
} from "./context-window.js";
export {
	assertRecordPositions,
	assertValidTenant,
	checkDatabaseStoreLimits,
	type DatabaseCapacity,
	type DatabaseStoreLimits,
	DEFAULT_LEASE_MS,
	DEFAULT_MAX_RECORD_BYTES,
	parseStoredLine,
	recordsAtPositions,
} from "./database-store-options.js";
export * from "./interchange/index.js";
export { createMemoryTranscriptStore, isSummaryRecord } from "./memory-transcript-store.js";
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
export { type ResumeAgentOptions, resumeAgent } from "./resume.js";
export {
	type CreateSessionOptions,
	type OpenSessionOptions,
	type PendingQueueItem,
	Session,
	type SessionAppendOptions,
} from "./session.js";
export {
	type BindSessionOptions,
	bindSession,
	type InterruptedToolCallPolicy,
	type SessionAgentStore,
} from "./session-binding.js";
export {
	type ConvertCustomMessage,
	createSessionConvertToLlm,
	type SessionConvertToLlmOptions,
	SUMMARY_PREFIX,
	sessionConvertToLlm,
} from "./session-convert-to-llm.js";
export {
	ForeignTranscriptError,
	InvalidSessionIdError,
	SessionFencedError,
	SessionLockedError,
	SessionNotFoundError,
	SessionRecordError,
} from "./session-errors.js";
export { assertValidSessionId, MAX_SESSION_ID_LENGTH } from "./session-id.js";
export {
	assertValidListOptions,
	compareSessionInfos,
	foldForSearch,
	pageSessionInfos,
	searchableText,
	titleMatches,
} from "./session-list.js";
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
	type SessionListOptions,
	type SessionMessageRecord,
	type SessionQueueRecord,
	type SessionRecord,
	type SessionState,
	type SessionStateRecord,
	type SessionTitleRecord,
	type StoredAgentSettings,
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
export { listSidechains, type SidechainStoreOptions, sidechainStores } from "./sidechain-stores.js";
export { INTERRUPTED_TOOL_TEXT } from "./tool-result-pairing.js";

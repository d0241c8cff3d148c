// The public surface of @keel/agent-core/session: message identity, transcripts and their stores,
// resume, branches and compaction. A separate entry so that the message kinds it adds to
// AgentMessage (by declaration merging) reach only the programs that use sessions.
export {
	type ApprovalRecordWriter,
	createToolApprovalRecorder,
	findPausedToolRun,
	loadPausedToolRun,
	recordPausedToolRun,
	recordToolApprovalDecision,
	recordToolApprovalsCompleted,
} from "../approval/approval-records.js";
export { createMemoryTranscriptStore } from "./memory-transcript-store.js";
export {
	getAgentMessageImages,
	getAgentMessageText,
	getAgentMessageThinking,
	getAgentMessageToolCalls,
} from "./message-content.js";
export {
	type ParsedSessionRecord,
	parseAgentMessage,
	parseSessionRecord,
	parseSessionRecords,
	serializeSessionRecord,
} from "./record-format.js";
export { MIGRATIONS } from "./record-migration.js";
export {
	InvalidSessionIdError,
	SessionLockedError,
	SessionNotFoundError,
	SessionRecordError,
} from "./session-errors.js";
export { assertValidSessionId, MAX_SESSION_ID_LENGTH } from "./session-id.js";
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

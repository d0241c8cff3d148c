// The public surface of @keel/agent-core.

// --- the agent loop, tools, the Agent (owner: agent core) ---
export {
	Agent,
	type AgentListener,
	type AgentOptions,
	ALREADY_PROCESSING_CONTINUE_TEXT,
	ALREADY_PROCESSING_PROMPT_TEXT,
	type QueueMessageOptions,
	type SteerOptions,
} from "./agent.js";
export { agentAsTool } from "./agent-as-tool.js";
export {
	AGENT_TOOL_PARAMETERS,
	type AgentAsToolOptions,
	type AgentToolDetails,
	type AgentToolProgressDetails,
	type AgentToolRun,
	type AgentToolRunDetails,
	type ChildAgentCall,
	type ChildAgentContext,
	type ChildAgentStore,
	type ChildStoreFactory,
	DEFAULT_AGENT_TOOL_MAX_DEPTH,
} from "./agent-as-tool-types.js";
export {
	defaultConvertToLlm,
	getDefaultStreamFn,
	isUnknownModel,
	NO_MODEL_TEXT,
	setDefaultStreamFn,
	UNKNOWN_MODEL,
} from "./agent-defaults.js";
export { summariseAgentEvent } from "./agent-event-summary.js";
export {
	agentLoop,
	agentLoopAfterApprovals,
	agentLoopContinue,
	runAgentLoop,
	runAgentLoopAfterApprovals,
	runAgentLoopContinue,
} from "./agent-loop.js";
export type {
	AgentCompactOptions,
	AgentCompactResult,
	AgentCompactTypes,
	AgentQueueChange,
	AgentSettings,
	AgentStore,
	AgentStoreRun,
	AgentStoreStart,
	AgentStoreView,
	StoredQueueItem,
} from "./agent-store.js";
// --- tool approvals: pausing a run for a decision, and resuming it (owner: approvals) ---
export { ABORTED_WHILE_WAITING_TEXT, DENIED_TOOL_TEXT } from "./approval/approval-gate.js";
export {
	PAUSED_TOOL_RUN_VERSION,
	type PausedToolCall,
	type PausedToolRun,
	type ToolApprovalContext,
	type ToolApprovalDecision,
	type ToolApprovalPolicyContext,
	type ToolApprovalRequest,
} from "./approval/approval-types.js";
export {
	applyToolApprovalDecisions,
	assertCanResume,
	assertPausedToolRun,
	pendingToolApprovals,
} from "./approval/paused-run.js";
export { type AgentToolCallOutcome, type RunToolCallOptions, runToolCall } from "./run-tool-call.js";
// --- agent core, continued (Biome sorts exports by path) ---
export {
	INTERRUPTED_BY_STEERING_TEXT,
	INTERRUPTED_TOOL_TEXT,
	type InterruptedAssistantMessage,
	isInterruptedMessage,
	SKIPPED_FOR_INTERRUPT_TEXT,
} from "./steering-interrupt.js";
export { ABORTED_TOOL_TEXT, SKIPPED_FOR_STEERING_TEXT, TRUNCATED_TOOL_CALL_TEXT } from "./tool-execution.js";
export type {
	AfterToolCallContext,
	AfterToolCallResult,
	AgentContext,
	AgentEvent,
	AgentEventSink,
	AgentLoopConfig,
	AgentLoopTurnUpdate,
	AgentMessage,
	AgentRequestUpdate,
	AgentState,
	AgentTool,
	AgentToolCall,
	AgentToolResult,
	AgentToolUpdateCallback,
	AgentTurnContext,
	AgentTurnDecision,
	BeforeToolCallContext,
	BeforeToolCallResult,
	CustomAgentMessages,
	FinishTurn,
	PrepareNextTurnContext,
	PrepareRequest,
	PrepareRequestContext,
	QueueMode,
	ShouldStopAfterTurnContext,
	SteeringCheck,
	StreamFn,
	ThinkingLevel,
	ToolApprovalCheck,
	ToolExecutionMode,
} from "./types.js";
export { addUsage, emptyUsage, sumUsage } from "./usage-total.js";

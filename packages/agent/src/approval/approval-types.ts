// The tool-approval types live in types.ts with the loop's other types (one module, no import
// circle); this module keeps the format version beside them for the code that checks stored runs.
export type {
	PausedToolCall,
	PausedToolRun,
	ToolApprovalContext,
	ToolApprovalDecision,
	ToolApprovalPolicyContext,
	ToolApprovalRequest,
} from "../types.js";

/** The format version of `PausedToolRun`; a stored state of another version is refused with a clear error. */
export const PAUSED_TOOL_RUN_VERSION = 1;

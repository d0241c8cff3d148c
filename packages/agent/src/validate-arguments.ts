import { validateToolArguments } from "@keel/ai";
import type { AgentTool, AgentToolCall } from "./types.js";

/**
 * The arguments the tool receives: validated against its schema and coerced (a copy; the call's
 * own arguments are untouched). Throws @keel/ai's validation text, which lists every failing path.
 */
export function validateToolCallArguments(tool: AgentTool, toolCall: AgentToolCall): unknown {
	return validateToolArguments(tool, toolCall);
}

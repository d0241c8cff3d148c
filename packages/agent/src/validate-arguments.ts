import * as ai from "@keel/ai";
import type { AgentTool, AgentToolCall } from "./types.js";

type ValidateToolArguments = (tool: AgentTool, toolCall: AgentToolCall) => unknown;

// @keel/ai's validator (AJV, coercion, readable error text) is looked up on the namespace so this
// package keeps working against a @keel/ai build that predates it; then arguments pass unchecked.
const validateToolArguments = (ai as unknown as { validateToolArguments?: ValidateToolArguments })
	.validateToolArguments;

/** The arguments the tool receives: validated and coerced; throws the validation text. */
export function validateToolCallArguments(tool: AgentTool, toolCall: AgentToolCall): unknown {
	return validateToolArguments ? validateToolArguments(tool, toolCall) : toolCall.arguments;
}

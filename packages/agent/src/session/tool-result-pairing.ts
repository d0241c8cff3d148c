// Every tool call has exactly one tool result, matched by id, on every branch: the model APIs
// reject a call without its result (or a result without its call), so a branch that breaks the
// rule could never be sent again. These helpers find the calls still waiting for a result and build
// the synthetic results that answer them.
import type { AssistantMessage, ToolCall, ToolResultMessage } from "@keel/ai";
import type { AgentMessage } from "../types.js";

/** The result text of a call whose run was cut short (a crash, a closed tab) and not run again. */
export const INTERRUPTED_TOOL_TEXT =
	"Tool call was interrupted: the session ended before it finished, and it was not run again.";

/** The tool calls of an assistant message (none for any other message). */
export function toolCallsOf(message: AgentMessage): ToolCall[] {
	if ((message as { role?: unknown }).role !== "assistant") return [];
	const content = (message as AssistantMessage).content;
	if (!Array.isArray(content)) return [];
	return content.filter((block): block is ToolCall => block.type === "toolCall");
}

/**
 * The calls of the last assistant message of `messages` that no later toolResult answers, in call
 * order. Empty when the last assistant message has no tool calls or all are answered.
 */
export function unansweredToolCalls(messages: readonly AgentMessage[]): ToolCall[] {
	const answered = new Set<string>();
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index] as { role?: unknown };
		if (message.role === "toolResult") answered.add((message as ToolResultMessage).toolCallId);
		else if (message.role === "assistant") {
			return toolCallsOf(messages[index]).filter((toolCall) => !answered.has(toolCall.id));
		}
	}
	return [];
}

/** An error result for a call that will not run (`text` says why). */
export function syntheticToolResult(toolCall: ToolCall, text: string, timestamp = Date.now()): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: toolCall.id,
		toolName: toolCall.name,
		content: [{ type: "text", text }],
		isError: true,
		timestamp,
	};
}

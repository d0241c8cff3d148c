// What a UI shows of a child agent's events: one readable line per event, and the text of its last
// answer, for agentAsTool's partial results and final result.
import type { AgentEvent, AgentMessage } from "./types.js";

/** The fields of an assistant message read here (AgentMessage may hold an application's own kinds). */
export interface AssistantLike {
	role: "assistant";
	content: { type: string; text?: string }[];
	stopReason?: string;
	errorMessage?: string;
}

export function lastAssistant(messages: AgentMessage[]): AssistantLike | undefined {
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index] as { role?: unknown };
		if (message.role === "assistant") return message as AssistantLike;
	}
	return undefined;
}

export function textOf(message: AssistantLike): string {
	return message.content
		.filter((block) => block.type === "text" && typeof block.text === "string")
		.map((block) => block.text)
		.join("");
}

/** One line a UI can show for a child's event: what the child is doing (its text so far while it answers). */
export function summariseAgentEvent(event: AgentEvent): string {
	switch (event.type) {
		case "message_start":
		case "message_update":
		case "message_end": {
			const message = event.message as { role?: unknown; content?: unknown };
			if (message.role === "assistant" && Array.isArray(message.content)) {
				const text = textOf(message as AssistantLike);
				return text === "" ? "thinking…" : text;
			}
			return `${String(message.role)} message`;
		}
		case "tool_execution_start":
			return `calling ${event.toolName}`;
		case "tool_execution_update":
			return `${event.toolName}: ${event.partialResult.content.map((block) => (block.type === "text" ? block.text : "[image]")).join("")}`;
		case "tool_execution_end":
			return `${event.toolName} ${event.isError ? "failed" : "done"}`;
		case "tool_approval_request":
			return `${event.toolName} waits for approval`;
		case "tool_approval_response":
			return `${event.toolName} ${event.approved ? "approved" : "denied"}`;
		default:
			return event.type.replace("_", " ");
	}
}

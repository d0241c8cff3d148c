import type { AssistantMessage } from "../types.js";
import { emptyUsage } from "./usage.js";

/** An assistant message with no content and zero usage, for building partials. */
export function createEmptyAssistantMessage(api: string, provider: string, model: string): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api,
		provider,
		model,
		usage: emptyUsage(),
		stopReason: "stop",
		timestamp: Date.now(),
	};
}

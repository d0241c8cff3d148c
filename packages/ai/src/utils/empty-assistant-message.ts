import type { AssistantMessage } from "../types.js";

/** An assistant message with no content and zero usage, for building partials. */
export function createEmptyAssistantMessage(api: string, provider: string, model: string): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api,
		provider,
		model,
		usage: {
			input: 0,
			output: 0,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 0,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "stop",
		timestamp: Date.now(),
	};
}

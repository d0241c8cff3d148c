import type { Message, Tool } from "../../types.js";
import type { ResolvedOpenAICompletionsCompat } from "./compat.js";
import type { ChatFunctionTool } from "./wire-types.js";

/**
 * Tools in Chat Completions' function schema. `strict: false` is sent where the vendor knows the
 * field (it keeps OpenAI from enforcing its strict-schema subset on TypeBox schemas) and left out
 * where it is rejected.
 */
export function encodeOpenAICompletionsTools(
	tools: readonly Tool[],
	compat: ResolvedOpenAICompletionsCompat,
): ChatFunctionTool[] {
	return tools.map((tool) => {
		const encoded: ChatFunctionTool = {
			type: "function",
			function: {
				name: tool.name,
				description: tool.description,
				parameters: tool.parameters as unknown as Record<string, unknown>,
			},
		};
		if (compat.supportsStrictMode) encoded.function.strict = false;
		return encoded;
	});
}

/** True when the history holds tool calls or results (some proxies then require a `tools` field). */
export function historyUsesTools(messages: readonly Message[]): boolean {
	return messages.some(
		(message) =>
			message.role === "toolResult" ||
			(message.role === "assistant" && message.content.some((block) => block.type === "toolCall")),
	);
}

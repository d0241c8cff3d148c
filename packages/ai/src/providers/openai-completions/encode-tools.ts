import { providerToolSchema } from "../../schema/provider-tool-schema.js";
import type { Message, Tool } from "../../types.js";
import type { ResolvedOpenAICompletionsCompat } from "./compat.js";
import type { ChatFunctionTool } from "./wire-types.js";

/**
 * Tools in Chat Completions' function schema. `strict` is sent where the vendor knows the field and
 * left out where it is rejected: false unless the tool asks for it (false keeps OpenAI from holding
 * TypeBox schemas to its strict-schema subset).
 */
export function encodeOpenAICompletionsTools(
	tools: readonly Tool[],
	compat: ResolvedOpenAICompletionsCompat,
): ChatFunctionTool[] {
	return tools.map((tool) => {
		const strict = compat.supportsStrictMode && tool.strict === true;
		const encoded: ChatFunctionTool = {
			type: "function",
			function: {
				name: tool.name,
				description: tool.description,
				parameters: providerToolSchema(tool, { api: "Chat Completions", strict }),
			},
		};
		if (compat.supportsStrictMode) encoded.function.strict = tool.strict === true;
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

import type { Context, Model, SimpleStreamOptions } from "@keel/ai";
import { NonRetryableError } from "@keel/ai/provider-kit";
import type { OllamaChatRequest, OllamaMessage } from "./wire-types.js";

/** Options of this provider: Keel's stream options are all it needs. */
export type OllamaChatOptions = SimpleStreamOptions;

/** The request body for a conversation: text, thinking and tool calls, tool results as `tool` messages. */
export function encodeOllamaChatRequest(
	model: Model<"ollama-chat">,
	context: Context,
	options: OllamaChatOptions,
): OllamaChatRequest {
	const messages: OllamaMessage[] = [];
	if (context.systemPrompt) messages.push({ role: "system", content: context.systemPrompt });
	for (const message of context.messages) {
		if (message.role === "user") {
			const content =
				typeof message.content === "string"
					? message.content
					: message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
			messages.push({ role: "user", content });
		} else if (message.role === "assistant") {
			let content = "";
			const toolCalls: NonNullable<OllamaMessage["tool_calls"]> = [];
			for (const block of message.content) {
				if (block.type === "text") content += block.text;
				else if (block.type === "toolCall")
					toolCalls.push({ function: { name: block.name, arguments: block.arguments } });
			}
			messages.push({ role: "assistant", content, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) });
		} else if (message.role === "toolResult") {
			const content = message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
			messages.push({ role: "tool", content, tool_name: message.toolName });
		}
	}
	if (messages.length === 0) throw new NonRetryableError("An Ollama chat request needs at least one message");
	const body: OllamaChatRequest = { model: model.id, messages, stream: true };
	if (context.tools && context.tools.length > 0) {
		body.tools = context.tools.map((tool) => ({
			type: "function",
			function: { name: tool.name, description: tool.description, parameters: tool.parameters },
		}));
	}
	if (model.reasoning && options.reasoning) body.think = true;
	const modelOptions: NonNullable<OllamaChatRequest["options"]> = {};
	if (options.temperature !== undefined) modelOptions.temperature = options.temperature;
	if (options.maxTokens !== undefined) modelOptions.num_predict = options.maxTokens;
	if (Object.keys(modelOptions).length > 0) body.options = modelOptions;
	return body;
}

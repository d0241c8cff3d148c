import type {
	LanguageModelV3FilePart,
	LanguageModelV3FunctionTool,
	LanguageModelV3Message,
	LanguageModelV3Prompt,
	LanguageModelV3TextPart,
	LanguageModelV3ToolResultOutput,
} from "@ai-sdk/provider";
import {
	type Context,
	foldSystemMessages,
	type Model,
	type TextContent,
	type ToolResultContent,
	type ToolResultMessage,
	toJsonSchema,
	transformMessages,
	type UserContent,
} from "@keel/ai";

// A Keel Context as an AI SDK (LanguageModelV3) prompt and tool list.

export interface AiSdkPrompt {
	prompt: LanguageModelV3Prompt;
	tools: LanguageModelV3FunctionTool[] | undefined;
}

export function toAiSdkPrompt(context: Context, model: Model): AiSdkPrompt {
	// System messages inside the transcript are folded into the system prompt: not every AI SDK
	// provider accepts a system message after the conversation started.
	const resolved = foldSystemMessages(context);
	// Drops failed turns and gives unanswered tool calls a result, as every Keel provider does.
	const messages = transformMessages(resolved.messages, model);
	const prompt: LanguageModelV3Prompt = [];
	if (resolved.systemPrompt !== undefined && resolved.systemPrompt !== "") {
		prompt.push({ role: "system", content: resolved.systemPrompt });
	}
	for (const message of messages) {
		switch (message.role) {
			case "system": // folded above
				break;
			case "user":
				prompt.push({
					role: "user",
					content:
						typeof message.content === "string"
							? [{ type: "text", text: message.content }]
							: message.content.map(toFilePartOrText),
				});
				break;
			case "assistant": {
				const content: Extract<LanguageModelV3Message, { role: "assistant" }>["content"] = [];
				for (const block of message.content) {
					if (block.type === "text") content.push({ type: "text", text: block.text });
					else if (block.type === "thinking") {
						if (block.thinking !== "") content.push({ type: "reasoning", text: block.thinking });
					} else {
						content.push({ type: "tool-call", toolCallId: block.id, toolName: block.name, input: block.arguments });
					}
				}
				if (content.length > 0) prompt.push({ role: "assistant", content });
				break;
			}
			case "toolResult": {
				const part = {
					type: "tool-result" as const,
					toolCallId: message.toolCallId,
					toolName: message.toolName,
					output: toToolResultOutput(message),
				};
				// Consecutive results answer one assistant turn: one tool message holds them all.
				const last = prompt[prompt.length - 1];
				if (last?.role === "tool") last.content.push(part);
				else prompt.push({ role: "tool", content: [part] });
				break;
			}
		}
	}
	const tools = resolved.tools?.map(
		(tool): LanguageModelV3FunctionTool => ({
			type: "function",
			name: tool.name,
			description: tool.description,
			// A Standard Schema (Zod, …) converted by its library; TypeBox schemas carry symbol keys,
			// which the JSON round trip leaves out.
			inputSchema: JSON.parse(JSON.stringify(toJsonSchema(tool.parameters, `Tool "${tool.name}"`))),
		}),
	);
	return { prompt, tools: tools !== undefined && tools.length > 0 ? tools : undefined };
}

function toToolResultOutput(message: ToolResultMessage): LanguageModelV3ToolResultOutput {
	const textOnly = message.content.every((block) => block.type === "text");
	if (textOnly) {
		const text = message.content.map((block) => (block as TextContent).text).join("\n");
		return message.isError ? { type: "error-text", value: text } : { type: "text", value: text };
	}
	return { type: "content", value: message.content.map(toToolResultPart) };
}

/** A tool result block as an AI SDK content part: text, image data, or a file by data or URL. */
function toToolResultPart(block: ToolResultContent) {
	if (block.type === "text") return { type: "text" as const, text: block.text };
	if (block.type === "image") return { type: "image-data" as const, data: block.data, mediaType: block.mimeType };
	if (block.url !== undefined) return { type: "file-url" as const, url: block.url, mediaType: block.mimeType };
	return {
		type: "file-data" as const,
		data: block.data ?? "",
		mediaType: block.mimeType,
		...(block.filename !== undefined ? { filename: block.filename } : {}),
	};
}

/** A user block as an AI SDK part: images, audio and files are all `file` parts there. */
function toFilePartOrText(block: UserContent): LanguageModelV3TextPart | LanguageModelV3FilePart {
	if (block.type === "text") return { type: "text", text: block.text };
	if (block.type === "file") {
		const part: LanguageModelV3FilePart = {
			type: "file",
			data: block.url !== undefined ? new URL(block.url) : (block.data ?? ""),
			mediaType: block.mimeType,
		};
		if (block.filename) part.filename = block.filename;
		return part;
	}
	return { type: "file", data: block.data, mediaType: block.mimeType };
}

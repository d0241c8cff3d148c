// Prompt and response content for spans, recorded only when the user opted in (`recordContent`).
// The shape follows the GenAI semantic conventions' message format: a role and a list of parts,
// serialised as JSON (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/).
import type { AssistantMessage, Context, Message } from "../types.js";

type Part = Record<string, unknown>;

function contentParts(content: Message["content"]): Part[] {
	if (typeof content === "string") return [{ type: "text", content }];
	return content.map((block): Part => {
		switch (block.type) {
			case "text":
				return { type: "text", content: block.text };
			case "thinking":
				return { type: "reasoning", content: block.thinking };
			case "toolCall":
				return { type: "tool_call", id: block.id, name: block.name, arguments: block.arguments };
			case "image":
				// Image bytes would swamp a span: the part says an image was there, not what it showed.
				return { type: "blob", modality: "image", mime_type: block.mimeType };
			default:
				return { type: (block as { type: string }).type };
		}
	});
}

function messageParts(message: Message): Record<string, unknown> {
	if (message.role === "toolResult") {
		return {
			role: "tool",
			parts: [{ type: "tool_call_response", id: message.toolCallId, response: contentParts(message.content) }],
		};
	}
	return { role: message.role, parts: contentParts(message.content) };
}

/** `gen_ai.input.messages` for a call's context. */
export function inputMessages(context: Context): string {
	return serialiseValue(context.messages.map(messageParts));
}

/** `gen_ai.system_instructions`, when the context has a system prompt. */
export function systemInstructions(context: Context): string | undefined {
	return context.systemPrompt ? JSON.stringify([{ type: "text", content: context.systemPrompt }]) : undefined;
}

/** `gen_ai.output.messages` for a call's answer. */
export function outputMessages(message: AssistantMessage): string {
	return serialiseValue([{ ...messageParts(message), finish_reason: finishReason(message) }]);
}

/** The GenAI conventions' finish reason for Keel's stop reason. */
export function finishReason(message: AssistantMessage): string {
	switch (message.stopReason) {
		case "toolUse":
			return "tool_call";
		case "aborted":
			return "aborted";
		default:
			return message.stopReason;
	}
}

/** A value as span text; a value JSON cannot hold (a cycle, a BigInt) is described rather than thrown. */
export function serialiseValue(value: unknown): string {
	if (typeof value === "string") return value;
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return String(value);
	}
}

import {
	type Api,
	type AssistantMessage,
	type AssistantMessageEvent,
	createEmptyAssistantMessage,
	type Model,
	StreamingJsonParser,
	type TextContent,
	type ThinkingContent,
	type ToolCall,
} from "@keel/ai";
import type { ProxyAssistantMessageEvent, ProxyMessageSummary } from "./protocol.js";

type BlockType = "text" | "thinking" | "toolCall";
type BlockOfType<TType extends BlockType> = Extract<TextContent | ThinkingContent | ToolCall, { type: TType }>;

/**
 * Rebuilds the assistant message from the proxy's slim events and turns each one back into a full
 * AssistantMessageEvent. Like @keel/ai's providers, it mutates one partial message in place and
 * every event carries that same object. A malformed event throws; the caller ends the stream with
 * an error event that keeps the content received so far.
 */
export class ProxyMessageRebuilder {
	readonly message: AssistantMessage;
	private readonly toolArguments = new Map<number, StreamingJsonParser>();

	constructor(model: Model<Api>) {
		this.message = createEmptyAssistantMessage(model.api, model.provider, model.id);
	}

	apply(event: ProxyAssistantMessageEvent): AssistantMessageEvent {
		const partial = this.message;
		switch (event.type) {
			case "start":
				return { type: "start", partial };
			case "text_start": {
				const block: TextContent = { type: "text", text: "" };
				if (event.textSignature !== undefined) block.textSignature = event.textSignature;
				this.place(event.contentIndex, block);
				return { type: "text_start", contentIndex: event.contentIndex, partial };
			}
			case "text_delta":
				this.block(event, "text").text += event.delta;
				return { type: "text_delta", contentIndex: event.contentIndex, delta: event.delta, partial };
			case "text_end": {
				const block = this.block(event, "text");
				if (event.textSignature !== undefined) block.textSignature = event.textSignature;
				return { type: "text_end", contentIndex: event.contentIndex, content: block.text, partial };
			}
			case "thinking_start": {
				const block: ThinkingContent = { type: "thinking", thinking: "" };
				if (event.redacted) block.redacted = true;
				if (event.thinkingSignature !== undefined) block.thinkingSignature = event.thinkingSignature;
				this.place(event.contentIndex, block);
				return { type: "thinking_start", contentIndex: event.contentIndex, partial };
			}
			case "thinking_delta":
				this.block(event, "thinking").thinking += event.delta;
				return { type: "thinking_delta", contentIndex: event.contentIndex, delta: event.delta, partial };
			case "thinking_end": {
				const block = this.block(event, "thinking");
				if (event.thinkingSignature !== undefined) block.thinkingSignature = event.thinkingSignature;
				return { type: "thinking_end", contentIndex: event.contentIndex, content: block.thinking, partial };
			}
			case "toolcall_start": {
				const block: ToolCall = { type: "toolCall", id: event.id, name: event.toolName, arguments: {} };
				if (event.thoughtSignature !== undefined) block.thoughtSignature = event.thoughtSignature;
				this.place(event.contentIndex, block);
				this.toolArguments.set(event.contentIndex, new StreamingJsonParser());
				return { type: "toolcall_start", contentIndex: event.contentIndex, partial };
			}
			case "toolcall_delta": {
				const block = this.block(event, "toolCall");
				const parser = this.toolArguments.get(event.contentIndex);
				if (!parser)
					throw new Error(`Proxy stream error: toolcall_delta for block ${event.contentIndex} after its end`);
				parser.push(event.delta);
				const value = parser.value;
				if (typeof value === "object" && value !== null && !Array.isArray(value)) {
					block.arguments = value as Record<string, unknown>;
				}
				return { type: "toolcall_delta", contentIndex: event.contentIndex, delta: event.delta, partial };
			}
			case "toolcall_end": {
				const block = this.block(event, "toolCall");
				this.toolArguments.delete(event.contentIndex);
				// The server's final tool call is authoritative (it parsed the complete arguments).
				const final = event.toolCall;
				if (final && typeof final === "object") {
					if (typeof final.id === "string") block.id = final.id;
					if (typeof final.name === "string") block.name = final.name;
					if (final.arguments && typeof final.arguments === "object") block.arguments = final.arguments;
					if (final.thoughtSignature !== undefined) block.thoughtSignature = final.thoughtSignature;
				}
				return { type: "toolcall_end", contentIndex: event.contentIndex, toolCall: block, partial };
			}
			case "done":
				this.applySummary(event.message);
				partial.stopReason = event.reason;
				return { type: "done", reason: event.reason, message: partial };
			case "error":
				this.applySummary(event.message);
				partial.stopReason = event.reason;
				partial.errorMessage = event.errorMessage;
				return { type: "error", reason: event.reason, error: partial };
			default:
				throw new Error(`Proxy stream error: unknown event type ${JSON.stringify((event as { type?: unknown }).type)}`);
		}
	}

	private applySummary(summary: ProxyMessageSummary | undefined): void {
		if (!summary) return;
		if (summary.usage) this.message.usage = summary.usage;
		if (summary.rawStopReason !== undefined) this.message.rawStopReason = summary.rawStopReason;
		if (summary.responseId !== undefined) this.message.responseId = summary.responseId;
		if (summary.responseModel !== undefined) this.message.responseModel = summary.responseModel;
		if (summary.diagnostics !== undefined) this.message.diagnostics = summary.diagnostics;
	}

	/** Blocks arrive in index order; a gap or an overwrite means the stream is corrupt. */
	private place(index: number, block: TextContent | ThinkingContent | ToolCall): void {
		if (index !== this.message.content.length) {
			throw new Error(`Proxy stream error: block ${index} started, expected index ${this.message.content.length}`);
		}
		this.message.content.push(block);
	}

	private block<TType extends BlockType>(
		event: { type: string; contentIndex: number },
		type: TType,
	): BlockOfType<TType> {
		const block = this.message.content[event.contentIndex];
		if (!block || block.type !== type) {
			const found = block ? `a ${block.type} block` : "no block";
			throw new Error(
				`Proxy stream error: received ${event.type} for content ${event.contentIndex}, which is ${found}`,
			);
		}
		return block as BlockOfType<TType>;
	}
}

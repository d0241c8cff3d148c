import type {
	Response,
	ResponseOutputItem,
	ResponseOutputMessage,
	ResponseReasoningItem,
	ResponseStreamEvent,
} from "openai/resources/responses/responses";
import type { AssistantMessageBuilder } from "../../message/assistant-message-builder.js";
import { ProviderStreamError } from "../../wire/provider-errors.js";
import type { StreamDecoder } from "../../wire/stream-decoder.js";
import { readResponsesStreamError } from "./errors.js";
import { encodeTextSignature } from "./text-signature.js";

type OpenItem =
	| { kind: "reasoning"; blockIndex: number; summaryParts: number }
	| { kind: "message"; blockIndex: number }
	| { kind: "function_call"; blockIndex: number };

/**
 * Turns Responses stream events into builder calls. A state machine with no I/O: output items are
 * tracked by `output_index`, so interleaved items land in the right block. Unknown event and item
 * types (web search, annotations, future additions) are ignored; an event that contradicts the
 * stream so far (text for a function call, arguments for an unknown item) throws. An `error` event
 * (rate limits and server errors can arrive this way) throws a ProviderStreamError with its code.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export class OpenAIResponsesDecoder implements StreamDecoder<ResponseStreamEvent> {
	private readonly items = new Map<number, OpenItem>();
	private ended = false;

	constructor(
		private readonly builder: AssistantMessageBuilder,
		/** Names the provider in error messages: "OpenAI", "Azure OpenAI". */
		private readonly providerLabel = "OpenAI",
		/** The tier asked for; the response's own `service_tier` wins when present. */
		private readonly requestedServiceTier?: string,
	) {}

	/** True once a terminal event (completed, incomplete, failed) ended the message. */
	get isFinished(): boolean {
		return this.ended;
	}

	end(): void {
		if (this.ended) return;
		this.ended = true;
		this.builder.fail(
			"error",
			`The ${this.providerLabel} stream ended before the response was finished (no response.completed event)`,
		);
	}

	decode(event: ResponseStreamEvent): void {
		if (this.ended) return;
		switch (event.type) {
			case "response.created":
			case "response.in_progress":
			case "response.queued":
				// Optional chaining: some compatible servers send these events without the response object.
				this.builder.setResponseIdentity({ responseId: event.response?.id, responseModel: event.response?.model });
				return;
			case "response.output_item.added":
				this.openItem(event.output_index, event.item);
				return;
			case "response.reasoning_summary_part.added": {
				this.reasoningBlock(event.output_index, event.item_id, event.type);
				const item = this.expect(event.output_index, "reasoning", event.type);
				// Parts are joined with a blank line, as the finished reasoning item presents them.
				if (item.summaryParts > 0) this.builder.appendThinking(item.blockIndex, "\n\n");
				item.summaryParts++;
				return;
			}
			case "response.reasoning_summary_text.delta":
			case "response.reasoning_text.delta":
				// reasoning_text is the raw chain of thought some servers stream (LM Studio, gpt-oss).
				this.builder.appendThinking(this.reasoningBlock(event.output_index, event.item_id, event.type), event.delta);
				return;
			case "response.output_text.delta":
			case "response.refusal.delta":
				this.builder.appendText(this.messageBlock(event.output_index, event.item_id), event.delta);
				return;
			case "response.function_call_arguments.delta":
				this.builder.appendToolCallArguments(
					this.expect(event.output_index, "function_call", event.type).blockIndex,
					event.delta,
				);
				return;
			case "response.function_call_arguments.done": {
				const blockIndex = this.expect(event.output_index, "function_call", event.type).blockIndex;
				if (!this.builder.hasToolCallArguments(blockIndex) && event.arguments) {
					this.builder.appendToolCallArguments(blockIndex, event.arguments);
				}
				return;
			}
			case "response.output_item.done":
				this.closeItem(event.output_index, event.item);
				return;
			case "response.completed":
			case "response.incomplete":
			case "response.failed":
				if (!event.response || typeof event.response !== "object") {
					throw new Error(`Malformed ${this.providerLabel} stream: ${event.type} without a response object`);
				}
				this.endResponse(event.response);
				return;
			case "error": {
				const { code, message } = readResponsesStreamError(event);
				throw new ProviderStreamError(`${this.providerLabel} stream error${code ? ` ${code}` : ""}: ${message}`, code);
			}
			default:
				return;
		}
	}

	private openItem(outputIndex: number, item: ResponseOutputItem): void {
		if (item.type === "reasoning") {
			this.items.set(outputIndex, { kind: "reasoning", blockIndex: this.builder.startThinking(), summaryParts: 0 });
		} else if (item.type === "message") {
			this.items.set(outputIndex, { kind: "message", blockIndex: this.builder.startText() });
		} else if (item.type === "function_call") {
			const blockIndex = this.builder.startToolCall(toolCallId(item.call_id, item.id), item.name);
			this.items.set(outputIndex, { kind: "function_call", blockIndex });
			if (item.arguments) this.builder.appendToolCallArguments(blockIndex, item.arguments);
		}
	}

	private closeItem(outputIndex: number, item: ResponseOutputItem): void {
		if (item.type !== "reasoning" && item.type !== "message" && item.type !== "function_call") return;
		// Some compatible servers send only the finished item: open it now so nothing is lost.
		if (!this.items.has(outputIndex)) this.openItem(outputIndex, { ...item, ...emptyBody(item) } as ResponseOutputItem);
		const open = this.expect(outputIndex, item.type, "response.output_item.done");
		const blockIndex = open.blockIndex;
		if (item.type === "reasoning") {
			const block = this.builder.message.content[blockIndex];
			if (block.type === "thinking" && block.thinking === "") {
				const text = reasoningText(item);
				if (text) this.builder.appendThinking(blockIndex, text);
			}
			// The whole item (id, summary, encrypted_content) is the signature: it is replayed as is.
			this.builder.endThinking(blockIndex, this.reasoningSignature(item));
		} else if (item.type === "message") {
			const block = this.builder.message.content[blockIndex];
			if (block.type === "text" && block.text === "") {
				const text = messageText(item);
				if (text) this.builder.appendText(blockIndex, text);
			}
			this.builder.endText(blockIndex, encodeTextSignature(item.id, item.phase));
		} else {
			if (!this.builder.hasToolCallArguments(blockIndex) && item.arguments) {
				this.builder.appendToolCallArguments(blockIndex, item.arguments);
			}
			this.builder.endToolCall(blockIndex, { id: toolCallId(item.call_id, item.id), name: item.name });
		}
		this.items.delete(outputIndex);
	}

	/**
	 * The reasoning item as JSON. JSON.stringify recurses: an item a server nested thousands of
	 * levels deep would overflow the stack with a message that names nothing.
	 */
	private reasoningSignature(item: ResponseReasoningItem): string {
		try {
			return JSON.stringify(item);
		} catch (error) {
			throw new Error(
				`Malformed ${this.providerLabel} stream: the reasoning item ${item.id} cannot be kept (${error instanceof Error ? error.message : String(error)})`,
			);
		}
	}

	private endResponse(response: Response): void {
		this.ended = true;
		this.builder.setResponseIdentity({ responseId: response.id, responseModel: response.model });
		const usage = response.usage;
		if (usage) {
			const cached = usage.input_tokens_details?.cached_tokens ?? 0;
			// output_tokens already contains the reasoning tokens: they are not added again.
			this.builder.updateUsage({
				input: Math.max(0, usage.input_tokens - cached),
				cacheRead: cached,
				output: usage.output_tokens,
				totalTokens: usage.total_tokens,
			});
		}
		this.builder.setServiceTier(response.service_tier ?? this.requestedServiceTier);
		const status = response.status ?? "completed";
		if (status === "incomplete") {
			const reason = response.incomplete_details?.reason ?? "unknown";
			if (reason === "max_output_tokens") this.builder.finish("length", reason);
			else this.builder.fail("error", `${this.providerLabel} stopped the response: ${reason}`, reason);
		} else if (status === "failed" || status === "cancelled") {
			const error = response.error;
			const detail = error ? `${error.code}: ${error.message}` : status;
			this.builder.fail("error", `${this.providerLabel} response ${status}: ${detail}`, status);
		} else if (status === "completed" || status === "in_progress" || status === "queued") {
			this.builder.finish("stop");
		} else {
			this.builder.fail("error", `${this.providerLabel} stopped the response: ${status}`, status);
		}
	}

	private expect<TKind extends OpenItem["kind"]>(
		outputIndex: number,
		kind: TKind,
		eventType: string,
	): Extract<OpenItem, { kind: TKind }> {
		const item = this.items.get(outputIndex);
		if (!item || item.kind !== kind) {
			throw new Error(
				`Malformed ${this.providerLabel} stream: ${eventType} for output ${outputIndex}, which is ${item ? `a ${item.kind}` : "not open"}`,
			);
		}
		return item as Extract<OpenItem, { kind: TKind }>;
	}

	/** Reasoning deltas; the item is opened on demand for servers that skip output_item.added. */
	private reasoningBlock(outputIndex: number, itemId: string, eventType: string): number {
		if (!this.items.has(outputIndex)) this.openItem(outputIndex, { type: "reasoning", id: itemId, summary: [] });
		return this.expect(outputIndex, "reasoning", eventType).blockIndex;
	}

	/** Text for a message; opened on demand for servers that skip output_item.added. */
	private messageBlock(outputIndex: number, itemId: string): number {
		if (!this.items.has(outputIndex)) {
			this.openItem(outputIndex, {
				type: "message",
				id: itemId,
				role: "assistant",
				status: "in_progress",
				content: [],
			});
		}
		return this.expect(outputIndex, "message", "text delta").blockIndex;
	}
}

/** Tool-call ids keep both halves: call_id pairs the result, the item id pairs the reasoning. */
function toolCallId(callId: string, itemId: string | undefined): string {
	return itemId ? `${callId}|${itemId}` : callId;
}

function emptyBody(item: ResponseOutputItem): Partial<ResponseOutputItem> {
	if (item.type === "message") return { content: [] } as Partial<ResponseOutputMessage>;
	if (item.type === "reasoning") return { summary: [] } as Partial<ResponseReasoningItem>;
	if (item.type === "function_call") return { arguments: "" };
	return {};
}

function reasoningText(item: ResponseReasoningItem): string {
	const summary = item.summary.map((part) => part.text).join("\n\n");
	if (summary) return summary;
	return (item.content ?? []).map((part) => part.text).join("\n\n");
}

function messageText(item: ResponseOutputMessage): string {
	return item.content.map((part) => (part.type === "output_text" ? part.text : part.refusal)).join("");
}

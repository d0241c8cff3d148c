import type Anthropic from "@anthropic-ai/sdk";
import type { AssistantMessageBuilder, UsageUpdate } from "../shared/assistant-message-builder.js";
import type { StreamDecoder } from "../shared/stream-decoder.js";
import { mapAnthropicStopReason } from "./stop-reason.js";

export type AnthropicStreamEvent = Anthropic.Messages.RawMessageStreamEvent;
type ApiUsage = Partial<Anthropic.Messages.Usage> | Partial<Anthropic.Messages.MessageDeltaUsage>;

/** Shown as the text of a redacted thinking block; the encrypted data is kept as its signature. */
export const REDACTED_THINKING_TEXT = "[Reasoning redacted]";

type BlockKind = "text" | "thinking" | "toolCall";

/** Thrown for an event that breaks the wire format; the harness turns it into an error event. */
export class AnthropicStreamError extends Error {
	override name = "AnthropicStreamError";
}

function describe(event: unknown): string {
	const text = JSON.stringify(event) ?? String(event);
	return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function malformed(reason: string, event: unknown): never {
	throw new AnthropicStreamError(`Malformed Anthropic stream event (${reason}): ${describe(event)}`);
}

/** Only fields the API sent as numbers: `message_delta` repeats some as null. */
function usageUpdate(usage: ApiUsage | null | undefined): UsageUpdate {
	const update: UsageUpdate = {};
	if (!usage) return update;
	if (typeof usage.input_tokens === "number") update.input = usage.input_tokens;
	if (typeof usage.output_tokens === "number") update.output = usage.output_tokens;
	if (typeof usage.cache_read_input_tokens === "number") update.cacheRead = usage.cache_read_input_tokens;
	if (typeof usage.cache_creation_input_tokens === "number") update.cacheWrite = usage.cache_creation_input_tokens;
	return update;
}

/**
 * The state machine for one Anthropic Messages stream: raw SSE events in, builder calls out.
 * Anthropic numbers content blocks itself (`index`); blocks Keel does not model (server tool use,
 * web search results) are skipped, so the API index is mapped to the builder's index.
 *
 * Usage: `input_tokens` already excludes cache reads and writes, so it maps to `input` directly.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export class AnthropicStreamDecoder implements StreamDecoder<AnthropicStreamEvent> {
	private readonly blocks = new Map<number, { index: number; kind: BlockKind }>();
	private stopReason: string | undefined;
	private finished = false;

	constructor(private readonly builder: AssistantMessageBuilder) {}

	/** True once `message_stop` ended the message. */
	get isFinished(): boolean {
		return this.finished;
	}

	end(): void {
		if (this.finished) return;
		this.finished = true;
		this.builder.fail("error", "The Anthropic stream ended before the response was finished (no message_stop event)");
	}

	decode(event: AnthropicStreamEvent): void {
		if (!event || typeof event !== "object") malformed("not an object", event);
		switch (event.type) {
			case "message_start":
				this.onMessageStart(event);
				return;
			case "content_block_start":
				this.onBlockStart(event);
				return;
			case "content_block_delta":
				this.onBlockDelta(event);
				return;
			case "content_block_stop":
				this.onBlockStop(event);
				return;
			case "message_delta":
				this.onMessageDelta(event);
				return;
			case "message_stop":
				this.onMessageStop();
				return;
			default:
				// Anthropic documents that new event types may appear (`ping` is one); they are skipped.
				return;
		}
	}

	private onMessageStart(event: Anthropic.Messages.RawMessageStartEvent): void {
		const message = event.message;
		if (!message || typeof message !== "object") malformed("message_start without a message", event);
		this.builder.setResponseIdentity({ responseId: message.id, responseModel: message.model });
		this.builder.updateUsage(usageUpdate(message.usage));
	}

	private onBlockStart(event: Anthropic.Messages.RawContentBlockStartEvent): void {
		const block = event.content_block;
		if (typeof event.index !== "number" || !block) malformed("content_block_start without index or block", event);
		if (this.blocks.has(event.index)) malformed(`block ${event.index} started twice`, event);
		if (block.type === "text") {
			const index = this.builder.startText();
			if (block.text) this.builder.appendText(index, block.text);
			this.blocks.set(event.index, { index, kind: "text" });
		} else if (block.type === "thinking") {
			const index = this.builder.startThinking(block.signature ? { signature: block.signature } : {});
			if (block.thinking) this.builder.appendThinking(index, block.thinking);
			this.blocks.set(event.index, { index, kind: "thinking" });
		} else if (block.type === "redacted_thinking") {
			const index = this.builder.startThinking({ redacted: true, signature: block.data, text: REDACTED_THINKING_TEXT });
			this.blocks.set(event.index, { index, kind: "thinking" });
		} else if (block.type === "tool_use") {
			if (typeof block.id !== "string" || typeof block.name !== "string")
				malformed("tool_use without id or name", event);
			const index = this.builder.startToolCall(block.id, block.name);
			// Streaming sends `input: {}` and the arguments as deltas; a proxy that sends them whole is honoured.
			if (block.input && typeof block.input === "object" && Object.keys(block.input).length > 0) {
				this.builder.appendToolCallArguments(index, JSON.stringify(block.input));
			}
			this.blocks.set(event.index, { index, kind: "toolCall" });
		}
	}

	private onBlockDelta(event: Anthropic.Messages.RawContentBlockDeltaEvent): void {
		const delta = event.delta;
		if (typeof event.index !== "number" || !delta) malformed("content_block_delta without index or delta", event);
		const block = this.blocks.get(event.index);
		if (!block) return; // a block we skipped (server tools), or citations on one
		switch (delta.type) {
			case "text_delta":
				if (typeof delta.text !== "string") malformed("text_delta without text", event);
				this.builder.appendText(this.expect(block, "text", event), delta.text);
				return;
			case "thinking_delta":
				if (typeof delta.thinking !== "string") malformed("thinking_delta without thinking", event);
				this.builder.appendThinking(this.expect(block, "thinking", event), delta.thinking);
				return;
			case "signature_delta":
				if (typeof delta.signature !== "string") malformed("signature_delta without signature", event);
				this.builder.appendThinkingSignature(this.expect(block, "thinking", event), delta.signature);
				return;
			case "input_json_delta":
				if (typeof delta.partial_json !== "string") malformed("input_json_delta without partial_json", event);
				this.builder.appendToolCallArguments(this.expect(block, "toolCall", event), delta.partial_json);
				return;
			default:
				// citations_delta: the cited text itself arrives as text_delta; citations are not modelled.
				return;
		}
	}

	private expect(block: { index: number; kind: BlockKind }, kind: BlockKind, event: unknown): number {
		if (block.kind !== kind) malformed(`a ${kind} delta on a ${block.kind} block`, event);
		return block.index;
	}

	private onBlockStop(event: Anthropic.Messages.RawContentBlockStopEvent): void {
		const block = this.blocks.get(event.index);
		if (!block) return;
		if (block.kind === "text") this.builder.endText(block.index);
		else if (block.kind === "thinking") this.builder.endThinking(block.index);
		else this.builder.endToolCall(block.index);
	}

	private onMessageDelta(event: Anthropic.Messages.RawMessageDeltaEvent): void {
		if (event.delta?.stop_reason) this.stopReason = event.delta.stop_reason;
		this.builder.updateUsage(usageUpdate(event.usage));
	}

	private onMessageStop(): void {
		this.finished = true;
		const raw = this.stopReason;
		if (raw === undefined) {
			this.builder.fail("error", "Anthropic ended the message without a stop reason");
			return;
		}
		const reason = mapAnthropicStopReason(raw);
		if (reason) this.builder.finish(reason, raw);
		else this.builder.fail("error", `Anthropic stopped the response: ${raw}`, raw);
	}
}

/** Decodes a whole recorded stream (tests, replays): every event in order, then the end of the stream. */
export function decodeAnthropicStreamEvents(
	events: Iterable<AnthropicStreamEvent>,
	builder: AssistantMessageBuilder,
): void {
	const decoder = new AnthropicStreamDecoder(builder);
	for (const event of events) {
		decoder.decode(event);
		if (decoder.isFinished) return;
	}
	decoder.end();
}

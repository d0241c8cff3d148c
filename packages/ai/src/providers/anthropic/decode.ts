import type Anthropic from "@anthropic-ai/sdk";
import type { AssistantMessageBuilder, UsageUpdate } from "../../message/assistant-message-builder.js";
import { describeStreamEvent } from "../../wire/describe-stream-event.js";
import type { StreamDecoder } from "../../wire/stream-decoder.js";
import {
	type AnthropicContentBlockSignature,
	type AnthropicToolCallerSignature,
	encodeContentBlockSignature,
	encodeToolCallerSignature,
} from "./server-blocks.js";
import { mapAnthropicStopReason } from "./stop-reason.js";

export type AnthropicStreamEvent = Anthropic.Messages.RawMessageStreamEvent;
type ApiUsage = Partial<Anthropic.Messages.Usage> | Partial<Anthropic.Messages.MessageDeltaUsage>;

/** Shown as the text of a redacted thinking block; the encrypted data is kept as its signature. */
export const REDACTED_THINKING_TEXT = "[Reasoning redacted]";

type BlockKind = "text" | "thinking" | "toolCall";
/** A block Keel has no kind for (server tool use and results): a text block holding the raw block. */
interface ServerBlock {
	index: number;
	kind: "server";
	raw: AnthropicContentBlockSignature["block"];
	/** `input_json_delta` pieces of a server_tool_use, joined when the block stops. */
	inputJson: string[];
}
type OpenBlock =
	| { index: number; kind: "text" }
	| { index: number; kind: "thinking" }
	| { index: number; kind: "toolCall" }
	| ServerBlock;

/** Thrown for an event that breaks the wire format; the harness turns it into an error event. */
export class AnthropicStreamError extends Error {
	override name = "AnthropicStreamError";
}

function malformed(reason: string, event: unknown): never {
	throw new AnthropicStreamError(`Malformed Anthropic stream event (${reason}): ${describeStreamEvent(event)}`);
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
 * Anthropic numbers content blocks itself (`index`), mapped here to the builder's index. Blocks Keel
 * has no kind for (server tool use, web search results, …) become empty text blocks that keep the
 * raw block in `textSignature` (see server-blocks.ts), so they are seen and replayed.
 *
 * Usage: `input_tokens` already excludes cache reads and writes, so it maps to `input` directly.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export class AnthropicStreamDecoder implements StreamDecoder<AnthropicStreamEvent> {
	private readonly blocks = new Map<number, OpenBlock>();
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
		// With server tools (programmatic tool calling among them) message_start may already hold
		// finished blocks and the stop reason, followed directly by message_stop. The blocks are
		// complete: they are started and ended at once, and take no index later events could name.
		if (Array.isArray(message.content)) {
			for (const block of message.content) {
				if (!block || typeof block !== "object")
					malformed("message_start with a content block that is not an object", event);
				this.endBlock(this.startBlock(block, event));
			}
		}
		if (typeof message.stop_reason === "string") this.stopReason = message.stop_reason;
	}

	private onBlockStart(event: Anthropic.Messages.RawContentBlockStartEvent): void {
		const block = event.content_block;
		if (typeof event.index !== "number" || !block || typeof block !== "object")
			malformed("content_block_start without index or block", event);
		if (this.blocks.has(event.index)) malformed(`block ${event.index} started twice`, event);
		this.blocks.set(event.index, this.startBlock(block, event));
	}

	private startBlock(block: Anthropic.Messages.ContentBlock, event: unknown): OpenBlock {
		if (block.type === "text") {
			const index = this.builder.startText();
			if (block.text) this.builder.appendText(index, block.text);
			return { index, kind: "text" };
		}
		if (block.type === "thinking") {
			const index = this.builder.startThinking(block.signature ? { signature: block.signature } : {});
			if (block.thinking) this.builder.appendThinking(index, block.thinking);
			return { index, kind: "thinking" };
		}
		if (block.type === "redacted_thinking") {
			const index = this.builder.startThinking({ redacted: true, signature: block.data, text: REDACTED_THINKING_TEXT });
			return { index, kind: "thinking" };
		}
		if (block.type === "tool_use") {
			if (typeof block.id !== "string" || typeof block.name !== "string")
				malformed("tool_use without id or name", event);
			// A tool_use made by code execution (programmatic tool calling) names its caller; the API
			// wants it back with the block.
			const caller = block.caller as AnthropicToolCallerSignature["caller"] | undefined;
			const signature =
				caller && typeof caller === "object" && caller.type !== "direct"
					? encodeToolCallerSignature(caller)
					: undefined;
			const index = this.builder.startToolCall(block.id, block.name, signature);
			// Streaming sends `input: {}` and the arguments as deltas; a block that arrives finished
			// (message_start content, programmatic tool calls, proxies) carries them whole.
			if (block.input && typeof block.input === "object" && Object.keys(block.input).length > 0) {
				this.builder.appendToolCallArguments(index, JSON.stringify(block.input));
			}
			return { index, kind: "toolCall" };
		}
		if (typeof block.type !== "string") malformed("content block without a type", event);
		// Server tool use, a server tool's result, MCP blocks, container uploads and block types
		// added later: kept whole so the caller sees them and the next turn sends them back.
		const raw = block as unknown as AnthropicContentBlockSignature["block"];
		const index = this.builder.startText(encodeContentBlockSignature(raw));
		return { index, kind: "server", raw, inputJson: [] };
	}

	private onBlockDelta(event: Anthropic.Messages.RawContentBlockDeltaEvent): void {
		const delta = event.delta;
		if (typeof event.index !== "number" || !delta) malformed("content_block_delta without index or delta", event);
		const block = this.blocks.get(event.index);
		if (!block) return; // a block that was never started: nothing to add it to
		if (block.kind === "server") {
			// server_tool_use streams its input like tool_use; other deltas on these blocks carry nothing Keel keeps.
			if (delta.type === "input_json_delta" && typeof delta.partial_json === "string") {
				block.inputJson.push(delta.partial_json);
			}
			return;
		}
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

	private expect(block: OpenBlock, kind: BlockKind, event: unknown): number {
		if (block.kind !== kind) malformed(`a ${kind} delta on a ${block.kind} block`, event);
		return block.index;
	}

	private onBlockStop(event: Anthropic.Messages.RawContentBlockStopEvent): void {
		const block = this.blocks.get(event.index);
		if (block) this.endBlock(block);
	}

	private endBlock(block: OpenBlock): void {
		if (block.kind === "text") this.builder.endText(block.index);
		else if (block.kind === "thinking") this.builder.endThinking(block.index);
		else if (block.kind === "toolCall") this.builder.endToolCall(block.index);
		else this.builder.endText(block.index, this.finishServerBlock(block));
	}

	/** The block's signature with the input its deltas streamed (joined once, at the end). */
	private finishServerBlock(block: ServerBlock): string | undefined {
		if (block.inputJson.length === 0) return undefined;
		const text = block.inputJson.join("");
		let input: unknown;
		try {
			input = JSON.parse(text);
		} catch (error) {
			this.builder.addDiagnostic(
				"invalid_tool_arguments",
				`Anthropic ${block.raw.type} input is not complete JSON: ${error instanceof Error ? error.message : String(error)}`,
				{ received: text.slice(0, 2000) },
			);
			return undefined;
		}
		return encodeContentBlockSignature({ ...block.raw, input });
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

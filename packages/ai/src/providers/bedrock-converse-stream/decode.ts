import type { AssistantMessageBuilder, UsageUpdate } from "../../message/assistant-message-builder.js";
import { describeStreamEvent } from "../../wire/describe-stream-event.js";
import type { StreamDecoder } from "../../wire/stream-decoder.js";
import { bedrockStreamException, STREAM_EXCEPTION_EVENTS } from "./errors.js";
import { mapBedrockStopReason } from "./stop-reason.js";
import type { ContentBlockDeltaEvent, ContentBlockStartEvent, ConverseStreamEvent, TokenUsage } from "./wire-types.js";

export type BedrockStreamEvent = ConverseStreamEvent;

/** Shown as the text of a redacted reasoning block; the encrypted bytes are kept (base64) as its signature. */
export const REDACTED_REASONING_TEXT = "[Reasoning redacted]";

type OpenBlock = { index: number; kind: "text" | "thinking" | "toolCall" };

/** Thrown for an event that breaks the wire format; the harness turns it into an error event. */
export class BedrockStreamFormatError extends Error {
	override name = "BedrockStreamFormatError";
}

function malformed(reason: string, event: unknown): never {
	throw new BedrockStreamFormatError(`Malformed Bedrock stream event (${reason}): ${describeStreamEvent(event)}`);
}

/** Bytes as base64 with the platform's `btoa` (no Buffer: this module may run in a browser bundle). */
function bytesToBase64(bytes: Uint8Array): string {
	let binary = "";
	for (let index = 0; index < bytes.length; index++) binary += String.fromCharCode(bytes[index]);
	return btoa(binary);
}

function usageUpdate(usage: TokenUsage | undefined): UsageUpdate {
	const update: UsageUpdate = {};
	if (!usage) return update;
	// inputTokens excludes the cached part, which Bedrock reports in its own two fields.
	if (typeof usage.inputTokens === "number") update.input = usage.inputTokens;
	if (typeof usage.outputTokens === "number") update.output = usage.outputTokens;
	if (typeof usage.cacheReadInputTokens === "number") update.cacheRead = usage.cacheReadInputTokens;
	if (typeof usage.cacheWriteInputTokens === "number") update.cacheWrite = usage.cacheWriteInputTokens;
	if (typeof usage.totalTokens === "number") update.totalTokens = usage.totalTokens;
	return update;
}

/**
 * The state machine for one ConverseStream response: the wire's events in, builder calls out.
 * Bedrock sends `messageStop` (the stop reason) before `metadata` (usage), so the message is
 * finished at `metadata`, or at the end of the stream when no metadata follows the stop.
 * Text and reasoning blocks have no `contentBlockStart`: their first delta opens them.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamOutput.html
 */
export class BedrockStreamDecoder implements StreamDecoder<BedrockStreamEvent> {
	private readonly blocks = new Map<number, OpenBlock>();
	private stopReason: string | undefined;
	private finished = false;

	constructor(private readonly builder: AssistantMessageBuilder) {}

	get isFinished(): boolean {
		return this.finished;
	}

	end(): void {
		if (this.finished) return;
		if (this.stopReason !== undefined) {
			this.finishWithStopReason(this.stopReason);
			return;
		}
		this.finished = true;
		this.builder.fail("error", "The Bedrock stream ended before the response was finished (no messageStop event)");
	}

	decode(event: BedrockStreamEvent): void {
		if (!event || typeof event !== "object") malformed("not an object", event);
		if (event.contentBlockDelta) this.onBlockDelta(event.contentBlockDelta, event);
		else if (event.contentBlockStart) this.onBlockStart(event.contentBlockStart, event);
		else if (event.contentBlockStop) this.onBlockStop(event.contentBlockStop.contentBlockIndex);
		else if (event.messageStop) this.onMessageStop(event.messageStop.stopReason, event);
		else if (event.metadata) this.onMetadata(event.metadata.usage);
		else {
			for (const name of STREAM_EXCEPTION_EVENTS) {
				const exception = (event as unknown as Record<string, unknown>)[name];
				if (exception) throw bedrockStreamException(name, exception);
			}
			// messageStart carries only the role; members added later are skipped.
		}
	}

	private onBlockStart(start: ContentBlockStartEvent, event: unknown): void {
		const index = start.contentBlockIndex;
		if (typeof index !== "number") malformed("contentBlockStart without contentBlockIndex", event);
		const toolUse = start.start?.toolUse;
		if (!toolUse) return; // image and tool-result starts belong to server-side tools Keel does not call
		if (typeof toolUse.toolUseId !== "string" || typeof toolUse.name !== "string")
			malformed("toolUse start without toolUseId or name", event);
		if (this.blocks.has(index)) malformed(`block ${index} started twice`, event);
		this.blocks.set(index, { index: this.builder.startToolCall(toolUse.toolUseId, toolUse.name), kind: "toolCall" });
	}

	private onBlockDelta(delta: ContentBlockDeltaEvent, event: unknown): void {
		const index = delta.contentBlockIndex;
		if (typeof index !== "number" || !delta.delta) malformed("contentBlockDelta without index or delta", event);
		const body = delta.delta;
		if (typeof body.text === "string") {
			this.builder.appendText(this.openBlock(index, "text", event), body.text);
		} else if (body.toolUse) {
			const block = this.blocks.get(index);
			if (block?.kind !== "toolCall") malformed("a toolUse delta without a toolUse start", event);
			if (typeof body.toolUse.input === "string") this.builder.appendToolCallArguments(block.index, body.toolUse.input);
		} else if (body.reasoningContent) {
			const reasoning = body.reasoningContent;
			if (typeof reasoning.text === "string") {
				this.builder.appendThinking(this.openBlock(index, "thinking", event), reasoning.text);
			} else if (typeof reasoning.signature === "string") {
				this.builder.appendThinkingSignature(this.openBlock(index, "thinking", event), reasoning.signature);
			} else if (reasoning.redactedContent instanceof Uint8Array || typeof reasoning.redactedContent === "string") {
				if (this.blocks.has(index)) malformed("redactedContent on an open block", event);
				// The wire carries the bytes as base64, kept as it is; bytes (from a caller feeding parsed events) are encoded.
				const redacted: unknown = reasoning.redactedContent;
				const builderIndex = this.builder.startThinking({
					redacted: true,
					signature: typeof redacted === "string" ? redacted : bytesToBase64(redacted as Uint8Array),
					text: REDACTED_REASONING_TEXT,
				});
				this.blocks.set(index, { index: builderIndex, kind: "thinking" });
			}
		}
		// Citations and server-side tool output are not modelled; the cited text arrives as text.
	}

	/** The block at this index, opened by its first delta; a delta of another kind breaks the format. */
	private openBlock(index: number, kind: "text" | "thinking", event: unknown): number {
		const open = this.blocks.get(index);
		if (open) {
			if (open.kind !== kind) malformed(`a ${kind} delta on a ${open.kind} block`, event);
			return open.index;
		}
		const builderIndex = kind === "text" ? this.builder.startText() : this.builder.startThinking();
		this.blocks.set(index, { index: builderIndex, kind });
		return builderIndex;
	}

	private onBlockStop(index: number | undefined): void {
		if (typeof index !== "number") return;
		const block = this.blocks.get(index);
		if (!block) return;
		this.blocks.delete(index);
		if (block.kind === "text") this.builder.endText(block.index);
		else if (block.kind === "thinking") this.builder.endThinking(block.index);
		else this.builder.endToolCall(block.index);
	}

	private onMessageStop(stopReason: string | undefined, event: unknown): void {
		if (typeof stopReason !== "string") malformed("messageStop without stopReason", event);
		for (const index of [...this.blocks.keys()]) this.onBlockStop(index);
		this.stopReason = stopReason;
	}

	private onMetadata(usage: TokenUsage | undefined): void {
		this.builder.updateUsage(usageUpdate(usage));
		if (this.stopReason !== undefined) this.finishWithStopReason(this.stopReason);
	}

	private finishWithStopReason(raw: string): void {
		this.finished = true;
		const reason = mapBedrockStopReason(raw);
		if (reason) this.builder.finish(reason, raw);
		else this.builder.fail("error", `Bedrock stopped the response: ${raw}`, raw);
	}
}

/** Decodes a whole recorded stream (tests, replays): every event in order, then the end of the stream. */
export function decodeBedrockStreamEvents(
	events: Iterable<BedrockStreamEvent>,
	builder: AssistantMessageBuilder,
): void {
	const decoder = new BedrockStreamDecoder(builder);
	for (const event of events) {
		decoder.decode(event);
		if (decoder.isFinished) return;
	}
	decoder.end();
}

import type { AssistantMessageBuilder, UsageUpdate } from "../../message/assistant-message-builder.js";
import { hashToAlphanumeric } from "../../message/tool-call-ids.js";
import type { StopReason } from "../../types.js";
import type { StreamDecoder } from "../../wire/stream-decoder.js";
import type { MistralChunkWire, MistralDeltaWire, MistralToolCallDeltaWire, MistralUsageWire } from "./wire-types.js";

export type MappedMistralStopReason =
	| { kind: "done"; reason: Extract<StopReason, "stop" | "length" | "toolUse"> }
	| { kind: "failed"; message: string };

/**
 * Maps Mistral's `finish_reason`: stop, length, model_length (the model's context is full),
 * tool_calls; `error` and any reason Mistral has not documented end as an error that keeps the
 * content and the raw reason.
 * @see https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post
 */
export function mapMistralStopReason(reason: string): MappedMistralStopReason {
	switch (reason) {
		case "stop":
			return { kind: "done", reason: "stop" };
		case "length":
		case "model_length":
			return { kind: "done", reason: "length" };
		case "tool_calls":
			return { kind: "done", reason: "toolUse" };
		case "error":
			return { kind: "failed", message: "Mistral ended the response with an error (finish_reason: error)" };
		default:
			return { kind: "failed", message: `Mistral stopped the response for an unknown reason: ${reason}` };
	}
}

/**
 * Our usage from Mistral's: `input` is the prompt without the tokens read from the prompt cache
 * (`prompt_tokens_details.cached_tokens`, or `num_cached_tokens`), `output` the completion,
 * reasoning included. A field left out counts 0.
 */
export function mapMistralUsage(usage: MistralUsageWire): UsageUpdate {
	const cacheRead = count(usage.prompt_tokens_details?.cached_tokens ?? usage.num_cached_tokens);
	const input = Math.max(0, count(usage.prompt_tokens) - cacheRead);
	const output = count(usage.completion_tokens);
	return { input, output, cacheRead, cacheWrite: 0, totalTokens: input + output + cacheRead };
}

function count(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

type OpenBlock = { kind: "text"; index: number } | { kind: "thinking"; index: number };

/**
 * The Mistral stream decoder. A delta's `content` is a string of text, or an array of chunks:
 * `text`, and `thinking` (reasoning models) whose inner text chunks are the reasoning. Tool calls
 * usually come whole in one delta. The message ends at `end()` (`data: [DONE]` or the end of the
 * body), from the last finish reason seen: usage may come in the chunk after it.
 */
export class MistralStreamDecoder implements StreamDecoder<MistralChunkWire> {
	private current: OpenBlock | undefined;
	/** Tool-call stream index → builder block index of the call received at that index. */
	private readonly toolCalls = new Map<number, number>();
	private finishReason: string | undefined;
	private chunksSeen = 0;
	private ended = false;

	constructor(private readonly builder: AssistantMessageBuilder) {}

	get isFinished(): boolean {
		return this.ended;
	}

	decode(chunk: MistralChunkWire): void {
		if (!chunk || typeof chunk !== "object" || Array.isArray(chunk)) {
			throw new Error(`Malformed Mistral stream chunk: ${JSON.stringify(chunk)?.slice(0, 200)}`);
		}
		this.chunksSeen++;
		this.builder.setResponseIdentity({ responseId: chunk.id, responseModel: chunk.model });
		if (chunk.usage) this.builder.updateUsage(mapMistralUsage(chunk.usage));
		const choice = chunk.choices?.[0];
		if (!choice) return;
		if (choice.delta) this.decodeDelta(choice.delta);
		if (choice.finish_reason) this.finishReason = choice.finish_reason;
	}

	end(): void {
		if (this.ended) return;
		this.ended = true;
		if (this.chunksSeen === 0) {
			this.builder.fail(
				"error",
				'The Mistral response held no stream events (expected "data:" lines of chat.completion.chunk JSON)',
			);
			return;
		}
		const reason = this.finishReason;
		if (reason === undefined) {
			this.builder.fail("error", "The Mistral stream ended without a finish_reason (the response is incomplete)");
			return;
		}
		const mapped = mapMistralStopReason(reason);
		if (mapped.kind === "done") this.builder.finish(mapped.reason, reason);
		else this.builder.fail("error", mapped.message, reason);
	}

	private decodeDelta(delta: MistralDeltaWire): void {
		const content = delta.content;
		if (typeof content === "string") {
			if (content !== "") this.appendText(content);
		} else if (Array.isArray(content)) {
			for (const chunk of content) {
				if (chunk?.type === "text" && typeof chunk.text === "string" && chunk.text !== "") this.appendText(chunk.text);
				else if (chunk?.type === "thinking" && Array.isArray(chunk.thinking)) {
					for (const part of chunk.thinking) {
						if (part?.type === "text" && typeof part.text === "string" && part.text !== "")
							this.appendThinking(part.text);
					}
				}
				// Other chunk types (references, images) carry nothing Keel's message holds.
			}
		}
		const toolCalls = delta.tool_calls ?? [];
		for (let position = 0; position < toolCalls.length; position++) {
			this.decodeToolCallDelta(toolCalls[position], position);
		}
	}

	private appendText(text: string): void {
		if (this.current?.kind !== "text") {
			this.closeCurrent();
			this.current = { kind: "text", index: this.builder.startText() };
		}
		this.builder.appendText(this.current.index, text);
	}

	private appendThinking(text: string): void {
		if (this.current?.kind !== "thinking") {
			this.closeCurrent();
			this.current = { kind: "thinking", index: this.builder.startThinking() };
		}
		this.builder.appendThinking(this.current.index, text);
	}

	private closeCurrent(): void {
		if (!this.current) return;
		if (this.current.kind === "text") this.builder.endText(this.current.index);
		else this.builder.endThinking(this.current.index);
		this.current = undefined;
	}

	/**
	 * Calls are keyed by their `index` (their position in the delta when there is none); a
	 * different id at a known index starts a new call. A call without a usable id gets one of
	 * Mistral's form, derived from the response id and its index, so its result can be paired.
	 */
	private decodeToolCallDelta(call: MistralToolCallDeltaWire, position: number): void {
		this.closeCurrent();
		const streamIndex = typeof call.index === "number" ? call.index : position;
		const id = typeof call.id === "string" && call.id !== "" && call.id !== "null" ? call.id : undefined;
		let blockIndex = this.toolCalls.get(streamIndex);
		if (blockIndex !== undefined && id !== undefined && this.builder.toolCall(blockIndex).id !== id) {
			this.builder.endToolCall(blockIndex);
			this.toolCalls.delete(streamIndex);
			blockIndex = undefined;
		}
		if (blockIndex === undefined) {
			const callId = id ?? this.derivedToolCallId(streamIndex);
			blockIndex = this.builder.startToolCall(callId, call.function?.name ?? "");
			this.toolCalls.set(streamIndex, blockIndex);
		} else if (call.function?.name && !this.builder.toolCall(blockIndex).name) {
			this.builder.toolCall(blockIndex).name = call.function.name;
		}
		const argumentsDelta = call.function?.arguments;
		if (typeof argumentsDelta === "string") {
			if (argumentsDelta !== "") this.builder.appendToolCallArguments(blockIndex, argumentsDelta);
		} else if (argumentsDelta && typeof argumentsDelta === "object") {
			this.builder.appendToolCallArguments(blockIndex, JSON.stringify(argumentsDelta));
		}
	}

	private derivedToolCallId(streamIndex: number): string {
		const seed = `${this.builder.message.responseId ?? "mistral"}#${streamIndex}#${this.builder.message.content.length}`;
		return hashToAlphanumeric(seed, 9);
	}
}

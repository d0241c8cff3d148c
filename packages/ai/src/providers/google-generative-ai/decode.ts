// The state machine for one streamed Gemini answer (streamGenerateContent with alt=sse): each
// chunk is a GenerateContentResponse whose first candidate holds the new parts. Text and thought
// parts are deltas; a function call arrives whole, or on Vertex AI with `streamFunctionCallArguments`
// in pieces (partial-arguments.ts). The stream has no terminal event of its own: the last chunk
// carries `finishReason` and the final usage.
// @see https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse

import type { AssistantMessageBuilder, UsageUpdate } from "../../message/assistant-message-builder.js";
import { DEFAULT_MAX_JSON_DEPTH } from "../../utils/streaming-json.js";
import { describeStreamEvent } from "../../wire/describe-stream-event.js";
import type { StreamDecoder } from "../../wire/stream-decoder.js";
import { PartialArgumentsWriter } from "./partial-arguments.js";
import { mapGeminiFinishReason } from "./stop-reason.js";
import type { GeminiPart, GeminiResponseChunk, GeminiUsageMetadata } from "./wire-types.js";

export interface GeminiDecoderOptions {
	/** Names the provider in messages: "Gemini", "Vertex AI". */
	label: string;
	/**
	 * Starts the ids made for function calls that come without one (most Gemini models send none):
	 * `<prefix>_<n>`. The transport makes it unique per attempt, so ids stay unique in a conversation.
	 */
	toolCallIdPrefix: string;
}

interface OpenBlock {
	kind: "text" | "thinking";
	index: number;
	/** The last signature seen in the block: the one to send back. */
	signature?: string;
}

/**
 * Gemini counts cached tokens inside `promptTokenCount` and thinking beside the answer; Keel's
 * `input` excludes the cache and `output` holds everything generated. Tool-use prompt tokens
 * (code execution, search) are input.
 */
export function geminiUsage(usage: GeminiUsageMetadata): UsageUpdate {
	const cached = usage.cachedContentTokenCount ?? 0;
	const prompt = (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0);
	const update: UsageUpdate = {
		input: Math.max(0, prompt - cached),
		output: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
		cacheRead: cached,
	};
	if (typeof usage.totalTokenCount === "number") update.totalTokens = usage.totalTokenCount;
	return update;
}

/** How deep objects and arrays nest, counted without recursion (arguments may nest absurdly deep). */
function nestingDepth(value: unknown, limit: number): number {
	let deepest = 0;
	const stack: [unknown, number][] = [[value, 1]];
	while (stack.length > 0) {
		const [current, depth] = stack.pop()!;
		if (typeof current !== "object" || current === null) continue;
		deepest = Math.max(deepest, depth);
		if (deepest > limit) return deepest;
		for (const child of Object.values(current)) stack.push([child, depth + 1]);
	}
	return deepest;
}

/** A function call whose arguments are still streaming. */
interface StreamingCall {
	index: number;
	writer: PartialArgumentsWriter;
	signature?: string;
}

export class GeminiStreamDecoder implements StreamDecoder<GeminiResponseChunk> {
	private open: OpenBlock | undefined;
	private streamingCall: StreamingCall | undefined;
	private finished = false;
	private identified = false;
	private generatedIds = 0;
	private readonly toolCallIds = new Set<string>();

	constructor(
		private readonly builder: AssistantMessageBuilder,
		private readonly options: GeminiDecoderOptions,
	) {}

	get isFinished(): boolean {
		return this.finished;
	}

	decode(chunk: GeminiResponseChunk): void {
		if (!chunk || typeof chunk !== "object" || Array.isArray(chunk)) {
			throw new Error(`Malformed ${this.options.label} stream chunk (not an object): ${describeStreamEvent(chunk)}`);
		}
		// Every chunk repeats the id and model version: read them once, not per delta.
		if (!this.identified && typeof chunk.responseId === "string") {
			this.identified = true;
			this.builder.setResponseIdentity({ responseId: chunk.responseId, responseModel: chunk.modelVersion });
		}
		if (chunk.usageMetadata && typeof chunk.usageMetadata === "object") {
			this.builder.updateUsage(geminiUsage(chunk.usageMetadata));
		}
		const blockReason = chunk.promptFeedback?.blockReason;
		if (typeof blockReason === "string" && !chunk.candidates?.length) {
			this.finished = true;
			this.closeOpenBlock();
			const detail = chunk.promptFeedback?.blockReasonMessage ? `: ${chunk.promptFeedback.blockReasonMessage}` : "";
			this.builder.fail("error", `${this.options.label} blocked the prompt (${blockReason})${detail}`, blockReason);
			return;
		}
		const candidate = chunk.candidates?.[0];
		if (!candidate) return;
		const parts = candidate.content?.parts;
		if (parts !== undefined && !Array.isArray(parts)) {
			throw new Error(
				`Malformed ${this.options.label} stream chunk (parts is not a list): ${describeStreamEvent(chunk)}`,
			);
		}
		for (const part of parts ?? []) this.decodePart(part, chunk);
		// The chunk that carries finishReason is the last one (it also holds the final usage).
		if (typeof candidate.finishReason === "string") this.finish(candidate.finishReason, candidate.finishMessage);
	}

	end(): void {
		if (this.finished) return;
		this.finished = true;
		this.closeOpenBlock();
		this.builder.fail(
			"error",
			`The ${this.options.label} stream ended before the response was finished (no finishReason)`,
		);
	}

	private finish(raw: string, finishMessage: unknown): void {
		this.finished = true;
		this.closeOpenBlock();
		const reason = mapGeminiFinishReason(raw);
		if (reason) {
			this.builder.finish(reason, raw);
			return;
		}
		const detail = typeof finishMessage === "string" && finishMessage ? `: ${finishMessage}` : "";
		this.builder.fail("error", `${this.options.label} stopped the response (${raw})${detail}`, raw);
	}

	private decodePart(part: GeminiPart, chunk: GeminiResponseChunk): void {
		if (!part || typeof part !== "object") {
			throw new Error(
				`Malformed ${this.options.label} stream chunk (a part is not an object): ${describeStreamEvent(chunk)}`,
			);
		}
		const signature =
			typeof part.thoughtSignature === "string" && part.thoughtSignature ? part.thoughtSignature : undefined;
		if (part.functionCall) {
			const call = part.functionCall;
			// A streamed call continues in parts without a name (Vertex AI's streamFunctionCallArguments).
			if (this.streamingCall && typeof call === "object" && call !== null && call.name === undefined) {
				this.continueStreamingCall(this.streamingCall, part, signature, chunk);
				return;
			}
			this.closeOpenBlock();
			this.decodeFunctionCall(part, signature, chunk);
			return;
		}
		if (typeof part.text !== "string") return; // inline images, executable code: not modelled
		const kind = part.thought === true ? "thinking" : "text";
		// A signature may come on an empty part that ends the block it belongs to.
		if (part.text === "" && signature === undefined) return;
		let block = this.open;
		if (!block || block.kind !== kind) {
			this.closeOpenBlock();
			const index = kind === "thinking" ? this.builder.startThinking() : this.builder.startText();
			block = { kind, index };
			this.open = block;
		}
		if (signature) block.signature = signature;
		if (part.text === "") return;
		if (kind === "thinking") this.builder.appendThinking(block.index, part.text);
		else this.builder.appendText(block.index, part.text);
	}

	private decodeFunctionCall(part: GeminiPart, signature: string | undefined, chunk: GeminiResponseChunk): void {
		const call = part.functionCall!;
		if (typeof call !== "object" || typeof call.name !== "string") {
			throw new Error(
				`Malformed ${this.options.label} stream chunk (a functionCall without a name): ${describeStreamEvent(chunk)}`,
			);
		}
		let id = typeof call.id === "string" && call.id !== "" ? call.id : undefined;
		if (id === undefined || this.toolCallIds.has(id)) {
			id = `${this.options.toolCallIdPrefix}_${++this.generatedIds}`;
		}
		this.toolCallIds.add(id);
		const index = this.builder.startToolCall(id, call.name, signature);
		if (call.willContinue === true || Array.isArray(call.partialArgs)) {
			// The first part of a call whose arguments stream: the name now, the arguments in later parts.
			const streaming: StreamingCall = { index, writer: new PartialArgumentsWriter(), signature };
			this.streamingCall = streaming;
			this.continueStreamingCall(streaming, part, undefined, chunk);
			return;
		}
		const args = call.args ?? {};
		if (nestingDepth(args, DEFAULT_MAX_JSON_DEPTH) > DEFAULT_MAX_JSON_DEPTH) {
			// Too deep to write out again; the builder's parser sees the nesting and drops them with a diagnostic.
			this.builder.appendToolCallArguments(index, "[".repeat(DEFAULT_MAX_JSON_DEPTH + 1));
		} else {
			this.builder.appendToolCallArguments(index, JSON.stringify(args));
		}
		this.builder.endToolCall(index);
	}

	/** Writes a part's partialArgs as argument deltas; the call ends with the part that does not continue. */
	private continueStreamingCall(
		streaming: StreamingCall,
		part: GeminiPart,
		signature: string | undefined,
		chunk: GeminiResponseChunk,
	): void {
		const call = part.functionCall!;
		if (signature) streaming.signature = signature;
		const pieces = call.partialArgs ?? [];
		if (!Array.isArray(pieces)) {
			throw new Error(
				`Malformed ${this.options.label} stream chunk (partialArgs is not a list): ${describeStreamEvent(chunk)}`,
			);
		}
		let text = "";
		for (const piece of pieces) {
			try {
				text += streaming.writer.write(piece);
			} catch (error) {
				const reason = error instanceof Error ? error.message : String(error);
				throw new Error(`Malformed ${this.options.label} stream chunk (${reason}): ${describeStreamEvent(chunk)}`);
			}
		}
		if (text !== "") this.builder.appendToolCallArguments(streaming.index, text);
		if (call.willContinue !== true) this.endStreamingCall();
	}

	private endStreamingCall(): void {
		const streaming = this.streamingCall;
		if (!streaming) return;
		this.streamingCall = undefined;
		this.builder.appendToolCallArguments(streaming.index, streaming.writer.finish());
		this.builder.endToolCall(
			streaming.index,
			streaming.signature !== undefined ? { thoughtSignature: streaming.signature } : undefined,
		);
	}

	private closeOpenBlock(): void {
		this.endStreamingCall();
		const block = this.open;
		if (!block) return;
		this.open = undefined;
		if (block.kind === "thinking") this.builder.endThinking(block.index, block.signature);
		else this.builder.endText(block.index, block.signature);
	}
}

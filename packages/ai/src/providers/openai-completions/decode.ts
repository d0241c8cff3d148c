import type { AssistantMessageBuilder, UsageUpdate } from "../../message/assistant-message-builder.js";
import type { OpenAICompletionsUsageCounting, StopReason } from "../../types.js";
import type { StreamDecoder } from "../../wire/stream-decoder.js";
import { OPENAI_USAGE_COUNTING, REASONING_FIELDS, type ReasoningField } from "./wire-types.js";

// The chunk shapes as vendors send them: OpenAI's documented fields plus the extensions other
// servers add (reasoning fields, OpenRouter reasoning_details, Moonshot's per-choice usage,
// DeepSeek's cache counters). Everything is optional because vendors leave fields out.

export interface ChatCompletionUsageWire {
	prompt_tokens?: number;
	completion_tokens?: number;
	total_tokens?: number;
	/** OpenRouter adds `cache_write_tokens`, a part of `prompt_tokens`. */
	prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number; audio_tokens?: number } | null;
	completion_tokens_details?: { reasoning_tokens?: number; audio_tokens?: number } | null;
	/** DeepSeek reports cache hits here instead of prompt_tokens_details. */
	prompt_cache_hit_tokens?: number;
	/** Moonshot (Kimi) reports cache hits at the top level. */
	cached_tokens?: number;
	/** Mistral's own cache-hit counter, beside prompt_tokens_details.cached_tokens. */
	num_cached_tokens?: number;
}

export interface ChatCompletionToolCallDeltaWire {
	index?: number;
	id?: string | null;
	type?: string;
	function?: { name?: string | null; arguments?: string | null };
}

export interface ReasoningDetailWire {
	type?: string;
	id?: string | null;
	data?: string;
	[key: string]: unknown;
}

export interface ChatCompletionDeltaWire {
	role?: string | null;
	content?: string | null;
	refusal?: string | null;
	reasoning_content?: string | null;
	reasoning?: string | null;
	reasoning_text?: string | null;
	reasoning_details?: ReasoningDetailWire[] | null;
	tool_calls?: ChatCompletionToolCallDeltaWire[] | null;
}

export interface ChatCompletionChoiceWire {
	index?: number;
	delta?: ChatCompletionDeltaWire | null;
	finish_reason?: string | null;
	/** Moonshot puts usage on the choice of the last chunk. */
	usage?: ChatCompletionUsageWire | null;
}

export interface ChatCompletionChunkWire {
	id?: string;
	model?: string;
	object?: string;
	choices?: ChatCompletionChoiceWire[] | null;
	usage?: ChatCompletionUsageWire | null;
	service_tier?: string | null;
	/** Groq's own block, which carried usage before Groq supported `stream_options`. */
	x_groq?: { usage?: ChatCompletionUsageWire | null } | null;
}

export type MappedStopReason =
	| { kind: "done"; reason: Extract<StopReason, "stop" | "length" | "toolUse"> }
	| { kind: "failed"; message: string };

/**
 * Maps a Chat Completions `finish_reason`. Reasons that mean the vendor stopped the answer on
 * purpose (content_filter, z.ai's sensitive / network_error / abort) and reasons no vendor has
 * documented become an error that keeps the content and the raw reason; nothing throws.
 */
export function mapOpenAICompletionsStopReason(reason: string, vendor: string): MappedStopReason {
	switch (reason) {
		case "stop":
		case "end":
		case "eos":
		case "end_turn":
			return { kind: "done", reason: "stop" };
		case "length":
		case "max_tokens":
			return { kind: "done", reason: "length" };
		case "tool_calls":
		case "function_call":
		case "tool_use":
			return { kind: "done", reason: "toolUse" };
		default:
			return { kind: "failed", message: `${vendor} stopped the response: ${reason}` };
	}
}

/** Each place a vendor reports cache hits, read in this order after the vendor's own. */
const CACHED_TOKEN_READERS: Record<
	OpenAICompletionsUsageCounting["cachedTokensField"],
	(usage: ChatCompletionUsageWire) => number | undefined
> = {
	"prompt_tokens_details.cached_tokens": (usage) => usage.prompt_tokens_details?.cached_tokens,
	prompt_cache_hit_tokens: (usage) => usage.prompt_cache_hit_tokens,
	cached_tokens: (usage) => usage.cached_tokens,
	num_cached_tokens: (usage) => usage.num_cached_tokens,
};

/**
 * Our usage from Chat Completions usage, counted as the vendor counts (`counting`, from compat):
 * `input` is the prompt without cache reads and writes, `output` everything generated, reasoning
 * included (added to `completion_tokens` where the vendor counts it beside them, as xAI does),
 * and the total their sum. A field the server leaves out counts 0.
 */
export function mapOpenAICompletionsUsage(
	usage: ChatCompletionUsageWire,
	counting: OpenAICompletionsUsageCounting = OPENAI_USAGE_COUNTING,
): UsageUpdate {
	const cacheRead = count(readCachedTokens(usage, counting.cachedTokensField));
	const cacheWrite = count(usage.prompt_tokens_details?.cache_write_tokens);
	let prompt = count(usage.prompt_tokens);
	let output = count(usage.completion_tokens);
	if (!reasoningCountedInCompletion(usage, counting))
		output += count(usage.completion_tokens_details?.reasoning_tokens);
	if (!counting.audioInPromptAndCompletionTokens) {
		prompt += count(usage.prompt_tokens_details?.audio_tokens);
		output += count(usage.completion_tokens_details?.audio_tokens);
	}
	const input = Math.max(0, prompt - cacheRead - cacheWrite);
	return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite };
}

/**
 * Whether `completion_tokens` already holds the reasoning tokens. `total_tokens` settles it when
 * reasoning was reported: xAI's convention (reasoning beside the completion, inside the total)
 * reaches Keel through gateways and proxies under other provider ids and hosts, so the numbers
 * win over the vendor detected from the provider id; without a telling total, the vendor's rule.
 * @see https://docs.x.ai/docs/key-information/consumption-and-rate-limits
 */
function reasoningCountedInCompletion(
	usage: ChatCompletionUsageWire,
	counting: OpenAICompletionsUsageCounting,
): boolean {
	const reasoning = count(usage.completion_tokens_details?.reasoning_tokens);
	const total = usage.total_tokens;
	if (reasoning > 0 && typeof total === "number") {
		const promptAndCompletion = count(usage.prompt_tokens) + count(usage.completion_tokens);
		if (total === promptAndCompletion + reasoning) return false;
		if (total === promptAndCompletion) return true;
	}
	return counting.reasoningInCompletionTokens;
}

function readCachedTokens(
	usage: ChatCompletionUsageWire,
	field: OpenAICompletionsUsageCounting["cachedTokensField"],
): number | undefined {
	const own = CACHED_TOKEN_READERS[field]?.(usage);
	if (typeof own === "number") return own;
	for (const read of Object.values(CACHED_TOKEN_READERS)) {
		const value = read(usage);
		if (typeof value === "number") return value;
	}
	return undefined;
}

/** A token count as sent; anything that is not a count ≥ 0 (null, a string) counts 0. */
function count(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

type OpenBlock = { kind: "text"; index: number } | { kind: "thinking"; index: number; field: ReasoningField };

/**
 * The Chat Completions stream decoder: feed it every chunk, then call `end()` when the stream is
 * over (`data: [DONE]` or the end of the body): a usage chunk may follow the finish reason, so the
 * message only ends there. Pure: it only calls the builder. A chunk that is not a chunk throws,
 * which the provider harness turns into an error event.
 * @see https://platform.openai.com/docs/api-reference/chat-streaming
 */
export class OpenAICompletionsStreamDecoder implements StreamDecoder<ChatCompletionChunkWire> {
	private current: OpenBlock | undefined;
	/** Tool-call stream index → builder block index of the call being received at that index. */
	private readonly toolCalls = new Map<number, number>();
	/** OpenRouter encrypted reasoning by tool-call id; attached when the call ends. */
	private readonly encryptedReasoning = new Map<string, string>();
	private finishReason: string | undefined;
	private chunksSeen = 0;
	private ended = false;

	constructor(
		private readonly builder: AssistantMessageBuilder,
		/** Named in error messages ("zai stopped the response: sensitive"). */
		private readonly vendor: string,
		/** How the vendor counts its usage (compat `usageCounting`). */
		private readonly usageCounting: OpenAICompletionsUsageCounting = OPENAI_USAGE_COUNTING,
	) {}

	/** True once `end()` ended the message. */
	get isFinished(): boolean {
		return this.ended;
	}

	decode(chunk: ChatCompletionChunkWire): void {
		if (!chunk || typeof chunk !== "object" || Array.isArray(chunk)) {
			throw new Error(`Malformed Chat Completions stream chunk: ${JSON.stringify(chunk)?.slice(0, 200)}`);
		}
		this.chunksSeen++;
		this.builder.setResponseIdentity({ responseId: chunk.id, responseModel: chunk.model });
		if (chunk.service_tier) this.builder.setServiceTier(chunk.service_tier);
		const usage = chunk.usage ?? chunk.x_groq?.usage;
		if (usage) this.builder.updateUsage(mapOpenAICompletionsUsage(usage, this.usageCounting));
		const choice = chunk.choices?.[0];
		if (!choice) return;
		if (!usage && choice.usage) this.builder.updateUsage(mapOpenAICompletionsUsage(choice.usage, this.usageCounting));
		const delta = choice.delta;
		if (delta) this.decodeDelta(delta);
		if (choice.finish_reason) this.finishReason = choice.finish_reason;
	}

	/** Ends the message from the last finish reason seen. */
	end(): void {
		if (this.ended) return;
		this.ended = true;
		for (const [id, signature] of this.encryptedReasoning) this.attachEncryptedReasoning(id, signature);
		this.nameUnnamedToolCalls();
		const reason = this.finishReason;
		if (this.chunksSeen === 0) {
			this.builder.fail(
				"error",
				`The ${this.vendor} response held no stream events (expected "data:" lines of chat.completion.chunk JSON)`,
			);
			return;
		}
		if (reason === undefined) {
			this.builder.fail(
				"error",
				`The ${this.vendor} stream ended without a finish_reason (the response is incomplete)`,
			);
			return;
		}
		const mapped = mapOpenAICompletionsStopReason(reason, this.vendor);
		if (mapped.kind === "done") this.builder.finish(mapped.reason, reason);
		else this.builder.fail("error", mapped.message, reason);
	}

	private decodeDelta(delta: ChatCompletionDeltaWire): void {
		const reasoningField = REASONING_FIELDS.find((field) => typeof delta[field] === "string" && delta[field] !== "");
		if (reasoningField) this.appendThinking(reasoningField, delta[reasoningField] as string);
		if (typeof delta.content === "string" && delta.content !== "") this.appendText(delta.content);
		// A refusal is the model's answer in another field; kept as text so it is not lost.
		if (typeof delta.refusal === "string" && delta.refusal !== "") this.appendText(delta.refusal);
		// Without an `index` (older Ollama), a call's position in the delta stands in for it.
		const toolCalls = delta.tool_calls ?? [];
		for (let position = 0; position < toolCalls.length; position++) {
			this.decodeToolCallDelta(toolCalls[position], position);
		}
		if (delta.reasoning_details) this.collectEncryptedReasoning(delta.reasoning_details);
	}

	private appendText(text: string): void {
		if (this.current?.kind !== "text") {
			this.closeCurrent();
			this.current = { kind: "text", index: this.builder.startText() };
		}
		this.builder.appendText(this.current.index, text);
	}

	private appendThinking(field: ReasoningField, text: string): void {
		if (this.current?.kind !== "thinking" || this.current.field !== field) {
			this.closeCurrent();
			// The field name is the signature: replay sends the reasoning back under the same field.
			this.current = { kind: "thinking", index: this.builder.startThinking({ signature: field }), field };
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
	 * Tool calls are keyed by their stream `index`. Some vendors send every call at index 0 (or no
	 * index); a different non-empty id at a known index then starts a new call.
	 */
	private decodeToolCallDelta(call: ChatCompletionToolCallDeltaWire, position: number): void {
		this.closeCurrent();
		const streamIndex = typeof call.index === "number" ? call.index : position;
		let blockIndex = this.toolCalls.get(streamIndex);
		const id = call.id ?? "";
		if (blockIndex !== undefined && id !== "" && this.builder.toolCall(blockIndex).id !== id) {
			this.builder.endToolCall(blockIndex);
			blockIndex = undefined;
		}
		if (blockIndex === undefined) {
			blockIndex = this.builder.startToolCall(id, call.function?.name ?? "");
			this.toolCalls.set(streamIndex, blockIndex);
		} else if (call.function?.name && !this.builder.toolCall(blockIndex).name) {
			this.builder.toolCall(blockIndex).name = call.function.name;
		}
		const argumentsDelta = call.function?.arguments;
		if (typeof argumentsDelta === "string" && argumentsDelta !== "") {
			this.builder.appendToolCallArguments(blockIndex, argumentsDelta);
		}
	}

	private collectEncryptedReasoning(details: ReasoningDetailWire[]): void {
		for (const detail of details) {
			if (detail?.type === "reasoning.encrypted" && typeof detail.id === "string" && detail.id) {
				this.encryptedReasoning.set(detail.id, JSON.stringify(detail));
			}
		}
	}

	/**
	 * Some servers (llama.cpp builds, small proxies) send tool calls without an id; the result
	 * must still be paired with its call on the next request, so each gets one.
	 */
	private nameUnnamedToolCalls(): void {
		const prefix = this.builder.message.responseId ?? "call";
		this.builder.message.content.forEach((block, index) => {
			if (block.type === "toolCall" && !block.id) block.id = `${prefix}_${index}`;
		});
	}

	private attachEncryptedReasoning(id: string, signature: string): void {
		for (const block of this.builder.message.content) {
			if (block.type === "toolCall" && block.id === id) block.thoughtSignature = signature;
		}
	}
}

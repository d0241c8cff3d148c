import type {
	JSONObject,
	LanguageModelV3FinishReason,
	LanguageModelV3StreamPart,
	LanguageModelV3Usage,
	SharedV3ProviderMetadata,
} from "@ai-sdk/provider";
import type { AssistantMessage, AssistantMessageEvent, StopReason, ToolCall } from "@keel/ai";
import { KEEL_METADATA_KEY } from "./to-keel-context.js";

// Keel's events as LanguageModelV3 stream parts. Content blocks are named by their content index,
// which is unique within one answer, as the AI SDK asks of part ids.

/** The AI SDK's usage from Keel's: Keel's `input` counts the prompt tokens not read from a cache. */
export function toAiSdkUsage(usage: AssistantMessage["usage"]): LanguageModelV3Usage {
	return {
		inputTokens: {
			total: usage.input + usage.cacheRead + usage.cacheWrite,
			noCache: usage.input,
			cacheRead: usage.cacheRead,
			cacheWrite: usage.cacheWrite,
		},
		outputTokens: { total: usage.output, text: undefined, reasoning: undefined },
		raw: { ...usage, cost: { ...usage.cost } } as unknown as JSONObject,
	};
}

const FINISH_REASONS: Record<StopReason, LanguageModelV3FinishReason["unified"]> = {
	stop: "stop",
	length: "length",
	toolUse: "tool-calls",
	error: "error",
	aborted: "other",
};

export function toFinishReason(message: AssistantMessage): LanguageModelV3FinishReason {
	return { unified: FINISH_REASONS[message.stopReason], raw: message.rawStopReason ?? message.stopReason };
}

/** Cost (USD), usage and the answering model, under `providerMetadata.keel`. */
export function toProviderMetadata(message: AssistantMessage): SharedV3ProviderMetadata {
	const metadata: JSONObject = {
		api: message.api,
		provider: message.provider,
		model: message.model,
		stopReason: message.stopReason,
		cost: { ...message.usage.cost },
		usage: {
			input: message.usage.input,
			output: message.usage.output,
			cacheRead: message.usage.cacheRead,
			cacheWrite: message.usage.cacheWrite,
			totalTokens: message.usage.totalTokens,
		},
	};
	if (message.responseModel !== undefined) metadata.responseModel = message.responseModel;
	if (message.responseId !== undefined) metadata.responseId = message.responseId;
	return { [KEEL_METADATA_KEY]: metadata };
}

/** The error an AI SDK caller sees for a Keel answer that ended in `error` or `aborted`. */
export function toAiSdkError(message: AssistantMessage): Error {
	const error = new Error(message.errorMessage ?? `The model call ended with ${message.stopReason}`);
	if (message.stopReason === "aborted") error.name = "AbortError";
	return error;
}

function signatureMetadata(signature: string | undefined): SharedV3ProviderMetadata | undefined {
	return signature === undefined ? undefined : { [KEEL_METADATA_KEY]: { thinkingSignature: signature } };
}

/**
 * Turns one Keel event into the stream parts it stands for (often one, sometimes none or several).
 * `toolInputIds` belongs to one answer: the id each tool call's input parts started with.
 */
export function toStreamParts(
	event: AssistantMessageEvent,
	toolInputIds: Map<number, string> = new Map(),
): LanguageModelV3StreamPart[] {
	switch (event.type) {
		case "start":
			return [];
		case "text_start":
			return [{ type: "text-start", id: String(event.contentIndex) }];
		case "text_delta":
			return [{ type: "text-delta", id: String(event.contentIndex), delta: event.delta }];
		case "text_end":
			return [{ type: "text-end", id: String(event.contentIndex) }];
		case "thinking_start":
			return [{ type: "reasoning-start", id: String(event.contentIndex) }];
		case "thinking_delta":
			return [{ type: "reasoning-delta", id: String(event.contentIndex), delta: event.delta }];
		case "thinking_end": {
			const block = event.partial.content[event.contentIndex];
			const signature = block?.type === "thinking" ? block.thinkingSignature : undefined;
			const providerMetadata = signatureMetadata(signature);
			return [
				providerMetadata === undefined
					? { type: "reasoning-end", id: String(event.contentIndex) }
					: { type: "reasoning-end", id: String(event.contentIndex), providerMetadata },
			];
		}
		case "toolcall_start": {
			const block = event.partial.content[event.contentIndex] as ToolCall | undefined;
			const id = block?.id || `tool-${event.contentIndex}`;
			toolInputIds.set(event.contentIndex, id);
			return [{ type: "tool-input-start", id, toolName: block?.name ?? "" }];
		}
		case "toolcall_delta": {
			const id = toolInputIds.get(event.contentIndex) ?? `tool-${event.contentIndex}`;
			return [{ type: "tool-input-delta", id, delta: event.delta }];
		}
		case "toolcall_end": {
			const call = event.toolCall;
			// The input parts keep the id they started with, even if the call's id arrived later.
			const id = toolInputIds.get(event.contentIndex) ?? call.id;
			return [
				{ type: "tool-input-end", id },
				{ type: "tool-call", toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.arguments) },
			];
		}
		case "done":
			return [
				{ type: "response-metadata", ...responseMetadata(event.message) },
				{
					type: "finish",
					usage: toAiSdkUsage(event.message.usage),
					finishReason: toFinishReason(event.message),
					providerMetadata: toProviderMetadata(event.message),
				},
			];
		case "error":
			return [
				{ type: "error", error: toAiSdkError(event.error) },
				{
					type: "finish",
					usage: toAiSdkUsage(event.error.usage),
					finishReason: toFinishReason(event.error),
					providerMetadata: toProviderMetadata(event.error),
				},
			];
	}
}

export function responseMetadata(message: AssistantMessage): { id?: string; modelId: string; timestamp: Date } {
	const metadata: { id?: string; modelId: string; timestamp: Date } = {
		modelId: message.responseModel ?? message.model,
		timestamp: new Date(message.timestamp),
	};
	if (message.responseId !== undefined) metadata.id = message.responseId;
	return metadata;
}

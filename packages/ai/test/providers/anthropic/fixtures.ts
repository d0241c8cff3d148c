// Models and wire helpers shared by the Anthropic tests. Models are literals: the tests must not
// depend on the generated catalogue.
import type Anthropic from "@anthropic-ai/sdk";
import { formatSse, type ScriptedResponse } from "../../../src/testing/wire-test-server.js";
import type { Model } from "../../../src/types.js";
import { testModel } from "../../helpers/models.js";

type RawEvent = Anthropic.Messages.RawMessageStreamEvent | { type: "ping" } | { type: "error"; error: unknown };

export function claudeModel(overrides: Partial<Model<"anthropic-messages">> = {}): Model<"anthropic-messages"> {
	return testModel(
		{
			id: "claude-sonnet-4-20250514",
			name: "Claude Sonnet 4",
			api: "anthropic-messages",
			provider: "anthropic",
			baseUrl: "https://api.anthropic.com",
			reasoning: true,
			cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
			contextWindow: 200_000,
			maxTokens: 64_000,
		},
		overrides,
	);
}

/** An adaptive-thinking model (Claude 4.6 and later). */
export const opus46 = claudeModel({ id: "claude-opus-4-6", name: "Claude Opus 4.6", maxTokens: 128_000 });

export const TEST_KEY = "sk-ant-api03-test-secret-key-0123456789";

/** The SSE body for raw events, each under its own `event:` name as Anthropic sends them. */
export function anthropicSse(events: RawEvent[]): string {
	return formatSse(events.map((event) => ({ event: event.type, data: event })));
}

export function messageStart(usage: Partial<Anthropic.Messages.Usage> = {}, model = "claude-sonnet-4-20250514") {
	return {
		type: "message_start" as const,
		message: {
			id: "msg_01TEST",
			type: "message",
			role: "assistant",
			model,
			content: [],
			stop_reason: null,
			stop_sequence: null,
			usage: {
				input_tokens: 10,
				output_tokens: 1,
				cache_creation_input_tokens: 0,
				cache_read_input_tokens: 0,
				...usage,
			},
		},
	} as unknown as Anthropic.Messages.RawMessageStartEvent;
}

export function textStart(index: number) {
	return { type: "content_block_start" as const, index, content_block: { type: "text", text: "" } } as RawEvent;
}

export function textDelta(index: number, text: string) {
	return { type: "content_block_delta" as const, index, delta: { type: "text_delta", text } } as RawEvent;
}

export function thinkingStart(index: number) {
	return {
		type: "content_block_start" as const,
		index,
		content_block: { type: "thinking", thinking: "", signature: "" },
	} as RawEvent;
}

export function thinkingDelta(index: number, thinking: string) {
	return { type: "content_block_delta" as const, index, delta: { type: "thinking_delta", thinking } } as RawEvent;
}

export function signatureDelta(index: number, signature: string) {
	return { type: "content_block_delta" as const, index, delta: { type: "signature_delta", signature } } as RawEvent;
}

export function redactedThinking(index: number, data: string) {
	return {
		type: "content_block_start" as const,
		index,
		content_block: { type: "redacted_thinking", data },
	} as RawEvent;
}

export function toolUseStart(index: number, id: string, name: string) {
	return {
		type: "content_block_start" as const,
		index,
		content_block: { type: "tool_use", id, name, input: {} },
	} as RawEvent;
}

export function inputJsonDelta(index: number, partialJson: string) {
	return {
		type: "content_block_delta" as const,
		index,
		delta: { type: "input_json_delta", partial_json: partialJson },
	} as RawEvent;
}

export function blockStop(index: number) {
	return { type: "content_block_stop" as const, index } as RawEvent;
}

export function messageDelta(stopReason: string | null, usage: Partial<Anthropic.Messages.MessageDeltaUsage> = {}) {
	return {
		type: "message_delta" as const,
		delta: { stop_reason: stopReason, stop_sequence: null },
		usage: { output_tokens: 5, ...usage },
	} as unknown as RawEvent;
}

export const messageStop = { type: "message_stop" } as RawEvent;
export const ping = { type: "ping" } as RawEvent;

/** A complete text response: message_start, one text block in the given pieces, stop. */
export function textResponseEvents(pieces: string[], stopReason = "end_turn"): RawEvent[] {
	return [
		messageStart(),
		textStart(0),
		ping,
		...pieces.map((piece) => textDelta(0, piece)),
		blockStop(0),
		messageDelta(stopReason),
		messageStop,
	];
}

export function sseResponse(events: RawEvent[], extra: Partial<ScriptedResponse> = {}): ScriptedResponse {
	return { body: [anthropicSse(events)], headers: { "request-id": "req_test" }, ...extra };
}

/** An Anthropic error body, as the API sends with a non-200 status. */
export function errorBody(type: string, message: string) {
	return { type: "error", error: { type, message } };
}

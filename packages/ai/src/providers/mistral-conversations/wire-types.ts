// Mistral's chat completions request and stream shapes, as the API reference documents them
// (https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post).
// Kept structural so tests compare literal objects; every field of a response is optional
// because the server leaves fields out.

export interface MistralTextChunk {
	type: "text";
	text: string;
}

/** An image, as a URL or a `data:` URL (https://docs.mistral.ai/capabilities/vision/). */
export interface MistralImageChunk {
	type: "image_url";
	image_url: string;
}

/**
 * A document (a PDF) as a URL or a `data:` URL, with its name
 * (https://docs.mistral.ai/capabilities/OCR/document_understanding).
 */
export interface MistralDocumentChunk {
	type: "document_url";
	document_url: string;
	document_name?: string;
}

/** Audio as base64 for the Voxtral models (https://docs.mistral.ai/capabilities/audio/). */
export interface MistralAudioChunk {
	type: "input_audio";
	input_audio: string;
}

/** What a user message may hold. */
export type MistralUserChunk = MistralTextChunk | MistralImageChunk | MistralDocumentChunk | MistralAudioChunk;

/** Reasoning of Magistral and adjustable-reasoning models: text chunks inside a thinking chunk. */
export interface MistralThinkingChunk {
	type: "thinking";
	thinking: MistralTextChunk[];
}

export type MistralContentChunk = MistralTextChunk | MistralImageChunk | MistralThinkingChunk;

export interface MistralToolCall {
	/** Exactly 9 characters of [a-zA-Z0-9]: the API rejects any other id. */
	id: string;
	type: "function";
	function: { name: string; arguments: string };
}

export interface MistralSystemMessage {
	role: "system";
	content: string;
}

export interface MistralUserMessage {
	role: "user";
	content: string | MistralUserChunk[];
}

export interface MistralAssistantMessage {
	role: "assistant";
	content?: string | (MistralTextChunk | MistralThinkingChunk)[];
	tool_calls?: MistralToolCall[];
}

export interface MistralToolMessage {
	role: "tool";
	tool_call_id: string;
	name: string;
	/** Text, or chunks: the API's tool message content takes the same chunk types as a user message's. */
	content: string | (MistralTextChunk | MistralImageChunk | MistralDocumentChunk)[];
}

export type MistralMessage = MistralSystemMessage | MistralUserMessage | MistralAssistantMessage | MistralToolMessage;

export interface MistralFunctionTool {
	type: "function";
	function: { name: string; description: string; parameters: Record<string, unknown>; strict?: boolean };
}

export type MistralToolChoice = "auto" | "none" | "any" | "required" | { type: "function"; function: { name: string } };

export interface MistralChatRequest {
	model: string;
	messages: MistralMessage[];
	stream: true;
	max_tokens?: number;
	temperature?: number;
	tools?: MistralFunctionTool[];
	tool_choice?: MistralToolChoice;
	parallel_tool_calls?: boolean;
	/** Structured output: the answer is JSON matching the schema. */
	response_format?: {
		type: "json_schema";
		json_schema: { name: string; description?: string; schema: Record<string, unknown>; strict?: boolean };
	};
	prompt_mode?: "reasoning";
	reasoning_effort?: string;
	/** Requests sharing a key are routed to the cache that holds their prompt prefix. */
	prompt_cache_key?: string;
}

// ---------------------------------------------------------------------------------------------
// The stream: `data: <chat.completion.chunk>` events, then `data: [DONE]`.
// ---------------------------------------------------------------------------------------------

export interface MistralUsageWire {
	prompt_tokens?: number;
	completion_tokens?: number;
	total_tokens?: number;
	/** Prompt tokens read from Mistral's prompt cache, a part of prompt_tokens. */
	prompt_tokens_details?: { cached_tokens?: number } | null;
	num_cached_tokens?: number;
}

export interface MistralToolCallDeltaWire {
	id?: string | null;
	type?: string;
	index?: number;
	/** The API may send the arguments as a JSON string or as an object. */
	function?: { name?: string | null; arguments?: string | Record<string, unknown> | null };
}

export interface MistralContentChunkWire {
	type?: string;
	text?: string;
	thinking?: { type?: string; text?: string }[];
}

export interface MistralDeltaWire {
	role?: string | null;
	content?: string | MistralContentChunkWire[] | null;
	tool_calls?: MistralToolCallDeltaWire[] | null;
}

export interface MistralChunkWire {
	id?: string;
	object?: string;
	model?: string;
	choices?: { index?: number; delta?: MistralDeltaWire | null; finish_reason?: string | null }[] | null;
	usage?: MistralUsageWire | null;
}

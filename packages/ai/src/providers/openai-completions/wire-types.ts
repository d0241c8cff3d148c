import type { OpenAICompletionsUsageCounting } from "../../types.js";

// The Chat Completions request shapes Keel sends, including the vendor extensions the openai SDK's
// own types do not declare (reasoning_content, reasoning_details, cache_control, vendor thinking
// switches). Kept structural so tests can compare literal objects.

export interface CacheControl {
	type: "ephemeral";
	ttl?: "1h";
}

export interface ChatTextPart {
	type: "text";
	text: string;
	cache_control?: CacheControl;
}

export interface ChatImagePart {
	type: "image_url";
	image_url: { url: string };
}

/** A file inline as a data URL (https://platform.openai.com/docs/api-reference/chat/create). */
export interface ChatFilePart {
	type: "file";
	file: { file_data: string; filename: string };
}

/** Audio as base64 with its format (https://platform.openai.com/docs/guides/audio). */
export interface ChatAudioPart {
	type: "input_audio";
	input_audio: { data: string; format: string };
}

export type ChatContentPart = ChatTextPart | ChatImagePart | ChatFilePart | ChatAudioPart;

export interface ChatToolCall {
	id: string;
	type: "function";
	function: { name: string; arguments: string };
}

export interface ChatSystemMessage {
	role: "system" | "developer";
	content: string | ChatTextPart[];
}

export interface ChatUserMessage {
	role: "user";
	content: string | ChatContentPart[];
}

export interface ChatAssistantMessage {
	role: "assistant";
	content: string | ChatTextPart[] | null;
	tool_calls?: ChatToolCall[];
	/** DeepSeek, Qwen, vLLM and others: the model's reasoning, replayed under the field it came in. */
	reasoning_content?: string;
	reasoning?: string;
	reasoning_text?: string;
	/** OpenRouter: encrypted reasoning entries that must come back with their tool calls. */
	reasoning_details?: unknown[];
}

export interface ChatToolMessage {
	role: "tool";
	tool_call_id: string;
	content: string;
	/** Some vendors (older Mistral-style servers) require the tool's name on its result. */
	name?: string;
}

export type ChatMessage = ChatSystemMessage | ChatUserMessage | ChatAssistantMessage | ChatToolMessage;

export interface ChatFunctionTool {
	type: "function";
	function: { name: string; description: string; parameters: Record<string, unknown>; strict?: boolean };
}

export type ChatToolChoice = "auto" | "none" | "required" | { type: "function"; function: { name: string } };

/** The request body: the documented fields plus the vendor switches some servers need. */
export interface ChatCompletionsRequest {
	model: string;
	messages: ChatMessage[];
	stream: true;
	stream_options?: { include_usage: boolean };
	store?: boolean;
	max_tokens?: number;
	max_completion_tokens?: number;
	temperature?: number;
	tools?: ChatFunctionTool[];
	tool_choice?: ChatToolChoice;
	/** Structured output: the answer is JSON matching the schema. */
	response_format?: {
		type: "json_schema";
		json_schema: { name: string; description?: string; schema: Record<string, unknown>; strict?: boolean };
	};
	reasoning_effort?: string;
	/** OpenRouter's unified reasoning switch. */
	reasoning?: { effort: string };
	/** z.ai and DeepSeek: thinking on or off. */
	thinking?: { type: "enabled" | "disabled" };
	/** Qwen (DashScope): thinking on or off. */
	enable_thinking?: boolean;
	/** vLLM / SGLang serving Qwen: passed to the chat template. */
	chat_template_kwargs?: { enable_thinking: boolean };
	/** z.ai: stream tool-call arguments instead of sending them whole at the end. */
	tool_stream?: boolean;
	prompt_cache_key?: string;
	prompt_cache_retention?: "24h";
	/** OpenRouter provider routing. */
	provider?: Record<string, unknown>;
	/** Vercel AI Gateway routing. */
	providerOptions?: { gateway: { only?: string[]; order?: string[] } };
}

/** The delta fields reasoning streams in; a thinking block's signature names the one it came from. */
export const REASONING_FIELDS = ["reasoning_content", "reasoning", "reasoning_text"] as const;
export type ReasoningField = (typeof REASONING_FIELDS)[number];

/**
 * OpenAI's counting, which most compatible servers follow: reasoning and audio tokens are parts of
 * `completion_tokens` / `prompt_tokens`, cache hits are `prompt_tokens_details.cached_tokens`.
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
 */
export const OPENAI_USAGE_COUNTING: Readonly<OpenAICompletionsUsageCounting> = {
	reasoningInCompletionTokens: true,
	cachedTokensField: "prompt_tokens_details.cached_tokens",
	audioInPromptAndCompletionTokens: true,
};

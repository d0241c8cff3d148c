// Recognises "the prompt did not fit the model's context window" across providers, so callers
// (an agent's compaction step) can shrink the context and retry instead of failing. Each provider
// words it differently; the exact text each one sends is quoted beside its pattern.

import type { AssistantMessage } from "../types.js";

const OVERFLOW_PATTERNS: readonly RegExp[] = [
	// Anthropic: "prompt is too long: 213462 tokens > 200000 maximum"
	/prompt is too long/i,
	// Anthropic, when the prompt leaves no room for max_tokens:
	// "input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again"
	/input length and `?max_tokens`? exceed context limit/i,
	// Anthropic (413, error type request_too_large): "Request exceeds the maximum size"
	/request_too_large/i,
	// Amazon Bedrock: "Input is too long for requested model."
	/input is too long for requested model/i,
	// OpenAI (Responses, Chat Completions): "Your input exceeds the context window of this model. Please adjust your input and try again."
	/exceeds the context window/i,
	// Google Gemini / Vertex: "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)."
	/input token count.*exceeds the maximum/i,
	// xAI: "This model's maximum prompt length is 131072 but the request contains 537812 tokens."
	/maximum prompt length is \d+/i,
	// Groq: "Please reduce the length of the messages or completion."
	/reduce the length of the messages/i,
	// OpenRouter and older OpenAI models: "This endpoint's maximum context length is 128000 tokens. However, you requested about 131000 tokens"
	/maximum context length is \d+ tokens/i,
	// GitHub Copilot: "prompt token count of 130123 exceeds the limit of 128000"
	/exceeds the limit of \d+/i,
	// llama.cpp server: "the request exceeds the available context size, try increasing it"
	/exceeds the available context size/i,
	// LM Studio: "The number of tokens to keep from the initial prompt is greater than the context length."
	/greater than the context length/i,
	// MiniMax: "invalid params, context window exceeds limit"
	/context window exceeds limit/i,
	// Kimi (Moonshot): "Your request exceeded model token limit: 262144 (requested: 291351)"
	/exceeded model token limit/i,
	// Mistral: "Prompt contains 133445 tokens and 0 draft tokens, too large for model with 131072 maximum context length"
	/too large for model with \d+ maximum context length/i,
	// z.ai: finish reason / error code "model_context_window_exceeded"
	/model_context_window_exceeded/i,
	// Ollama: "prompt too long; exceeded max context length by 1234 tokens"
	/prompt too long; exceeded (?:max )?context length/i,
	// OpenAI models behind LiteLLM (and vLLM's OpenAI server): "Requested token count exceeds the
	// model's maximum context length of 131072 tokens. You requested a total of 131509 tokens: …"
	/exceeds the model's maximum context length of [\d,]+ tokens/i,
	// OpenAI-compatible servers, parenthesised: "Input length (265330) exceeds model's maximum context length (262144)."
	/exceeds (?:the )?model's maximum context length \([\d,]+\)/i,
	// LiteLLM's own check before the call: "litellm.ContextWindowExceededError: … Context Window exceeded for given call."
	/context ?window ?exceeded/i,
	// Together AI: "The input (140243 tokens) is longer than the model's context length (131072 tokens)."
	/input \([\d,]+ tokens\) is longer than the model's context length/i,
	// OpenRouter, Poolside models: "Input length 300123 exceeds the maximum allowed input length of 262144 tokens."
	/exceeds the maximum allowed input length of [\d,]+ tokens/i,
	// DS4 server: "Prompt has 70211 tokens, but the configured context size is 65536 tokens"
	/but the configured context size is [\d,]+ tokens/i,
	// Generic wordings used by OpenAI-compatible servers (vLLM, proxies): "context_length_exceeded",
	// "context length exceeded", "too many tokens in the prompt", "token limit exceeded"
	/context[_ ]length[_ ]exceeded/i,
	/too many tokens/i,
	/token limit exceeded/i,
];

// Cerebras answers an oversized prompt with an empty body, so only the status remains:
// "400 status code (no body)" or "413 status code (no body)". "429 status code (no body)" is a rate limit.
const CEREBRAS_EMPTY_BODY_OVERFLOW = /^4(?:00|13)\b.*\(no body\)/i;

// Messages that look like overflow but are rate limits, checked first. Amazon Bedrock throttles with
// "ThrottlingException: Too many tokens, please wait before trying again." and OpenAI with
// "429 Request too large for gpt-4o … on tokens per min (TPM)": both ask to wait, not to shrink.
// Bedrock's SDK may drop the exception name, leaving only "Too many tokens, please wait before trying again."
const NEVER_OVERFLOW_PATTERNS: readonly RegExp[] = [
	/throttl/i,
	/rate limit/i,
	/too many requests/i,
	/please wait before trying again/i,
	/^429\b/,
];

/** The share of the context window a prompt must reach for a zero-output `length` stop to be an overflow. */
const FILLED_WINDOW_SHARE = 0.99;

/** The overflow patterns, as fresh copies: changing them does not change detection. */
export function getOverflowPatterns(): RegExp[] {
	return OVERFLOW_PATTERNS.map((pattern) => new RegExp(pattern.source, pattern.flags));
}

/** True when the error text says the prompt did not fit the context window. */
export function isOverflowErrorMessage(errorMessage: string): boolean {
	if (NEVER_OVERFLOW_PATTERNS.some((pattern) => pattern.test(errorMessage))) return false;
	if (CEREBRAS_EMPTY_BODY_OVERFLOW.test(errorMessage)) return true;
	return OVERFLOW_PATTERNS.some((pattern) => pattern.test(errorMessage));
}

/**
 * True when the message shows that the context did not fit the model:
 * - an `error` whose message matches a provider's overflow text (rate limits never count);
 * - with `contextWindow` given, a silent overflow: a `stop` whose prompt (input + cache read +
 *   cache write) is larger than the window (z.ai accepts it and truncates);
 * - with `contextWindow` given, a `length` stop with no output and a prompt that fills the window
 *   (Xiaomi MiMo ends this way instead of returning an error: it cuts the prompt to fit and has no
 *   room left to answer; its count can fall a little short of the catalogue's window, so 99 % of
 *   the window counts as full).
 * An aborted message never counts, whatever its text.
 */
export function isContextOverflow(message: AssistantMessage, contextWindow?: number): boolean {
	if (message.stopReason === "aborted") return false;
	if (message.stopReason === "error") {
		return message.errorMessage !== undefined && isOverflowErrorMessage(message.errorMessage);
	}
	if (contextWindow === undefined || !(contextWindow > 0)) return false;
	const usage = message.usage;
	const promptTokens = usage.input + usage.cacheRead + usage.cacheWrite;
	if (message.stopReason === "stop") return promptTokens > contextWindow;
	if (message.stopReason === "length") return usage.output === 0 && promptTokens >= contextWindow * FILLED_WINDOW_SHARE;
	return false;
}

import { describe, expect, it } from "vitest";
import type { AssistantMessage, Usage } from "../src/types.js";
import { getOverflowPatterns, isContextOverflow, isOverflowErrorMessage } from "../src/utils/overflow.js";

function message(
	stopReason: AssistantMessage["stopReason"],
	errorMessage?: string,
	usage: Partial<Usage> = {},
): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api: "openai-completions",
		provider: "test",
		model: "m",
		usage: {
			input: 0,
			output: 0,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 0,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
			...usage,
		},
		stopReason,
		errorMessage,
		timestamp: 0,
	};
}

const overflowTexts: [string, string][] = [
	["Anthropic", "400 prompt is too long: 213462 tokens > 200000 maximum"],
	[
		"Anthropic max_tokens",
		"400 input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again",
	],
	["Anthropic 413", "413 Request exceeds the maximum size (request_too_large)"],
	["Bedrock", "Input is too long for requested model."],
	["OpenAI", "400 Your input exceeds the context window of this model. Please adjust your input and try again."],
	["Google", "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)."],
	["xAI", "This model's maximum prompt length is 131072 but the request contains 537812 tokens."],
	["Groq", "Please reduce the length of the messages or completion."],
	["OpenRouter", "This endpoint's maximum context length is 128000 tokens. However, you requested about 131000 tokens"],
	["Copilot", "prompt token count of 130123 exceeds the limit of 128000"],
	["llama.cpp", "the request exceeds the available context size, try increasing it"],
	["LM Studio", "The number of tokens to keep from the initial prompt is greater than the context length."],
	["MiniMax", "invalid params, context window exceeds limit (2013)"],
	["Kimi", "Your request exceeded model token limit: 262144 (requested: 291351)"],
	[
		"Mistral",
		"Prompt contains 133445 tokens and 0 draft tokens, too large for model with 131072 maximum context length",
	],
	["z.ai", "model_context_window_exceeded"],
	["Ollama", "prompt too long; exceeded max context length by 1234 tokens"],
	[
		"OpenAI through LiteLLM",
		"litellm.BadRequestError: OpenAIException - Requested token count exceeds the model's maximum context length of 131072 tokens. You requested a total of 131509 tokens: 99509 tokens from the input messages and 32000 tokens for the completion.",
	],
	["OpenAI-compatible server, parenthesised", "Input length (265330) exceeds model's maximum context length (262144)."],
	[
		"LiteLLM pre-call check",
		"litellm.ContextWindowExceededError: litellm.BadRequestError: Context Window exceeded for given call. Model=gpt-4o",
	],
	["Together AI", "The input (140243 tokens) is longer than the model's context length (131072 tokens)."],
	["OpenRouter (Poolside)", "Input length 300123 exceeds the maximum allowed input length of 262144 tokens."],
	["DS4 server", "Prompt has 70,211 tokens, but the configured context size is 65,536 tokens"],
	["generic underscore", "context_length_exceeded"],
	["generic space", "Context length exceeded"],
	["generic tokens", "too many tokens in the prompt"],
	["generic limit", "token limit exceeded"],
	["Cerebras 400", "400 status code (no body)"],
	["Cerebras 413", "413 status code (no body)"],
];

const notOverflowTexts: [string, string][] = [
	["Cerebras 429", "429 status code (no body)"],
	["Bedrock throttling", "ThrottlingException: Too many tokens, please wait before trying again."],
	["Bedrock throttling without name", "Too many tokens, please wait before trying again."],
	["OpenAI TPM", "429 Request too large for gpt-4o on tokens per min (TPM): Limit 30000, Requested 50000."],
	["rate limit", "Rate limit reached: too many tokens per minute"],
	["too many requests", "Too many requests, token limit exceeded for this hour"],
	["server error", "500 Internal server error"],
	["invalid key", "401 invalid x-api-key"],
];

describe("isContextOverflow", () => {
	it.each(overflowTexts)("recognises %s", (_provider, text) => {
		expect(isContextOverflow(message("error", text))).toBe(true);
	});

	it.each(notOverflowTexts)("does not count %s", (_case, text) => {
		expect(isContextOverflow(message("error", text))).toBe(false);
	});

	it("never counts an aborted message, even with overflow text or a full context", () => {
		expect(isContextOverflow(message("aborted", "prompt is too long"))).toBe(false);
		expect(isContextOverflow(message("aborted", undefined, { input: 500 }), 100)).toBe(false);
	});

	it("needs an error message for error stops", () => {
		expect(isContextOverflow(message("error"))).toBe(false);
	});

	it("detects silent overflow: a stop whose prompt exceeds the window (z.ai)", () => {
		const full = message("stop", undefined, { input: 90, cacheRead: 20, output: 5 });
		expect(isContextOverflow(full, 100)).toBe(true);
		expect(isContextOverflow(full, 110)).toBe(false);
		expect(isContextOverflow(full)).toBe(false);
		expect(isContextOverflow(message("stop", undefined, { input: 10, cacheWrite: 95 }), 100)).toBe(true);
	});

	it("detects a length stop with zero output and a full window (Xiaomi), but not an ordinary length stop", () => {
		expect(isContextOverflow(message("length", undefined, { input: 100, output: 0 }), 100)).toBe(true);
		expect(isContextOverflow(message("length", undefined, { input: 100, output: 3 }), 100)).toBe(false);
		expect(isContextOverflow(message("length", undefined, { input: 40, output: 0 }), 100)).toBe(false);
		// Xiaomi MiMo's count after cutting the prompt can fall just short of the catalogue's window.
		expect(isContextOverflow(message("length", undefined, { input: 261_900, output: 0 }), 262_144)).toBe(true);
		expect(isContextOverflow(message("length", undefined, { input: 100, output: 0 }))).toBe(false);
	});

	it("ignores toolUse stops and non-positive windows", () => {
		expect(isContextOverflow(message("toolUse", undefined, { input: 500 }), 100)).toBe(false);
		expect(isContextOverflow(message("stop", undefined, { input: 500 }), 0)).toBe(false);
	});

	it("isOverflowErrorMessage reads a bare error text", () => {
		expect(isOverflowErrorMessage("prompt is too long")).toBe(true);
		expect(isOverflowErrorMessage("overloaded")).toBe(false);
	});
});

describe("getOverflowPatterns", () => {
	it("returns a copy: changing it does not change detection", () => {
		const patterns = getOverflowPatterns();
		expect(patterns.length).toBeGreaterThan(15);
		expect(patterns.some((pattern) => pattern.test("prompt is too long"))).toBe(true);
		patterns.length = 0;
		expect(getOverflowPatterns().length).toBeGreaterThan(15);
		expect(isContextOverflow(message("error", "prompt is too long"))).toBe(true);
	});

	it("returns fresh RegExp objects", () => {
		const [first] = getOverflowPatterns();
		const [again] = getOverflowPatterns();
		expect(first).not.toBe(again);
		expect(first.source).toBe(again.source);
	});
});

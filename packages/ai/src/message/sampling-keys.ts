// Which sampling parameters (by their snake_case wire names) a model's API takes, for callers that
// check a user's input before a call (the CLI's `-o top_p 0.9`). A call itself never fails on a
// key: OpenAI-compatible APIs send every key as given (custom servers take their own), the others
// leave out what they do not take (see each provider's sampling encoder).

import { resolveClaudeCapabilities } from "../providers/anthropic/model-capabilities.js";
import { resolveBedrockCompat } from "../providers/bedrock-converse-stream/compat.js";
import type { Api, Model, SamplingParams } from "../types.js";

// Chat Completions: OpenAI's own names, plus the ones vLLM, SGLang and llama.cpp servers add.
// @see https://platform.openai.com/docs/api-reference/chat/create
// @see https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html#extra-parameters
const CHAT_COMPLETIONS = [
	"temperature",
	"top_p",
	"top_k",
	"min_p",
	"repetition_penalty",
	"frequency_penalty",
	"presence_penalty",
	"seed",
];
// Responses takes temperature and top_p only. @see https://platform.openai.com/docs/api-reference/responses/create
const RESPONSES = ["temperature", "top_p"];
// @see https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post
const MISTRAL = ["temperature", "top_p", "presence_penalty", "frequency_penalty", "random_seed"];
// generationConfig (camelCase on the wire). @see https://ai.google.dev/api/generate-content#generationconfig
const GEMINI = ["temperature", "top_p", "top_k", "seed", "presence_penalty", "frequency_penalty"];
// @see https://docs.claude.com/en/api/messages
const CLAUDE = ["temperature", "top_p", "top_k"];

/** The sampling keys the model takes, by its API and catalogue flags; empty when it takes none. */
export function samplingParamKeys(model: Model<Api>): string[] {
	switch (model.api) {
		case "openai-completions":
			return [...CHAT_COMPLETIONS];
		case "openai-responses":
		case "azure-openai-responses":
			return [...RESPONSES];
		case "openai-codex-responses":
			return [];
		case "mistral-conversations":
			return [...MISTRAL];
		case "google-generative-ai":
		case "google-vertex":
			return [...GEMINI];
		case "anthropic-messages":
			// Claude Opus 4.7 and later take no sampling parameters (compat.supportsTemperature false).
			return resolveClaudeCapabilities(model).supportsTemperature ? [...CLAUDE] : [];
		case "bedrock-converse-stream": {
			const compat = resolveBedrockCompat(model as Model<"bedrock-converse-stream">);
			if (!compat.claudeThinking) return ["temperature", "top_p"];
			return resolveClaudeCapabilities(model).supportsTemperature ? [...CLAUDE] : [];
		}
		default:
			// An API registered by a caller: its own provider decides.
			return [];
	}
}

/**
 * Why the parameters do not suit the model, or undefined when they do: every key must be one the
 * model takes, every value a finite number (seeds and penalties included).
 */
export function checkSamplingParams(model: Model<Api>, params: SamplingParams): string | undefined {
	const keys = samplingParamKeys(model);
	for (const [key, value] of Object.entries(params)) {
		if (!keys.includes(key)) {
			return keys.length === 0
				? `${model.provider}/${model.id} (${model.api}) takes no sampling parameters, so "${key}" cannot be set`
				: `${model.provider}/${model.id} (${model.api}) does not take "${key}"; it takes ${keys.join(", ")}`;
		}
		if (typeof value !== "number" || !Number.isFinite(value)) {
			return `"${key}" must be a number, got ${JSON.stringify(value)}`;
		}
	}
	return undefined;
}

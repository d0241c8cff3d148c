// What each model family behind Bedrock's ConverseStream supports, as catalogue data. Source: AWS's
// "Supported models and model features" table for the Converse API
// (https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference-supported-models-features.html)
// and the prompt caching page (https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html).
//
// Keel always calls ConverseStream, so tool use follows the table's "Streaming tool use" column, not
// "Tool use": Llama 3.1 and later and Mistral Large take tools through Converse only and answer a
// streamed request with tools "This model doesn't support tool use in streaming mode". Image input is
// not a flag here: the row's `input` modalities decide it, and they match the table's "Vision" column.

import type { BedrockConverseCompat } from "../../src/types.js";

export interface BedrockFamily {
	/** The family's name in AWS's table. */
	name: string;
	/** Matches the model id after any cross-region inference profile prefix (`us.`, `eu.`, …). */
	pattern: RegExp;
	compat: Required<BedrockConverseCompat>;
}

const plain = { supportsPromptCache: false, claudeThinking: false };
const claude = { supportsToolUse: true, supportsSystemPrompt: true, claudeThinking: true };

/** First match wins, so the narrower patterns come first. */
export const BEDROCK_FAMILIES: readonly BedrockFamily[] = [
	{
		name: "Amazon Nova",
		pattern: /^amazon\.nova-/,
		compat: { supportsToolUse: true, supportsSystemPrompt: true, supportsPromptCache: true, claudeThinking: false },
	},
	{
		name: "Anthropic Claude 3.5 Haiku, 3.7 Sonnet, Claude 4 and later (prompt caching)",
		pattern: /^anthropic\.claude-(3-5-haiku|3-7-sonnet|(opus|sonnet|haiku)-[4-9])/,
		compat: { ...claude, supportsPromptCache: true },
	},
	{
		// Not in the Converse feature table; each model card lists Converse among its APIs, prompt
		// caching on system, messages and tools, and adaptive thinking that is always on
		// (https://docs.aws.amazon.com/bedrock/latest/userguide/model-card-anthropic-claude-fable-5.html,
		// https://docs.aws.amazon.com/bedrock/latest/userguide/model-card-anthropic-claude-fable-5-1.html).
		name: "Anthropic Claude Fable 5 and 5.1 (model cards)",
		pattern: /^anthropic\.claude-fable-5(-1)?$/,
		compat: { ...claude, supportsPromptCache: true },
	},
	{
		name: "Anthropic Claude 3 and 3.5 Sonnet",
		pattern: /^anthropic\.claude-3/,
		compat: { ...claude, supportsPromptCache: false },
	},
	{
		name: "Cohere Command R and Command R+",
		pattern: /^cohere\.command-r/,
		compat: { supportsToolUse: true, supportsSystemPrompt: true, ...plain },
	},
	{
		name: "DeepSeek-R1",
		pattern: /^deepseek\.r1/,
		compat: { supportsToolUse: false, supportsSystemPrompt: true, ...plain },
	},
	{
		// Llama 3.2 1B and 3B have no tool use at all; the others have it through Converse only.
		name: "Meta Llama 3.1, 3.2, 3.3 and 4",
		pattern: /^meta\.llama(3-[123]|4)-/,
		compat: { supportsToolUse: false, supportsSystemPrompt: true, ...plain },
	},
	// The families below are listed as Converse models on AWS's "API compatibility" page
	// (https://docs.aws.amazon.com/bedrock/latest/userguide/models-api-compatibility.html), which has no
	// "Streaming tool use" or "System prompts" column, and are missing from the feature table. A flag AWS
	// does not document is off: without tool use Keel folds tool history into text instead of sending
	// `toolConfig`, and without system prompts it opens the first user message with the system prompt,
	// both of which every Converse model accepts.
	{
		name: "DeepSeek-V3.1 and DeepSeek V3.2",
		pattern: /^deepseek\.v3/,
		compat: { supportsToolUse: false, supportsSystemPrompt: false, ...plain },
	},
	{
		name: "Google Gemma 3",
		pattern: /^google\.gemma-3-/,
		compat: { supportsToolUse: false, supportsSystemPrompt: false, ...plain },
	},
	{
		name: "MiniMax M2 and M2.1",
		pattern: /^minimax\.minimax-m2(\.1)?$/,
		compat: { supportsToolUse: false, supportsSystemPrompt: false, ...plain },
	},
	{
		name: "Moonshot Kimi K2 Thinking and Kimi K2.5",
		pattern: /^(moonshot\.kimi-k2-thinking|moonshotai\.kimi-k2\.5)$/,
		compat: { supportsToolUse: false, supportsSystemPrompt: false, ...plain },
	},
	{
		// AWS's OpenAI models page maps a Converse request's `system` array to the developer message
		// (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-openai.html).
		name: "OpenAI gpt-oss-20b and gpt-oss-120b",
		pattern: /^openai\.gpt-oss-(20b|120b)(-1:0)?$/,
		compat: { supportsToolUse: false, supportsSystemPrompt: true, ...plain },
	},
	{
		name: "Mistral AI Instruct (Mistral 7B, Mixtral 8x7B)",
		pattern: /^mistral\.(mistral-7b|mixtral)/,
		compat: { supportsToolUse: false, supportsSystemPrompt: false, ...plain },
	},
	{
		name: "Mistral Large and Mistral Small",
		pattern: /^mistral\.mistral-(large|small)/,
		compat: { supportsToolUse: false, supportsSystemPrompt: true, ...plain },
	},
];

// Left out on purpose, because neither the Converse feature table, the API compatibility page nor the
// prompt caching page lists them, so what ConverseStream accepts for them is not documented: Claude
// Fable 5.2 (no model card yet), OpenAI's GPT-5.x and GPT-6 rows, gpt-oss-safeguard, xAI Grok, Kimi K3, Z.ai GLM, Qwen3,
// NVIDIA Nemotron, Writer Palmyra, Gemma 4, MiniMax M2.5 and Mistral's Pixtral, Magistral,
// Ministral, Voxtral and Devstral. The generator reports them; add a row here once AWS documents one.

// Cross-region inference profiles prefix the model id with a geography (`us.`, `in.` for India, …).
const INFERENCE_PROFILE_PREFIX = /^(us|eu|apac|global|us-gov|jp|au|ca|in)\./;

/** The documented family of a Bedrock model id, or undefined for a family not in the table. */
export function bedrockFamilyFor(id: string): BedrockFamily | undefined {
	const bare = id.toLowerCase().replace(INFERENCE_PROFILE_PREFIX, "");
	return BEDROCK_FAMILIES.find((family) => family.pattern.test(bare));
}

/**
 * The compat flags of a Bedrock catalogue row. Throws for a family the table does not cover, so a
 * new model is classified from AWS's table before it ships rather than getting guessed defaults.
 */
export function bedrockCompatFor(id: string): Required<BedrockConverseCompat> {
	const family = bedrockFamilyFor(id);
	if (!family) {
		throw new Error(
			`Bedrock model ${id}: no entry in catalog/generator/bedrock-compat.ts; add its family's flags from AWS's Converse "Supported models and model features" table.`,
		);
	}
	return { ...family.compat };
}

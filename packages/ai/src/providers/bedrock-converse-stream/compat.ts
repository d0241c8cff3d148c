import type { BedrockConverseCompat, Model } from "../../types.js";

// Bedrock model ids name the vendor and family (`anthropic.claude-sonnet-4-…`, `amazon.nova-pro-v1:0`),
// optionally behind a cross-region inference profile prefix (`us.`, `eu.`, `apac.`, `global.`).
const CLAUDE = /anthropic\.claude/i;
// Prompt caching on Bedrock: Claude 3.5 Haiku, Claude 3.7 Sonnet, Claude 4 and later, and Nova.
// @see https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html
const CACHING_CLAUDE = /claude-(3-5-haiku|3-7-sonnet|(opus|sonnet|haiku)-[4-9]|[4-9])/i;
const NOVA = /amazon\.nova/i;

/** The model's capabilities: its catalogue `compat` fields, else what its id says. */
export function resolveBedrockCompat(model: Model<"bedrock-converse-stream">): Required<BedrockConverseCompat> {
	const compat = model.compat ?? {};
	const claude = CLAUDE.test(model.id);
	return {
		supportsToolUse: compat.supportsToolUse ?? true,
		supportsSystemPrompt: compat.supportsSystemPrompt ?? true,
		supportsPromptCache:
			compat.supportsPromptCache ?? ((claude && CACHING_CLAUDE.test(model.id)) || NOVA.test(model.id)),
		claudeThinking: compat.claudeThinking ?? claude,
	};
}

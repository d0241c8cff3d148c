// What a Claude model takes beyond the common Messages API, by model id. Catalogue rows carry the
// answers as `compat` flags (catalog/generator/claude-compat.ts calls these rules); a model defined
// elsewhere gets them from its id here, and its own `compat` fields win.

import type { AnthropicMessagesCompat, Api, Model } from "../../types.js";
import { claudeVersion, isAtLeast } from "./thinking.js";

/**
 * Claude Opus 4.7 and later answer a request with `temperature` (or top_p/top_k) with HTTP 400:
 * sampling parameters were removed.
 * @see https://platform.claude.com/docs/en/about-claude/models/whats-new-claude-4-7#sampling-parameters-removed
 */
export function claudeIdTakesTemperature(modelId: string): boolean {
	const version = claudeVersion(modelId);
	return !(version?.family === "opus" && isAtLeast(version, 4, 7));
}

/**
 * From Claude Opus 4.7 on (and on Sonnet 5, Fable 5), thinking blocks arrive empty unless the
 * request asks for `display: "summarized"`: the default display became "omitted".
 * @see https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking
 */
export function claudeIdOmitsThinkingByDefault(modelId: string): boolean {
	const version = claudeVersion(modelId);
	if (!version) return false;
	if (version.family === "fable") return true;
	if (version.family === "opus") return isAtLeast(version, 4, 7);
	return isAtLeast(version, 5, 0);
}

/**
 * `{"role": "system"}` entries in `messages` are taken by Claude Opus 4.8 on the Claude API only
 * (not on Bedrock, Vertex AI or Foundry); other models answer them with HTTP 400.
 * @see https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages
 */
export function claudeIdTakesMidConversationSystemMessages(modelId: string, baseUrl: string): boolean {
	const version = claudeVersion(modelId);
	return (
		version?.family === "opus" && version.major === 4 && version.minor === 8 && baseUrl.includes("api.anthropic.com")
	);
}

export type ResolvedAnthropicCapabilities = Required<
	Pick<
		AnthropicMessagesCompat,
		"supportsTemperature" | "omitsThinkingByDefault" | "supportsMidConversationSystemMessages"
	>
>;

/** The model's `compat` flags, each missing one read from its id. */
export function resolveClaudeCapabilities(model: Model<Api>): ResolvedAnthropicCapabilities {
	const compat = (model.compat ?? {}) as AnthropicMessagesCompat;
	return {
		supportsTemperature: compat.supportsTemperature ?? claudeIdTakesTemperature(model.id),
		omitsThinkingByDefault: compat.omitsThinkingByDefault ?? claudeIdOmitsThinkingByDefault(model.id),
		supportsMidConversationSystemMessages:
			compat.supportsMidConversationSystemMessages ??
			claudeIdTakesMidConversationSystemMessages(model.id, model.baseUrl),
	};
}

/**
 * True when the model takes `thinking: {type: "disabled"}`: a reasoning model whose catalogue map
 * does not mark "off" unsupported (models that always think, such as Claude Fable 5, reject it).
 */
export function claudeTakesDisabledThinking(model: Model<Api>): boolean {
	return model.reasoning && model.thinkingLevelMap?.off !== null;
}

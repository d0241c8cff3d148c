// Flags for Claude rows on the Messages API, from Anthropic's model pages, written into each row so
// a reader of the catalogue sees what a model takes. The rules live beside the encoder
// (src/providers/anthropic/model-capabilities.ts), which applies the same ones to models defined
// elsewhere; a row's own flags win there.

import {
	claudeIdOmitsThinkingByDefault,
	claudeIdTakesMidConversationSystemMessages,
	claudeIdTakesTemperature,
} from "../../src/providers/anthropic/model-capabilities.js";
import type { AnthropicMessagesCompat } from "../../src/types.js";

/** The flags that differ from the Messages API defaults for one Claude model, or undefined. */
export function claudeCompatFor(id: string, baseUrl: string): AnthropicMessagesCompat | undefined {
	const compat: AnthropicMessagesCompat = {};
	// https://platform.claude.com/docs/en/about-claude/models/whats-new-claude-4-7#sampling-parameters-removed
	if (!claudeIdTakesTemperature(id)) compat.supportsTemperature = false;
	// https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking
	if (claudeIdOmitsThinkingByDefault(id)) compat.omitsThinkingByDefault = true;
	// https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages
	if (claudeIdTakesMidConversationSystemMessages(id, baseUrl)) compat.supportsMidConversationSystemMessages = true;
	return Object.keys(compat).length > 0 ? compat : undefined;
}

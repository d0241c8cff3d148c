import type { AnthropicMessagesCompat, Api, Model } from "../../types.js";

// Claude ids carry the version as `<family>-<major>-<minor>` or `<family>-<major>.<minor>`; a date
// suffix (claude-sonnet-4-20250514) is not a minor version.
const CLAUDE_VERSION = /(opus|sonnet|haiku)-(\d+)[-.](\d{1,2})(?!\d)/;

/**
 * True when the model takes structured outputs: JSON outputs (`output_config.format`) and `strict`
 * tools. `compat.supportsStructuredOutputs` decides when set; otherwise Claude 4.5 and later and
 * Opus 4.1, the models Anthropic lists for the feature.
 * @see https://docs.claude.com/en/docs/build-with-claude/structured-outputs
 */
export function supportsAnthropicStructuredOutputs(model: Model<Api>): boolean {
	const declared = (model.compat as AnthropicMessagesCompat | undefined)?.supportsStructuredOutputs;
	if (declared !== undefined) return declared;
	const match = CLAUDE_VERSION.exec(model.id.toLowerCase());
	if (!match) return false;
	const major = Number(match[2]);
	const minor = Number(match[3]);
	if (major > 4 || (major === 4 && minor >= 5)) return true;
	return match[1] === "opus" && major === 4 && minor === 1;
}

import { clampThinkingLevel } from "../../models/thinking-levels.js";
import type { Api, Model, ThinkingLevel } from "../../types.js";

/**
 * The provider's effort value for a level of a reasoning model. The level is first moved to the
 * nearest one the model supports (models/thinking-levels: null in `thinkingLevelMap` means
 * unsupported, xhigh only where declared), then the map's value for it is used, else its name.
 */
export function mapReasoningEffort(model: Model<Api>, level: ThinkingLevel): string | undefined {
	const supported = clampThinkingLevel({ reasoning: true, thinkingLevelMap: model.thinkingLevelMap }, level);
	if (supported === "off") return reasoningEffortForOff(model);
	const value = model.thinkingLevelMap?.[supported];
	return typeof value === "string" ? value : supported;
}

/**
 * The effort to send when the caller asked for no reasoning. Reasoning models think by default,
 * so when the model declares an "off" value (for example "none" on GPT-5.1, "minimal" on GPT-5)
 * we send it explicitly, as a documented parameter rather than an instruction in the prompt;
 * otherwise nothing is sent and the model's default applies.
 */
export function reasoningEffortForOff(model: Model<Api>): string | undefined {
	const off = model.thinkingLevelMap?.off;
	return typeof off === "string" ? off : undefined;
}

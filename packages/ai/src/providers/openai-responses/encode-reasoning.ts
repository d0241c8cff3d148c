import type { Api, Model, ThinkingLevel } from "../../types.js";

const LEVELS: readonly ThinkingLevel[] = ["minimal", "low", "medium", "high", "xhigh"];

/**
 * The provider's effort value for a level, through `model.thinkingLevelMap`. A level the map marks
 * unsupported (null) becomes the nearest supported one, searching upward first; xhigh is only sent
 * when the map declares it, otherwise it becomes high. Without a map the level name is the value.
 */
export function mapReasoningEffort(model: Model<Api>, level: ThinkingLevel): string {
	const map = model.thinkingLevelMap;
	const direct = map?.[level];
	if (typeof direct === "string") return direct;
	if (direct === undefined && level !== "xhigh") return level;
	const start = LEVELS.indexOf(level);
	const candidates = [...LEVELS.slice(start + 1), ...LEVELS.slice(0, start).reverse()];
	for (const candidate of candidates) {
		const value = map?.[candidate];
		if (typeof value === "string") return value;
		if (value === undefined && candidate !== "xhigh") return candidate;
	}
	return "high";
}

/**
 * The effort to send when the caller asked for no reasoning. Reasoning models think by default,
 * so when the model declares an "off" value (for example "none" on GPT-5.1, "minimal" on GPT-5)
 * we send it explicitly; otherwise nothing is sent and the model's default applies. (pi appended
 * a "# Juice: 0" developer message instead; an explicit parameter is clearer and documented.)
 */
export function reasoningEffortForOff(model: Model<Api>): string | undefined {
	const off = model.thinkingLevelMap?.off;
	return typeof off === "string" ? off : undefined;
}

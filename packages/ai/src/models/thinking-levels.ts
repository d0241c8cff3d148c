// Which unified thinking levels a model accepts, from its `thinkingLevelMap`: a
// level mapped to null is rejected by the model; xhigh and max exist only where the map declares
// them (the vendors that have them: Anthropic's effort "max", OpenAI's reasoning effort "xhigh");
// a model without reasoning accepts only "off".
import type { Api, Model, ThinkingLevel } from "../types.js";

/** A thinking level, or "off" for no reasoning. */
export type ThinkingLevelOrOff = "off" | ThinkingLevel;

/** Every level, lowest first. */
export const THINKING_LEVELS_WITH_OFF: readonly ThinkingLevelOrOff[] = [
	"off",
	"minimal",
	"low",
	"medium",
	"high",
	"xhigh",
	"max",
];

const ORDER = THINKING_LEVELS_WITH_OFF;

type ThinkingModel = Pick<Model<Api>, "reasoning" | "thinkingLevelMap">;

/** The levels above "high" are opt-in: a model has them only when its map gives them a value. */
function isOptIn(level: ThinkingLevelOrOff): boolean {
	return level === "xhigh" || level === "max";
}

function isSupported(model: ThinkingModel, level: ThinkingLevelOrOff): boolean {
	if (!model.reasoning) return level === "off";
	const value = model.thinkingLevelMap?.[level];
	if (value === null) return false;
	if (isOptIn(level)) return typeof value === "string";
	return true;
}

/** The levels the model accepts, from "off" up to "max". */
export function getSupportedThinkingLevels(model: ThinkingModel): ThinkingLevelOrOff[] {
	return ORDER.filter((level) => isSupported(model, level));
}

/**
 * The nearest level the model accepts: the requested one if supported, else the next one up, else
 * the next one down (asking for "minimal" on a model that starts at "low" gives "low"; asking for
 * "max" where it does not exist gives "xhigh" when the model has it, else "high").
 */
export function clampThinkingLevel(model: ThinkingModel, level: ThinkingLevelOrOff): ThinkingLevelOrOff {
	const start = ORDER.indexOf(level);
	if (start === -1) {
		throw new Error(`Unknown thinking level "${level}". Expected one of: ${ORDER.join(", ")}.`);
	}
	const candidates = [...ORDER.slice(start), ...ORDER.slice(0, start).reverse()];
	// "off" is always a fallback for a model without reasoning, so a candidate always exists.
	return candidates.find((candidate) => isSupported(model, candidate)) ?? "off";
}

/** True when the model accepts the "xhigh" level (its map declares a value for it). */
export function supportsXhigh(model: ThinkingModel): boolean {
	return isSupported(model, "xhigh");
}

/** True when the model accepts the "max" level (its map declares a value for it). */
export function supportsMax(model: ThinkingModel): boolean {
	return isSupported(model, "max");
}

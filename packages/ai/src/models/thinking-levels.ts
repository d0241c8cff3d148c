// Which unified thinking levels a model accepts, from its `thinkingLevelMap`: a
// level mapped to null is rejected by the model; xhigh exists only where the map declares it; a
// model without reasoning accepts only "off".
import type { Api, Model, ThinkingLevel } from "../types.js";

/** A thinking level, or "off" for no reasoning. */
export type ThinkingLevelOrOff = "off" | ThinkingLevel;

const ORDER: readonly ThinkingLevelOrOff[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

type ThinkingModel = Pick<Model<Api>, "reasoning" | "thinkingLevelMap">;

function isSupported(model: ThinkingModel, level: ThinkingLevelOrOff): boolean {
	if (!model.reasoning) return level === "off";
	const value = model.thinkingLevelMap?.[level];
	if (value === null) return false;
	// xhigh is opt-in: supported only when the map gives it a value.
	if (level === "xhigh") return typeof value === "string";
	return true;
}

/** The levels the model accepts, from "off" up to "xhigh". */
export function getSupportedThinkingLevels(model: ThinkingModel): ThinkingLevelOrOff[] {
	return ORDER.filter((level) => isSupported(model, level));
}

/**
 * The nearest level the model accepts: the requested one if supported, else the next one up, else
 * the next one down (asking for "minimal" on a model that starts at "low" gives "low"; asking for
 * "xhigh" where it does not exist gives "high").
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

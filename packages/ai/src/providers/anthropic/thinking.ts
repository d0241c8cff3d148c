import { adjustMaxTokensForThinking } from "../../message/simple-options.js";
import type { Api, Model, ThinkingBudgets, ThinkingLevel } from "../../types.js";
import type { AnthropicEffort, AnthropicOptions } from "./options.js";

/** Thinking is only sent to reasoning models, and only when asked for. */
export function isThinkingEnabled(model: Model<Api>, options: AnthropicOptions): boolean {
	return model.reasoning && options.thinkingEnabled === true;
}

const EFFORT_VALUES: ReadonlySet<string> = new Set(["low", "medium", "high", "xhigh", "max"]);

// Claude model ids carry the version as `<family>-<major>-<minor>` or `<family>-<major>.<minor>`
// (claude-opus-4-6, claude-sonnet-4.6), or the major alone (claude-sonnet-5, claude-fable-5). The
// minor part is one or two digits, so a date suffix (claude-sonnet-4-20250514) is not mistaken for
// a minor version.
const CLAUDE_VERSION = /(opus|sonnet|haiku|fable)-(\d{1,2})(?!\d)(?:[-.](\d{1,2})(?!\d))?/;

/** The family and version a Claude model id names, or undefined for an id that names none. */
export function claudeVersion(modelId: string): { family: string; major: number; minor: number } | undefined {
	const match = CLAUDE_VERSION.exec(modelId.toLowerCase());
	if (!match) return undefined;
	return { family: match[1], major: Number(match[2]), minor: Number(match[3] ?? 0) };
}

export function isAtLeast(version: { major: number; minor: number }, major: number, minor: number): boolean {
	return version.major > major || (version.major === major && version.minor >= minor);
}

/**
 * Adaptive thinking (`thinking: {type: "adaptive"}` plus `output_config.effort`) replaces token
 * budgets from Claude 4.6 on. A catalogue `thinkingLevelMap` whose values are effort names also
 * marks a model as adaptive, so new models work without a code change.
 */
export function usesAdaptiveThinking(model: Model<Api>): boolean {
	const map = model.thinkingLevelMap;
	if (map && Object.values(map).some((value) => typeof value === "string" && EFFORT_VALUES.has(value))) return true;
	const version = claudeVersion(model.id);
	return version !== undefined && version.family !== "haiku" && isAtLeast(version, 4, 6);
}

const LEVEL_ORDER: readonly ThinkingLevel[] = ["minimal", "low", "medium", "high", "xhigh", "max"];

/** The effort for a level by Anthropic's id rules, used when the catalogue gives no map. */
function effortByModelId(model: Model<Api>, level: ThinkingLevel): AnthropicEffort {
	if (level === "minimal" || level === "low") return "low";
	if (level === "medium") return "medium";
	if (level === "high") return "high";
	const version = claudeVersion(model.id);
	// max: every adaptive-thinking model (Claude 4.6 and later) takes effort "max"
	// (https://docs.claude.com/en/docs/build-with-claude/effort); older ones top out at high.
	if (level === "max") return usesAdaptiveThinking(model) ? "max" : "high";
	// xhigh: Opus 4.7 and later have a distinct "xhigh"; Opus 4.6 only "max"; others top out at high.
	if (version?.family === "opus" && isAtLeast(version, 4, 7)) return "xhigh";
	if (version?.family === "opus" && isAtLeast(version, 4, 6)) return "max";
	return "high";
}

/**
 * The `output_config.effort` for a unified thinking level. With a catalogue map, the map's value
 * wins; a level the map marks unsupported (null, or an undeclared xhigh or max) moves to the nearest
 * supported one, upward first. Levels the map leaves out follow Anthropic's id rules.
 */
export function effortForThinkingLevel(model: Model<Api>, level: ThinkingLevel): AnthropicEffort {
	const map = model.thinkingLevelMap;
	if (!map) return effortByModelId(model, level);
	const start = LEVEL_ORDER.indexOf(level);
	const candidates = [...LEVEL_ORDER.slice(start), ...LEVEL_ORDER.slice(0, start).reverse()];
	for (const candidate of candidates) {
		const value = map[candidate];
		// As in models/thinking-levels.ts: null means unsupported; xhigh and max exist only when declared.
		if (value === null || ((candidate === "xhigh" || candidate === "max") && value === undefined)) continue;
		if (typeof value === "string" && EFFORT_VALUES.has(value)) return value as AnthropicEffort;
		if (value === undefined) return effortByModelId(model, candidate);
	}
	return effortByModelId(model, level);
}

/**
 * The thinking fields for a Claude model at a unified reasoning level, shared by the Messages API and
 * Bedrock's Converse (the same models): adaptive thinking with an effort on Claude 4.6 and later,
 * else a token budget added on top of maxTokens.
 */
export function claudeThinkingFields(
	model: Model<Api>,
	maxTokens: number | undefined,
	level: ThinkingLevel,
	budgets: ThinkingBudgets | undefined,
): { thinkingEnabled: true; effort?: AnthropicEffort; maxTokens?: number; thinkingBudgetTokens?: number } {
	if (usesAdaptiveThinking(model)) return { thinkingEnabled: true, effort: effortForThinkingLevel(model, level) };
	const adjusted = adjustMaxTokensForThinking(maxTokens ?? model.maxTokens, model.maxTokens, level, budgets);
	return { thinkingEnabled: true, maxTokens: adjusted.maxTokens, thinkingBudgetTokens: adjusted.thinkingBudget };
}

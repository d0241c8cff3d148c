// How a unified reasoning level becomes Gemini's thinking configuration.
// @see https://ai.google.dev/gemini-api/docs/thinking
import { clampReasoning } from "../../message/simple-options.js";
import type { Api, Model, ThinkingBudgets, ThinkingLevel } from "../../types.js";
import type { GoogleThinkingLevel } from "./options.js";

const THINKING_LEVELS: ReadonlySet<string> = new Set(["MINIMAL", "LOW", "MEDIUM", "HIGH"]);
const GEMINI_3 = /gemini-(\d+)(?:\.\d+)?-/;

/** Gemini 3 and later take a thinking level instead of a token budget. */
export function usesThinkingLevels(model: Model<Api>): boolean {
	const map = model.thinkingLevelMap;
	if (map && Object.values(map).some((value) => typeof value === "string" && THINKING_LEVELS.has(value))) return true;
	const match = GEMINI_3.exec(model.id.toLowerCase());
	return match !== null && Number(match[1]) >= 3;
}

/** Gemini 3 Pro knows only LOW and HIGH; Flash also MINIMAL and MEDIUM. The catalogue's map wins. */
export function geminiThinkingLevel(model: Model<Api>, level: ThinkingLevel): GoogleThinkingLevel {
	const mapped = model.thinkingLevelMap?.[level];
	if (typeof mapped === "string" && THINKING_LEVELS.has(mapped)) return mapped as GoogleThinkingLevel;
	const pro = model.id.toLowerCase().includes("-pro");
	if (level === "minimal") return pro ? "LOW" : "MINIMAL";
	if (level === "low") return "LOW";
	if (level === "medium") return pro ? "HIGH" : "MEDIUM";
	return "HIGH";
}

// Gemini 2.5's budget ranges: Pro 128–32768 (thinking cannot be turned off), Flash 0–24576,
// Flash-Lite 512–24576. Each level maps inside its model's range.
const PRO_BUDGETS = { minimal: 128, low: 2048, medium: 8192, high: 32768 };
const FLASH_BUDGETS = { minimal: 128, low: 2048, medium: 8192, high: 24576 };
const FLASH_LITE_BUDGETS = { minimal: 512, low: 2048, medium: 8192, high: 24576 };

/**
 * The token budget for a level: the caller's budgets first, then the model's table, else -1
 * (dynamic). xhigh and max take the high budget, which is already the top of each model's range.
 */
export function geminiThinkingBudget(model: Model<Api>, level: ThinkingLevel, custom?: ThinkingBudgets): number {
	const key = clampReasoning(level);
	const own = custom?.[key];
	if (own !== undefined) return own;
	const id = model.id.toLowerCase();
	if (id.includes("2.5-pro")) return PRO_BUDGETS[key];
	if (id.includes("2.5-flash-lite")) return FLASH_LITE_BUDGETS[key];
	if (id.includes("2.5-flash")) return FLASH_BUDGETS[key];
	return -1;
}

import type { Api, Model, SimpleStreamOptions, StreamOptions, ThinkingBudgets, ThinkingLevel } from "../types.js";
import { resolveSamplingParams } from "./sampling-params.js";

/** Default token budgets per level; xhigh and max use the high budget. */
export const DEFAULT_THINKING_BUDGETS: Readonly<Required<ThinkingBudgets>> = {
	minimal: 1024,
	low: 2048,
	medium: 8192,
	high: 16384,
};

/** The default maxTokens for unified calls: the model's limit, capped at 32000. */
export function defaultMaxTokens(model: Model<Api>): number {
	return Math.min(model.maxTokens, 32000);
}

/**
 * The StreamOptions every provider understands, taken from unified options. `maxTokens: 0` is
 * kept as given (it is not treated as unset); only undefined falls back to the default.
 */
export function buildBaseOptions(model: Model<Api>, options: SimpleStreamOptions | undefined): StreamOptions {
	return {
		temperature: options?.temperature,
		samplingParams: resolveSamplingParams(model, options?.reasoning ?? "off", options?.samplingParams),
		maxTokens: options?.maxTokens ?? defaultMaxTokens(model),
		signal: options?.signal,
		apiKey: options?.apiKey,
		transport: options?.transport,
		cacheRetention: options?.cacheRetention,
		sessionId: options?.sessionId,
		headers: options?.headers,
		onPayload: options?.onPayload,
		onResponse: options?.onResponse,
		onRawEvent: options?.onRawEvent,
		timeoutMs: options?.timeoutMs,
		idleTimeoutMs: options?.idleTimeoutMs,
		maxRetries: options?.maxRetries,
		maxRetryDelayMs: options?.maxRetryDelayMs,
		metadata: options?.metadata,
	};
}

/** maxTokens must be a whole number ≥ 0; createProviderStream ends a call with any other value with a clear error. */
export function isValidMaxTokens(maxTokens: number): boolean {
	return Number.isInteger(maxTokens) && maxTokens >= 0;
}

/** xhigh and max become high (budgets stop at high); other levels are unchanged. */
export function clampReasoning(level: ThinkingLevel): Exclude<ThinkingLevel, "xhigh" | "max"> {
	return level === "xhigh" || level === "max" ? "high" : level;
}

/** The budget for a level: custom first, then the defaults (xhigh and max use high). */
export function thinkingBudgetFor(level: ThinkingLevel, custom?: ThinkingBudgets): number {
	const key = clampReasoning(level);
	return custom?.[key] ?? DEFAULT_THINKING_BUDGETS[key];
}

/**
 * For budget-based thinking: room for the answer on top of the budget, within the model's limit.
 * When the limit leaves no room, the budget shrinks to leave 1024 tokens for the answer.
 */
export function adjustMaxTokensForThinking(
	baseMaxTokens: number,
	modelMaxTokens: number,
	level: ThinkingLevel,
	customBudgets?: ThinkingBudgets,
): { maxTokens: number; thinkingBudget: number } {
	// Returned unchanged so the provider harness reports it as an error event (this runs before it, where throwing is not allowed).
	if (!isValidMaxTokens(baseMaxTokens)) return { maxTokens: baseMaxTokens, thinkingBudget: 0 };
	let thinkingBudget = thinkingBudgetFor(level, customBudgets);
	const maxTokens = Math.min(baseMaxTokens + thinkingBudget, modelMaxTokens);
	if (maxTokens <= thinkingBudget) thinkingBudget = Math.max(0, maxTokens - 1024);
	return { maxTokens, thinkingBudget };
}

/** The cache retention in force: the option, else KEEL_CACHE_RETENTION / PI_CACHE_RETENTION, else short. */
export function resolveCacheRetention(
	option: StreamOptions["cacheRetention"],
): NonNullable<StreamOptions["cacheRetention"]> {
	if (option) return option;
	const fromEnv =
		typeof process !== "undefined" ? (process.env.KEEL_CACHE_RETENTION ?? process.env.PI_CACHE_RETENTION) : undefined;
	return fromEnv === "long" || fromEnv === "none" ? fromEnv : "short";
}

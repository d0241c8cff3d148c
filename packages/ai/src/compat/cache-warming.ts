// The numbers behind prompt-cache warming: when to refresh a cache entry before it expires, with what
// request, and whether the refresh pays for itself. The host schedules; these functions only decide.
// Anthropic's cache lifetimes (5 minutes, or 1 hour with the longer TTL):
// https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
import { calculateCost } from "../models/cost.js";
import type { Api, CacheRetention, Model, Usage } from "../types.js";

/** Warming that follows streaming never runs longer than this after the real request that started it. */
export const CACHE_WARMING_MAX_AGE_MS = 60 * 60_000;
/** Warming while the agent is idle stops sooner: the chance of another request fades with time. */
export const CACHE_WARMING_MAX_IDLE_AGE_MS = 30 * 60_000;
/** A refresh is sent only when it is expected to save at least this many dollars. */
export const CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS = 0.05;
/** The chance that a real request comes before the entry expires while the agent is idle. */
export const CACHE_WARMING_IDLE_CONTINUATION_PROBABILITY = 0.15;

/** Whether warming follows a streaming request or runs while the agent waits for the user. */
export type CacheWarmingPhase = "streaming" | "idle";

/** What `evaluateCacheWarming` found: the costs (USD), the expected saving, and whether to warm. */
export interface CacheWarmingDecision {
	phase: CacheWarmingPhase;
	warmCost: number;
	missCost: number;
	continuationProbability: number;
	expectedSavings: number;
	economicsAvailable: boolean;
	action: "warm" | "stop";
}

/** A model's prompt-cache lifetimes in seconds, per retention tier. */
export interface PromptCacheLifetimes {
	short?: number;
	long?: number;
}

/** When to refresh an entry living `ttlMs`: at 90% of it, keeping at least ten seconds spare; never for ten seconds or less. */
export function getCacheWarmingDelayMs(ttlMs: number): number | undefined {
	if (ttlMs <= 10_000) return undefined;
	return Math.max(1, Math.floor(Math.min(ttlMs * 0.9, ttlMs - 10_000)));
}

function environmentValue(name: string, env?: Record<string, string | undefined>): string | undefined {
	if (env) return env[name];
	return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
}

/**
 * How long (ms) the cache entry a request writes lives, from the model's `promptCache` lifetime for the
 * retention used (`options.cacheRetention`, else `PI_CACHE_RETENTION=long`, else short). Undefined when
 * caching is off or the model lists no lifetime for that tier.
 */
export function getPromptCacheTtlMs(
	model: { promptCache?: PromptCacheLifetimes },
	options?: { cacheRetention?: CacheRetention; env?: Record<string, string | undefined> },
): number | undefined {
	const retention =
		options?.cacheRetention ?? (environmentValue("PI_CACHE_RETENTION", options?.env) === "long" ? "long" : "short");
	if (retention === "none") return undefined;
	const seconds = model.promptCache?.[retention];
	return seconds === undefined ? undefined : seconds * 1000;
}

/**
 * Whether repeating a request with a one-token output cap keeps its cache entry. Anthropic's
 * budget-based thinking derives the thinking budget from `max_tokens`, and the cache is keyed on it
 * (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#extended-thinking-with-prompt-caching),
 * so such a replay misses unless the model thinks adaptively.
 */
export function isCacheWarmingReplayable(
	model: Pick<Model<Api>, "api"> & { compat?: unknown },
	options?: { reasoning?: unknown },
): boolean {
	if (!options?.reasoning || model.api !== "anthropic-messages") return true;
	return (model.compat as { forceAdaptiveThinking?: boolean } | undefined)?.forceAdaptiveThinking === true;
}

/** The refresh's options: the request's own, capped at one output token, with no retries and no continuation. */
export function getCacheWarmingRequestOptions<Options extends object>(
	options: Options,
	signal?: AbortSignal,
): Options & { maxTokens: number; disableContinuation: true; maxRetries: number; signal: AbortSignal | undefined } {
	return { ...options, maxTokens: 1, disableContinuation: true, maxRetries: 0, signal };
}

function price(model: Pick<Model<Api>, "cost">, tokens: Partial<Usage>): number {
	const usage: Usage = {
		input: 0,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 0,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		...tokens,
	};
	return calculateCost(model, usage).total;
}

/** Whether refreshing the cache entry of a `promptTokens`-token request pays for itself in `phase`. */
export function evaluateCacheWarming(
	model: Pick<Model<Api>, "cost">,
	promptTokens: number,
	phase: CacheWarmingPhase,
): CacheWarmingDecision {
	const hitCost = price(model, { cacheRead: promptTokens });
	const coldCost = price(model, model.cost.cacheWrite > 0 ? { cacheWrite: promptTokens } : { input: promptTokens });
	const warmCost = price(model, { cacheRead: promptTokens, output: 1 });
	const missCost = Math.max(0, coldCost - hitCost);
	const continuationProbability = phase === "idle" ? CACHE_WARMING_IDLE_CONTINUATION_PROBABILITY : 1;
	const expectedSavings = continuationProbability * missCost - warmCost;
	return {
		phase,
		warmCost,
		missCost,
		continuationProbability,
		expectedSavings,
		economicsAvailable: promptTokens > 0 && (hitCost > 0 || coldCost > 0),
		action: expectedSavings >= CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS ? "warm" : "stop",
	};
}

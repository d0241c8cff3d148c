// The limits in ms a browser may ask the proxy server for, and the ranges the server clamps them
// into. Shared by the server (which clamps) and streamProxy (whose own watchdogs trail the server's).

/** The stream options that are limits in ms, each clamped into a range the server configures. */
export const LIMIT_OPTION_NAMES = ["timeoutMs", "idleTimeoutMs", "maxRetryDelayMs"] as const;
export type LimitOptionName = (typeof LIMIT_OPTION_NAMES)[number];

/** Inclusive bounds in ms for one limit a browser may send. */
export interface ProxyLimitRange {
	min: number;
	max: number;
}
export type ProxyLimitRanges = Record<LimitOptionName, ProxyLimitRange>;

/**
 * The default ranges. Idle: long enough for a slow first token, short enough that a stalled provider
 * is dropped within minutes. Total: the longest reasoning calls run for tens of minutes. Retry delay:
 * @keel/ai's own default cap (60 s) is the most a browser may make the server wait.
 */
export const DEFAULT_LIMIT_RANGES: ProxyLimitRanges = {
	timeoutMs: { min: 1_000, max: 30 * 60_000 },
	idleTimeoutMs: { min: 1_000, max: 5 * 60_000 },
	maxRetryDelayMs: { min: 1_000, max: 60_000 },
};

/** The value clamped into its range; 0 and Infinity (no limit, in @keel/ai) become the maximum. */
export function clampLimit(value: number, range: ProxyLimitRange): number {
	if (value === 0 || value > range.max) return range.max;
	return Math.max(value, range.min);
}

/** The server's ranges: the defaults with the configured ones over them. Throws on a bad range. */
export function resolveLimitRanges(configured: Partial<ProxyLimitRanges> | undefined): ProxyLimitRanges {
	const ranges = { ...DEFAULT_LIMIT_RANGES };
	for (const name of LIMIT_OPTION_NAMES) {
		const range = configured?.[name];
		if (range === undefined) continue;
		const { min, max } = (range ?? {}) as Partial<ProxyLimitRange>;
		if (!(typeof min === "number" && typeof max === "number" && min > 0 && max >= min && max <= 2 ** 31 - 1)) {
			throw new Error(
				`Proxy handler: options.limitRanges.${name} must be { min, max } with 0 < min <= max <= 2147483647 ms, got ${JSON.stringify(range)}`,
			);
		}
		ranges[name] = { min, max };
	}
	return ranges;
}

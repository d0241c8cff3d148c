// Usage arithmetic shared by everything that totals model calls: a structured-output call that
// retried, an agent run as a tool, a log of a whole conversation.
import type { Usage } from "../types.js";

/** A usage of zero tokens and zero cost (a new object each call: totals are added into in place). */
export function emptyUsage(): Usage {
	return {
		input: 0,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 0,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

/** Adds `usage` into `total` (in place), tokens and each part of the cost, and returns `total`. */
export function addUsage(total: Usage, usage: Usage): Usage {
	total.input += usage.input;
	total.output += usage.output;
	total.cacheRead += usage.cacheRead;
	total.cacheWrite += usage.cacheWrite;
	total.totalTokens += usage.totalTokens;
	total.cost.input += usage.cost.input;
	total.cost.output += usage.cost.output;
	total.cost.cacheRead += usage.cost.cacheRead;
	total.cost.cacheWrite += usage.cost.cacheWrite;
	total.cost.total += usage.cost.total;
	return total;
}

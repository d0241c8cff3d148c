// What a transcript cost: the usage of every assistant message (the conversation's own model calls)
// plus the usage tools reported on their results (a tool that calls a model, an agent run as a tool
// — whose own usage already holds what its tools spent). The Agent keeps no running total: the
// transcript is the record, and summing it is cheap.
import { addUsage, emptyUsage, type Usage } from "@keel/ai";
import type { AgentMessage } from "./types.js";

// Re-exported: programs that total usage by hand import them from either package.
export { addUsage, emptyUsage };

/**
 * The tokens and cost of a transcript: every assistant message's `usage` and every toolResult
 * message's `usage` (what a tool spent itself, such as an agent run as a tool), added up. Messages of
 * other roles, and usage that is not a well-formed Usage (a hand-made message), count as zero.
 */
export function sumUsage(messages: readonly AgentMessage[]): Usage {
	if (!Array.isArray(messages)) {
		throw new TypeError(`sumUsage() takes an array of messages, got ${messages === null ? "null" : typeof messages}`);
	}
	const total = emptyUsage();
	for (const message of messages) {
		const role = (message as { role?: unknown } | null)?.role;
		if (role !== "assistant" && role !== "toolResult") continue;
		const usage = (message as { usage?: unknown }).usage;
		if (isUsage(usage)) addUsage(total, usage);
	}
	return total;
}

const TOKEN_FIELDS = ["input", "output", "cacheRead", "cacheWrite", "totalTokens"] as const;
const COST_FIELDS = ["input", "output", "cacheRead", "cacheWrite", "total"] as const;

function isUsage(value: unknown): value is Usage {
	if (typeof value !== "object" || value === null) return false;
	const usage = value as Record<string, unknown>;
	if (!TOKEN_FIELDS.every((field) => Number.isFinite(usage[field]))) return false;
	const cost = usage.cost as Record<string, unknown> | null | undefined;
	return typeof cost === "object" && cost !== null && COST_FIELDS.every((field) => Number.isFinite(cost[field]));
}

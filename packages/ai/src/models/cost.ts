import type { Api, Model, Usage, UsageCost } from "../types.js";

/** Multipliers on list prices for OpenAI service tiers. */
export const SERVICE_TIER_COST_MULTIPLIERS: Readonly<Record<string, number>> = { flex: 0.5, priority: 2 };

/**
 * Fills `usage.cost` from the model's $/million-token rates and returns it. A service tier
 * (`flex`, `priority`) scales every component.
 */
export function calculateCost(model: Pick<Model<Api>, "cost">, usage: Usage, serviceTier?: string): UsageCost {
	const multiplier = (serviceTier && SERVICE_TIER_COST_MULTIPLIERS[serviceTier]) || 1;
	const rate = (perMillion: number, tokens: number) => ((perMillion * tokens) / 1_000_000) * multiplier;
	const cost = usage.cost;
	cost.input = rate(model.cost.input, usage.input);
	cost.output = rate(model.cost.output, usage.output);
	cost.cacheRead = rate(model.cost.cacheRead, usage.cacheRead);
	cost.cacheWrite = rate(model.cost.cacheWrite, usage.cacheWrite);
	cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
	return cost;
}

import type { Api, Model, ModelCost, ModelCostTier, Usage, UsageCost } from "../types.js";

/** Multipliers on list prices for OpenAI service tiers. */
export const SERVICE_TIER_COST_MULTIPLIERS: Readonly<Record<string, number>> = { flex: 0.5, priority: 2 };

/** The prices that apply to a request of this size: the highest long-context tier it exceeds, else the base prices. */
function pricesFor(cost: ModelCost, usage: Usage): ModelCost | ModelCostTier {
	if (!cost.tiers || cost.tiers.length === 0) return cost;
	const promptTokens = usage.input + usage.cacheRead + usage.cacheWrite;
	let applied: ModelCost | ModelCostTier = cost;
	for (const tier of cost.tiers) {
		if (
			promptTokens > tier.inputTokensAbove &&
			(applied === cost || tier.inputTokensAbove > (applied as ModelCostTier).inputTokensAbove)
		) {
			applied = tier;
		}
	}
	return applied;
}

/**
 * Fills `usage.cost` from the model's $/million-token rates and returns it. Long-context tiers
 * (`cost.tiers`) apply when the prompt is above their threshold. A service tier (`flex`,
 * `priority`) scales every component.
 */
export function calculateCost(model: Pick<Model<Api>, "cost">, usage: Usage, serviceTier?: string): UsageCost {
	const multiplier = (serviceTier && SERVICE_TIER_COST_MULTIPLIERS[serviceTier]) || 1;
	const rate = (perMillion: number, tokens: number) => ((perMillion * tokens) / 1_000_000) * multiplier;
	const prices = pricesFor(model.cost, usage);
	const cost = usage.cost;
	cost.input = rate(prices.input, usage.input);
	cost.output = rate(prices.output, usage.output);
	cost.cacheRead = rate(prices.cacheRead, usage.cacheRead);
	cost.cacheWrite = rate(prices.cacheWrite, usage.cacheWrite);
	cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
	return cost;
}

import { describe, expect, it } from "vitest";
import { calculateCost, getModel, SERVICE_TIER_COST_MULTIPLIERS, type Usage } from "../src/index.js";

function usage(input: number, output: number, cacheRead = 0, cacheWrite = 0): Usage {
	return {
		input,
		output,
		cacheRead,
		cacheWrite,
		totalTokens: input + output + cacheRead + cacheWrite,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

describe("calculateCost", () => {
	it("prices each part at its per-million rate, cache reads and writes included", () => {
		// Claude Sonnet 4.5: $3 in, $15 out, $0.30 cache read, $3.75 cache write per million.
		const model = getModel("anthropic", "claude-sonnet-4-5");
		const cost = calculateCost(model, usage(1_000_000, 200_000, 2_000_000, 400_000));
		expect(cost.input).toBeCloseTo(3, 10);
		expect(cost.output).toBeCloseTo(3, 10);
		expect(cost.cacheRead).toBeCloseTo(0.6, 10);
		expect(cost.cacheWrite).toBeCloseTo(1.5, 10);
		expect(cost.total).toBeCloseTo(8.1, 10);
	});

	it("bills a prompt above a long-context tier's threshold at that tier's prices", () => {
		const model = {
			cost: {
				input: 2,
				output: 10,
				cacheRead: 0.2,
				cacheWrite: 0,
				tiers: [
					{ inputTokensAbove: 500_000, input: 8, output: 40, cacheRead: 0.8, cacheWrite: 0 },
					{ inputTokensAbove: 200_000, input: 4, output: 20, cacheRead: 0.4, cacheWrite: 0 },
				],
			},
		};
		// 100k input + 150k cache reads = 250k prompt tokens: above 200k, below 500k.
		const cost = calculateCost(model, usage(100_000, 10_000, 150_000));
		expect(cost.input).toBeCloseTo(0.4, 10);
		expect(cost.output).toBeCloseTo(0.2, 10);
		expect(cost.cacheRead).toBeCloseTo(0.06, 10);
		expect(calculateCost(model, usage(200_000, 0)).input).toBeCloseTo(0.4, 10);
		expect(calculateCost(model, usage(600_000, 0)).input).toBeCloseTo(4.8, 10);
	});

	it("fills usage.cost in place and returns that same object", () => {
		const counted = usage(1000, 1000);
		const cost = calculateCost(getModel("openai", "gpt-5.1"), counted);
		expect(cost).toBe(counted.cost);
		expect(counted.cost.total).toBeCloseTo((1000 * 1.25 + 1000 * 10) / 1e6, 12);
	});

	it("scales every part by the service tier: flex halves, priority doubles", () => {
		const model = getModel("openai", "gpt-5.1");
		const standard = calculateCost(model, usage(10_000, 5000, 20_000)).total;
		expect(calculateCost(model, usage(10_000, 5000, 20_000), "flex").total).toBeCloseTo(standard * 0.5, 12);
		expect(calculateCost(model, usage(10_000, 5000, 20_000), "priority").total).toBeCloseTo(standard * 2, 12);
		expect(SERVICE_TIER_COST_MULTIPLIERS).toEqual({ flex: 0.5, priority: 2 });
	});

	it("an unknown or default tier leaves prices unchanged", () => {
		const model = getModel("openai", "gpt-5.1");
		const standard = calculateCost(model, usage(10_000, 5000)).total;
		expect(calculateCost(model, usage(10_000, 5000), "default").total).toBe(standard);
		expect(calculateCost(model, usage(10_000, 5000), "scale").total).toBe(standard);
	});

	it("a free model costs nothing", () => {
		expect(calculateCost(getModel("openai-codex", "gpt-5.2"), usage(50_000, 50_000, 10_000, 10_000)).total).toBe(0);
	});
});

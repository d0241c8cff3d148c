// How the CLI writes token counts and money: read at a glance, never "0.000" for a cost that is not zero.
import { describe, expect, it } from "vitest";
import { formatCost, formatUsage } from "../src/answer-output.js";
import { formatPrice, formatTokenCount } from "../src/commands/models.js";

describe("number formatting", () => {
	it("context windows in k and M", () => {
		expect([999, 8192, 200_000, 1_048_576, 2_000_000].map(formatTokenCount)).toEqual([
			"999",
			"8.2k",
			"200k",
			"1M",
			"2M",
		]);
	});

	it("prices per million tokens, with '-' for a zero price", () => {
		expect([0, 3, 0.15, 0.075, 1.2345].map(formatPrice)).toEqual(["-", "3", "0.15", "0.075", "1.235"]);
	});

	it("costs keep two significant digits below a cent", () => {
		expect([0, 0.0000012, 0.0051234, 0.25, 12.3456].map(formatCost)).toEqual([
			"$0",
			"$0.0000012",
			"$0.0051",
			"$0.2500",
			"$12.35",
		]);
	});

	it("usage lists cache tokens only when there are some", () => {
		const cost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.0123 };
		expect(formatUsage({ input: 1200, output: 34, cacheRead: 0, cacheWrite: 0, totalTokens: 1234, cost })).toBe(
			"1,200 in, 34 out · $0.0123",
		);
		expect(formatUsage({ input: 1, output: 2, cacheRead: 3, cacheWrite: 4, totalTokens: 10, cost })).toBe(
			"1 in, 2 out, 3 cache read, 4 cache write · $0.0123",
		);
	});
});

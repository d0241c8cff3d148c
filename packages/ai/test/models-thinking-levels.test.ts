import { describe, expect, it } from "vitest";
import { clampThinkingLevel, getModel, getSupportedThinkingLevels, supportsXhigh } from "../src/index.js";

const plainReasoning = { reasoning: true };
const noReasoning = { reasoning: false };

describe("getSupportedThinkingLevels", () => {
	it("a model without reasoning supports only off", () => {
		expect(getSupportedThinkingLevels(noReasoning)).toEqual(["off"]);
		expect(getSupportedThinkingLevels(getModel("openai", "gpt-4.1"))).toEqual(["off"]);
	});

	it("a reasoning model without a map supports off through high, not xhigh", () => {
		expect(getSupportedThinkingLevels(plainReasoning)).toEqual(["off", "minimal", "low", "medium", "high"]);
	});

	it("levels mapped to null are left out; xhigh appears only when the map declares it", () => {
		expect(getSupportedThinkingLevels(getModel("openai", "gpt-5.2"))).toEqual([
			"off",
			"low",
			"medium",
			"high",
			"xhigh",
		]);
		expect(getSupportedThinkingLevels(getModel("openai", "o3"))).toEqual(["low", "medium", "high"]);
		expect(getSupportedThinkingLevels(getModel("openai-codex", "gpt-5.1-codex-mini"))).toEqual(["medium", "high"]);
	});
});

describe("clampThinkingLevel", () => {
	it("keeps a supported level", () => {
		expect(clampThinkingLevel(getModel("openai", "gpt-5.2"), "medium")).toBe("medium");
	});

	it("searches upward first: minimal on a model that starts at low gives low", () => {
		expect(clampThinkingLevel(getModel("openai", "gpt-5.2"), "minimal")).toBe("low");
		expect(clampThinkingLevel(getModel("openai", "o3"), "off")).toBe("low");
		expect(clampThinkingLevel(getModel("openai-codex", "gpt-5.1-codex-mini"), "minimal")).toBe("medium");
	});

	it("then downward: xhigh where it does not exist gives high", () => {
		expect(clampThinkingLevel(getModel("anthropic", "claude-sonnet-4-5"), "xhigh")).toBe("high");
		expect(clampThinkingLevel({ reasoning: true, thinkingLevelMap: { high: null } }, "xhigh")).toBe("medium");
	});

	it("a model without reasoning clamps every level to off", () => {
		expect(clampThinkingLevel(noReasoning, "high")).toBe("off");
	});

	it("rejects an unknown level with a clear error", () => {
		// @ts-expect-error not a level
		expect(() => clampThinkingLevel(plainReasoning, "maximum")).toThrow(
			'Unknown thinking level "maximum". Expected one of: off, minimal, low, medium, high, xhigh, max.',
		);
	});
});

describe("supportsXhigh", () => {
	it("is true only where the catalogue map declares xhigh", () => {
		expect(supportsXhigh(getModel("openai", "gpt-5.2"))).toBe(true);
		expect(supportsXhigh(getModel("openai-codex", "gpt-5.1-codex-max"))).toBe(true);
		expect(supportsXhigh(getModel("anthropic", "claude-opus-4-6"))).toBe(true);
		expect(supportsXhigh(getModel("openrouter", "openai/gpt-5.1"))).toBe(false);
		expect(supportsXhigh(getModel("openai", "gpt-5.1"))).toBe(false);
		expect(supportsXhigh(getModel("anthropic", "claude-sonnet-4-5"))).toBe(false);
	});

	it("follows the model family through a vendor prefix (OpenRouter)", () => {
		expect(getModel("openrouter", "openai/gpt-5").thinkingLevelMap).toEqual({ off: "minimal" });
	});

	it("is false for a model without reasoning, whatever its map says", () => {
		expect(supportsXhigh({ reasoning: false, thinkingLevelMap: { xhigh: "xhigh" } })).toBe(false);
	});
});

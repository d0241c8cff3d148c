// Rows and level maps the newest toolkit list has: Bedrock's Claude Fable, and an xhigh level for
// every model whose vendor effort tops out at "max".
import { describe, expect, it } from "vitest";
import { thinkingLevelMapFor } from "../catalog/generator/thinking-levels.js";
import { loadToolkitCatalogues } from "../catalog/generator/toolkit-catalogues.js";
import { findModel, getSupportedThinkingLevels } from "../src/index.js";

describe("Bedrock Claude Fable", () => {
	it.each([
		"anthropic.claude-fable-5",
		"us.anthropic.claude-fable-5",
		"global.anthropic.claude-fable-5",
		"anthropic.claude-fable-5-1",
	])("lists %s with Claude's Converse flags, 1M context and 128K output", (id) => {
		const model = findModel("amazon-bedrock", id);
		expect(model?.api).toBe("bedrock-converse-stream");
		expect(model?.compat).toEqual({
			supportsToolUse: true,
			supportsSystemPrompt: true,
			supportsPromptCache: true,
			claudeThinking: true,
		});
		expect(model?.contextWindow).toBe(1_000_000);
		expect(model?.maxTokens).toBe(128_000);
	});

	it("cannot turn Fable's thinking off (AWS: adaptive thinking is always on)", () => {
		const model = findModel("amazon-bedrock", "us.anthropic.claude-fable-5");
		expect(model && getSupportedThinkingLevels(model)).toEqual(["minimal", "low", "medium", "high", "xhigh", "max"]);
	});
});

describe("models whose vendor effort tops out at max", () => {
	it("reach max through xhigh on every row that keeps a map, where the newest toolkit list has max and no xhigh", async () => {
		const [newest] = await loadToolkitCatalogues();
		const wrong: string[] = [];
		for (const row of newest.models) {
			const map = row.thinkingLevelMap as Record<string, string | null> | undefined;
			if (!map || typeof map.max !== "string" || typeof map.xhigh === "string") continue;
			const model = findModel(row.provider, row.id);
			// Rows Keel leaves out, and rows whose map Keel's rules drop (Claude behind a Chat Completions
			// router, other vendors' models on the Messages API), have nothing to check.
			if (!model?.thinkingLevelMap) continue;
			if (model.thinkingLevelMap.xhigh !== map.max)
				wrong.push(`${row.provider}/${row.id}: ${JSON.stringify(model.thinkingLevelMap)}`);
		}
		expect(wrong).toEqual([]);
	});

	it("offer the max level itself on every row that keeps a map, where the newest toolkit list has max", async () => {
		const [newest] = await loadToolkitCatalogues();
		const wrong: string[] = [];
		let checked = 0;
		for (const row of newest.models) {
			const map = row.thinkingLevelMap as Record<string, string | null> | undefined;
			if (!map || typeof map.max !== "string") continue;
			const model = findModel(row.provider, row.id);
			// A row Keel calls through another API than the toolkit's does not take the toolkit's map.
			if (!model?.thinkingLevelMap || model.api !== row.api) continue;
			checked++;
			if (!getSupportedThinkingLevels(model).includes("max") || model.thinkingLevelMap.max !== map.max)
				wrong.push(`${row.provider}/${row.id}: ${JSON.stringify(model.thinkingLevelMap)}`);
		}
		expect(wrong).toEqual([]);
		expect(checked).toBeGreaterThan(100);
	});

	it("gives Claude Opus 4.6 xhigh as max by family rule, and Sonnet 4.6 the same from the sources", () => {
		expect(thinkingLevelMapFor("claude-opus-4-6", true, "anthropic-messages")?.xhigh).toBe("max");
		for (const [provider, id] of [
			["anthropic", "claude-sonnet-4-6"],
			["anthropic", "claude-opus-4-6"],
			["amazon-bedrock", "us.anthropic.claude-sonnet-4-6"],
		] as const) {
			expect(findModel(provider, id)?.thinkingLevelMap?.xhigh, `${provider}/${id}`).toBe("max");
		}
	});
});

// How the generator merges its offline sources: models.dev, the toolkits' published model lists and
// the price table. For each row, each field comes from the newest source that has it; provenance
// says which; curated rows stay on top.
import { describe, expect, it } from "vitest";
import { buildCatalogue } from "../catalog/generator/build-catalogue.js";
import { convertToolkitModel, toKeelThinkingLevelMap } from "../catalog/generator/convert.js";
import { sameModelName } from "../catalog/generator/price-tables.js";
import { ruleForProvider } from "../catalog/generator/providers.js";
import { renderCatalogueFiles } from "../catalog/generator/render.js";
import { providerDataOfFile } from "../catalog/generator/report.js";
import type { SourceData, ToolkitModel } from "../catalog/generator/source-types.js";
import { loadToolkitCatalogues } from "../catalog/generator/toolkit-catalogues.js";
import { MODEL_RETIREMENTS } from "../catalog/index.js";
import { findModel, getModel, getModels, getProviders } from "../src/index.js";
import { decodeProviderModels } from "../src/models/catalogue-rows.js";

function toolkitRow(id: string, extra: Partial<ToolkitModel> = {}): ToolkitModel {
	return {
		id,
		name: id.toUpperCase(),
		api: "openai-completions",
		provider: "groq",
		reasoning: false,
		input: ["text"],
		cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 100_000,
		maxTokens: 10_000,
		...extra,
	};
}

function sources(partial: Partial<SourceData>): SourceData {
	return { origin: "offline", modelsDev: {}, ...partial };
}

describe("merging sources", () => {
	it("takes each field from the newest source that has it and records where it came from", () => {
		const { models, provenance } = buildCatalogue({
			sources: sources({
				modelsDevSnapshot: { name: "snapshot@1", published: "2026-01-01" },
				modelsDev: {
					groq: {
						id: "groq",
						models: {
							m: {
								id: "m",
								name: "Old name",
								tool_call: true,
								cost: { input: 9, output: 9 },
								limit: { context: 50_000, output: 5000 },
							},
						},
					},
				},
				toolkits: [
					{
						name: "newer@2",
						published: "2026-06-01",
						models: [toolkitRow("m", { contextWindow: undefined, cost: undefined })],
					},
				],
				priceTables: [
					{
						name: "prices@1",
						published: "2026-03-01",
						lookup: (provider, id) =>
							provider === "groq" && id === "m"
								? { cost: { input: 3, output: 4, cacheRead: 0, cacheWrite: 0 } }
								: undefined,
					},
				],
			}),
			curatedModels: [],
			curatedPatches: [],
		});
		const row = models.find((model) => model.id === "m");
		expect(row).toMatchObject({ name: "M", contextWindow: 50_000, maxTokens: 10_000, cost: { input: 3, output: 4 } });
		expect(provenance.get("groq/m")).toEqual({
			name: "newer@2",
			reasoning: "newer@2",
			input: "newer@2",
			cost: "prices@1",
			contextWindow: "snapshot@1",
			maxTokens: "newer@2",
		});
	});

	it("keeps Keel's wire API for a known provider, drops rows on APIs Keel does not speak, zeroes subscription prices", () => {
		const { models } = buildCatalogue({
			sources: sources({
				toolkits: [
					{
						name: "t@1",
						published: "2026-06-01",
						models: [
							toolkitRow("grok-x", { provider: "xai", api: "openai-responses" }),
							toolkitRow("radius-model", { provider: "xai", api: "pi-messages" }),
							toolkitRow("gpt-x", { provider: "openai-codex", api: "openai-codex-responses" }),
						],
					},
				],
			}),
			curatedModels: [],
			curatedPatches: [],
		});
		expect(models.find((model) => model.id === "grok-x")?.api).toBe("openai-completions");
		expect(models.find((model) => model.id === "radius-model")).toBeUndefined();
		expect(models.find((model) => model.id === "gpt-x")?.cost).toEqual({
			input: 0,
			output: 0,
			cacheRead: 0,
			cacheWrite: 0,
		});
	});

	it("keeps a toolkit's max level, and gives xhigh the toolkit's xhigh, else its max", () => {
		expect(toKeelThinkingLevelMap({ off: null, xhigh: null, max: "max" })).toEqual({
			off: null,
			xhigh: "max",
			max: "max",
		});
		expect(toKeelThinkingLevelMap({ xhigh: "xhigh", max: "max" })).toEqual({ xhigh: "xhigh", max: "max" });
		expect(toKeelThinkingLevelMap({ max: null })).toEqual({ max: null });
	});

	it("keeps a toolkit's long-context price tiers", () => {
		const rule = ruleForProvider("openai");
		const model = convertToolkitModel(
			rule!,
			toolkitRow("gpt-x", {
				provider: "openai",
				api: "openai-responses",
				cost: { input: 2, output: 8, tiers: [{ inputTokensAbove: 272_000, input: 4, output: 16 }] },
			}),
		);
		expect(model?.cost.tiers).toEqual([
			{ inputTokensAbove: 272_000, input: 4, output: 16, cacheRead: 0, cacheWrite: 0 },
		]);
	});

	it("matches a price-table model only by the same name, not a longer one", () => {
		expect(sameModelName("claude-sonnet-4-5-20250929", "claude-sonnet-4.5")).toBe(true);
		expect(sameModelName("gpt-5.4-mini", "gpt-5.4")).toBe(false);
	});
});

describe("compact per-provider data", () => {
	it("reads back exactly the models it was written from", () => {
		const { models } = buildCatalogue({
			sources: sources({
				toolkits: [
					{
						name: "t@1",
						published: "2026-06-01",
						models: [
							toolkitRow("acme/rocket-1", {
								reasoning: true,
								input: ["text", "image"],
								thinkingLevelMap: { off: "none", xhigh: "xhigh" },
							}),
							toolkitRow("acme/rocket-2", {
								cost: { input: 1, output: 2, tiers: [{ inputTokensAbove: 10, input: 2, output: 4 }] },
							}),
						],
					},
				],
			}),
			curatedModels: [],
			curatedPatches: [],
		});
		const files = renderCatalogueFiles(models, "test");
		const text = files.get("models/generated/groq.ts") ?? "";
		const json = providerDataOfFile(text) ?? "";
		// Ids and names that share their beginning with the previous row's are front-coded.
		expect(text).toContain('[[12,"2"],[12,"2"],0,');
		expect(Object.values(decodeProviderModels(json))).toEqual(models);
	});
});

describe("the committed catalogue", () => {
	it("lists every Anthropic, OpenAI, Google, xAI and Mistral model of the newest toolkit list that its provider has not retired", async () => {
		const [newest] = await loadToolkitCatalogues();
		expect(newest.name).toBe("@earendil-works/pi-ai@1.5.2");
		const retired = (provider: string, id: string) =>
			MODEL_RETIREMENTS.some(
				(entry) =>
					entry.providers.includes(provider) &&
					entry.ids.includes(id) &&
					(entry.withdrawn === true || (entry.retiresOn ?? "") < newest.published),
			);
		for (const provider of ["anthropic", "openai", "google", "xai", "mistral"]) {
			const listed = newest.models.filter((model) => model.provider === provider && !retired(provider, model.id));
			expect(listed.length, provider).toBeGreaterThan(3);
			const missing = listed.filter((model) => !findModel(provider, model.id)).map((model) => model.id);
			expect(missing, provider).toEqual([]);
		}
	});

	it("has at least 1,500 models from at least 40 providers", () => {
		const providers = getProviders();
		// getModels is typed per provider; any provider id is fine at run time.
		const count = providers.reduce((sum, provider) => sum + getModels(provider as "openai").length, 0);
		expect(providers.length).toBeGreaterThanOrEqual(40);
		expect(count).toBeGreaterThanOrEqual(1500);
	});

	it("resolves the ids programs written for pi use", () => {
		expect(getModel("openai-codex", "gpt-5.4").api).toBe("openai-codex-responses");
		expect(getModel("openrouter", "anthropic/claude-opus-4.6").api).toBe("openai-completions");
		expect(getModel("anthropic", "claude-opus-4-6").provider).toBe("anthropic");
		expect(getModel("anthropic", "claude-sonnet-4-5").provider).toBe("anthropic");
	});
});

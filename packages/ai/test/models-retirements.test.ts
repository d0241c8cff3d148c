// The catalogue tells the truth about retired models and about curated values: rows a provider
// retired before the catalogue's date are gone, rows it will retire are marked and warn when
// called, and a hand-written value that contradicts every source needs a provider page.
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildCatalogue } from "../catalog/generator/build-catalogue.js";
import { loadPriceTables } from "../catalog/generator/price-tables.js";
import { catalogueDate } from "../catalog/generator/run.js";
import type { SourceData, ToolkitModel } from "../catalog/generator/source-types.js";
import { loadOfflineSources } from "../catalog/generator/sources.js";
import { loadToolkitCatalogues } from "../catalog/generator/toolkit-catalogues.js";
import { CURATED_MODELS, CURATED_PATCHES, type CuratedModel, MODEL_RETIREMENTS } from "../catalog/index.js";
import { complete, findModel, getModels, MODEL_DEPRECATED_DIAGNOSTIC, type Model } from "../src/index.js";
import { resetDeprecationWarnings } from "../src/models/deprecation-warning.js";
import { fauxAssistantMessage, fauxText, registerFauxProvider } from "../src/testing/index.js";

function toolkitRow(provider: string, id: string, extra: Partial<ToolkitModel> = {}): ToolkitModel {
	return {
		id,
		name: id,
		provider,
		api: "anthropic-messages",
		reasoning: false,
		input: ["text"],
		cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 1_000_000,
		maxTokens: 128_000,
		...extra,
	} as ToolkitModel;
}

function sources(rows: ToolkitModel[]): SourceData {
	return {
		origin: "offline",
		modelsDev: {},
		toolkits: [{ name: "toolkit@1", published: "2026-11-01", models: rows }],
	} as SourceData;
}

describe("retirements in the generator", () => {
	const retirements = [
		{
			providers: ["anthropic"],
			ids: ["claude-old"],
			retiresOn: "2026-01-01",
			source: "https://example.test/deprecations",
		},
		{
			providers: ["anthropic"],
			ids: ["claude-leaving"],
			retiresOn: "2026-12-31",
			replacement: "claude-new",
			source: "https://example.test/deprecations",
		},
	];
	const rows = [
		toolkitRow("anthropic", "claude-old"),
		toolkitRow("anthropic", "claude-leaving"),
		toolkitRow("anthropic", "claude-new"),
	];

	it("drops a row retired before the catalogue's date and lists it", () => {
		const built = buildCatalogue({
			sources: sources(rows),
			curatedModels: [],
			curatedPatches: [],
			retirements,
			asOf: "2026-11-01",
		});
		expect(built.models.map((model) => model.id)).toEqual(["claude-leaving", "claude-new"]);
		expect(built.retired).toEqual(["anthropic/claude-old"]);
	});

	it("marks a row that retires after the catalogue's date as deprecated, with its replacement and page", () => {
		const built = buildCatalogue({
			sources: sources(rows),
			curatedModels: [],
			curatedPatches: [],
			retirements,
			asOf: "2026-11-01",
		});
		const leaving = built.models.find((model) => model.id === "claude-leaving");
		expect(leaving?.deprecated).toEqual({
			retiresOn: "2026-12-31",
			replacement: "claude-new",
			source: "https://example.test/deprecations",
		});
		expect(built.models.find((model) => model.id === "claude-new")?.deprecated).toBeUndefined();
	});

	it("drops a withdrawn row whatever the catalogue's date", () => {
		const withdrawn = [
			{
				providers: ["anthropic"],
				ids: ["claude-new"],
				withdrawn: true as const,
				source: "https://example.test/models",
			},
		];
		const built = buildCatalogue({
			sources: sources(rows),
			curatedModels: [],
			curatedPatches: [],
			retirements: withdrawn,
		});
		expect(built.retired).toEqual(["anthropic/claude-new"]);
	});

	it("applies a retirement only to the providers it names", () => {
		const bedrockRows = [toolkitRow("openai", "claude-old", { api: "openai-responses" })];
		const built = buildCatalogue({
			sources: sources(bedrockRows),
			curatedModels: [],
			curatedPatches: [],
			retirements,
			asOf: "2026-11-01",
		});
		expect(built.models.some((model) => model.provider === "openai" && model.id === "claude-old")).toBe(true);
	});

	it("takes the newest offline source's date as the catalogue's date, and today for live sources", () => {
		const offline = sources([]);
		expect(catalogueDate(offline)).toBe("2026-11-01");
		expect(catalogueDate({ ...offline, origin: "live" }, new Date("2027-02-03T10:00:00Z"))).toBe("2027-02-03");
	});
});

describe("retirement data", () => {
	it("gives every entry a YYYY-MM-DD date (or marks it withdrawn), ids, providers and an https provider page", () => {
		for (const entry of MODEL_RETIREMENTS) {
			if (!entry.withdrawn) expect(entry.retiresOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
			expect(entry.ids.length).toBeGreaterThan(0);
			expect(entry.providers.length).toBeGreaterThan(0);
			expect(entry.source).toMatch(/^https:\/\//);
		}
	});
});

describe("the committed catalogue", () => {
	it("no longer lists models their providers retired", () => {
		expect(findModel("anthropic", "claude-3-sonnet-20240229")).toBeUndefined();
		expect(findModel("anthropic", "claude-3-5-sonnet-20241022")).toBeUndefined();
		expect(findModel("google", "gemini-1.5-pro")).toBeUndefined();
		expect(findModel("google-vertex", "gemini-1.5-flash")).toBeUndefined();
		expect(findModel("xai", "grok-code-fast-1")).toBeUndefined();
		expect(findModel("xai", "grok-beta")).toBeUndefined();
		expect(findModel("openai", "o1")).toBeUndefined();
		expect(findModel("anthropic", "claude-opus-4-1")).toBeUndefined();
	});

	it("marks a model with an announced retirement as deprecated", () => {
		expect(findModel("openai", "gpt-5")?.deprecated).toEqual({
			retiresOn: "2026-12-11",
			replacement: "gpt-6.1-sol",
			source: "https://developers.openai.com/api/docs/deprecations",
		});
		expect(findModel("anthropic", "claude-sonnet-4-5-20250929")?.deprecated).toEqual({
			retiresOn: "2026-11-30",
			replacement: "claude-sonnet-5-5",
			source: "https://platform.claude.com/docs/en/models/sonnet-4-5/overview",
		});
	});

	it("drops the dated Mistral models their model cards retire, and keeps the -latest aliases those cards held", () => {
		for (const id of ["open-mistral-nemo", "mistral-large-2411", "mistral-medium-2508", "devstral-2512"]) {
			expect(findModel("mistral", id)).toBeUndefined();
		}
		expect(findModel("mistral", "magistral-medium-latest")).toBeDefined();
		expect(findModel("mistral", "codestral-2508")?.deprecated).toBeUndefined();
	});

	it("drops OpenAI's API rows of the Codex variants OpenAI shut down, not the ChatGPT-subscription rows", () => {
		expect(findModel("openai", "gpt-5.1-codex")).toBeUndefined();
		expect(findModel("openai", "gpt-5.1-chat-latest")).toBeUndefined();
		expect(findModel("openai-codex", "gpt-5.1-codex")).toBeDefined();
		expect(findModel("openai", "codex-mini-latest")).toBeUndefined();
		expect(findModel("openai", "o3")?.deprecated?.retiresOn).toBe("2026-12-11");
	});

	it("gives Claude Opus 4.6 and Sonnet 4.6 Anthropic's 1M context and 128K output", () => {
		for (const id of ["claude-opus-4-6", "claude-sonnet-4-6"]) {
			const model = findModel("anthropic", id);
			expect(model?.contextWindow).toBe(1_000_000);
			expect(model?.maxTokens).toBe(128_000);
		}
	});

	it("lists OpenRouter's ~anthropic/claude-*-latest aliases", () => {
		const ids = getModels("openrouter").map((model) => model.id);
		for (const family of ["fable", "haiku", "opus", "sonnet"]) {
			expect(ids).toContain(`~anthropic/claude-${family}-latest`);
		}
	});
});

describe("curated values against the sources", () => {
	const curatedRow: CuratedModel = {
		provider: "anthropic",
		id: "claude-big",
		name: "claude-big",
		reasoning: false,
		input: ["text"],
		cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 200_000,
		maxTokens: 128_000,
		source: "https://example.test/models",
	};
	const sourceRows = [toolkitRow("anthropic", "claude-big")];

	it("reports a curated value that contradicts every source, without a citation", () => {
		const built = buildCatalogue({ sources: sources(sourceRows), curatedModels: [curatedRow], curatedPatches: [] });
		expect(built.curatedConflicts).toEqual([
			{
				provider: "anthropic",
				id: "claude-big",
				field: "contextWindow",
				curated: 200_000,
				sources: [{ source: "toolkit@1", value: 1_000_000 }],
			},
		]);
	});

	it("records the provider page a row cites for a contradicting value", () => {
		const cited = { ...curatedRow, overrides: { contextWindow: "https://example.test/limits" } };
		const built = buildCatalogue({ sources: sources(sourceRows), curatedModels: [cited], curatedPatches: [] });
		expect(built.curatedConflicts[0]?.citation).toBe("https://example.test/limits");
	});

	it("finds no uncited contradiction in the real curated rows", async () => {
		const offline = await loadOfflineSources();
		const real: SourceData = {
			...offline,
			toolkits: await loadToolkitCatalogues(),
			priceTables: await loadPriceTables(),
		};
		const built = buildCatalogue({ sources: real, curatedModels: CURATED_MODELS, curatedPatches: CURATED_PATCHES });
		const uncited = built.curatedConflicts
			.filter((conflict) => !conflict.citation)
			.map((conflict) => `${conflict.provider}/${conflict.id} ${conflict.field}`);
		expect(uncited).toEqual([]);
	});
});

describe("calling a deprecated model", () => {
	afterEach(() => {
		vi.restoreAllMocks();
		resetDeprecationWarnings();
	});

	it("warns once per process on the console and puts a diagnostic on every final message", async () => {
		const faux = registerFauxProvider({ api: "faux-deprecated", provider: "faux-deprecated" });
		try {
			const model: Model<"faux-deprecated"> = {
				...faux.getModel(),
				deprecated: { retiresOn: "2027-01-01", replacement: "faux-next", source: "https://example.test/deprecations" },
			};
			faux.setResponses([fauxAssistantMessage([fauxText("one")]), fauxAssistantMessage([fauxText("two")])]);
			const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
			const context = { messages: [{ role: "user" as const, content: "Hi", timestamp: 0 }] };
			const first = await complete(model, context);
			const second = await complete(model, context);
			expect(warn).toHaveBeenCalledTimes(1);
			expect(String(warn.mock.calls[0]?.[0])).toContain("faux-deprecated/faux-model is deprecated");
			for (const message of [first, second]) {
				expect(message.stopReason).toBe("stop");
				const diagnostic = message.diagnostics?.find((entry) => entry.type === MODEL_DEPRECATED_DIAGNOSTIC);
				expect(diagnostic?.details).toMatchObject({ retiresOn: "2027-01-01", replacement: "faux-next" });
			}
		} finally {
			faux.unregister();
		}
	});

	it("leaves a model that is not deprecated silent and its message without the diagnostic", async () => {
		const faux = registerFauxProvider({ api: "faux-current", provider: "faux-current" });
		try {
			faux.setResponses([fauxAssistantMessage([fauxText("hi")])]);
			const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
			const message = await complete(faux.getModel(), { messages: [{ role: "user", content: "Hi", timestamp: 0 }] });
			expect(warn).not.toHaveBeenCalled();
			expect(message.diagnostics ?? []).toEqual([]);
		} finally {
			faux.unregister();
		}
	});
});

// Writes the catalogue as TypeScript, split per provider:
//   - models.generated.ts: an interface, provider → model id → `Model<api>`, from which getModel
//     infers its types, and a table of the providers' data modules;
//   - models/generated/<provider>.ts: one provider's models as compact JSON text (below), which
//     models/catalogue.ts parses the first time that provider is looked up, so a program that uses
//     one provider never builds the others' rows;
//   - models/generated/provenance.tsv: where each field of each row came from (not loaded at run time).
// Compact rows: the fields most of a provider's rows share (api, baseUrl, compat, headers) are
// written once, so are its distinct thinking-level maps, and each model is one line, a JSON array
// (models/catalogue-rows.ts reads it back):
//   [id, name or 0 when it equals the id, flags (1 reasoning, 2 image, 4 PDF, 8 audio input), contextWindow,
//    maxTokens, [input, output, cacheRead?, cacheWrite?], {anything else}?]
// An id or name that shares more than three leading characters with the previous row's is written
// as [shared length, rest] (front coding; rows are sorted by id). "Anything else" is "anything else" holds shared fields that differ, `levels` (an index into the provider's
// maps) and `tiers` ([inputTokensAbove, input, output, cacheRead?, cacheWrite?] each); trailing zero
// prices are left out.
// JSON text rather than object literals, for cold start: at import V8 only scans a string.
// The text depends only on the models (fixed key order, sorted rows, no timestamps), so
// regenerating from the same input is byte-identical.
import type { Api, Model } from "../../src/types.js";
import { MERGED_FIELDS, type RowProvenance } from "./build-catalogue.js";

const SHARED_FIELDS = ["api", "baseUrl", "compat", "headers"] as const;
const LEVEL_KEY_ORDER = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];
const TIER_KEY_ORDER = ["inputTokensAbove", "input", "output", "cacheRead", "cacheWrite"];

function sortedKeys(value: Record<string, unknown>, preferred?: readonly string[]): string[] {
	const keys = Object.keys(value).filter((key) => value[key] !== undefined);
	const rank = (key: string) => {
		const index = preferred?.indexOf(key) ?? -1;
		return index === -1 ? Number.MAX_SAFE_INTEGER : index;
	};
	return keys.sort((left, right) => rank(left) - rank(right) || (left < right ? -1 : left > right ? 1 : 0));
}

function preferredOrderFor(key: string | undefined): readonly string[] | undefined {
	if (key === "thinkingLevelMap" || key === "reasoningEffortMap") return LEVEL_KEY_ORDER;
	if (key === "tiers") return TIER_KEY_ORDER;
	return undefined;
}

/** A copy of `value` with every object's keys in a fixed order and no undefined values. */
function ordered(value: unknown, preferred?: readonly string[]): unknown {
	if (value === null || typeof value !== "object") return value;
	if (Array.isArray(value)) return value.map((item) => ordered(item, preferred));
	const record = value as Record<string, unknown>;
	const copy: Record<string, unknown> = {};
	for (const name of sortedKeys(record, preferred)) copy[name] = ordered(record[name], preferredOrderFor(name));
	return copy;
}

/** JSON text made safe inside a template literal: backslashes, backticks and `${` escaped. */
function inTemplateLiteral(text: string): string {
	return text.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/\$\{/g, "\\${");
}

function sharedText(model: Model<Api>): string {
	return JSON.stringify(ordered(Object.fromEntries(SHARED_FIELDS.map((field) => [field, model[field]]))));
}

/** The shared fields most of the provider's rows have (ties: the first in sort order). */
function providerDefaults(models: readonly Model<Api>[]): Record<string, unknown> {
	const counts = new Map<string, number>();
	for (const model of models) counts.set(sharedText(model), (counts.get(sharedText(model)) ?? 0) + 1);
	let best = "";
	let bestCount = -1;
	for (const [text, count] of counts) {
		if (count > bestCount) {
			best = text;
			bestCount = count;
		}
	}
	return JSON.parse(best) as Record<string, unknown>;
}

/**
 * Front coding: sorted ids (and their names) share long beginnings ("anthropic/claude-opus-4.5",
 * "anthropic/claude-opus-4.6"), so a text that shares more than a few characters with the previous
 * row's is written as [shared length, rest].
 */
function frontCoded(text: string, previous: string | undefined): string | [number, string] {
	if (previous === undefined) return text;
	let shared = 0;
	while (shared < text.length && shared < previous.length && text[shared] === previous[shared]) shared++;
	return shared > 3 ? [shared, text.slice(shared)] : text;
}

/** Prices without trailing zeros: [2, 8, 0, 0] → [2, 8] (cache prices are 0 for most rows). */
function trimmedPrices(prices: number[]): number[] {
	let length = prices.length;
	while (length > 2 && prices[length - 1] === 0) length--;
	return prices.slice(0, length);
}

/**
 * One model as a compact row against its provider's defaults. `levelMaps` collects the provider's
 * distinct thinking-level maps (rows name theirs by index, as most rows share a few).
 */
export function compactRow(
	model: Model<Api>,
	defaults: Record<string, unknown>,
	levelMaps: string[],
	previous?: Model<Api>,
): unknown[] {
	const extra: Record<string, unknown> = {};
	for (const field of SHARED_FIELDS) {
		const value = model[field];
		if (JSON.stringify(ordered(value)) !== JSON.stringify(defaults[field])) extra[field] = value ?? null;
	}
	if (model.thinkingLevelMap) {
		const text = JSON.stringify(ordered(model.thinkingLevelMap, LEVEL_KEY_ORDER));
		if (!levelMaps.includes(text)) levelMaps.push(text);
		extra.levels = levelMaps.indexOf(text);
	}
	if (model.cost.tiers) {
		extra.tiers = model.cost.tiers.map((tier) =>
			trimmedPrices([tier.inputTokensAbove, tier.input, tier.output, tier.cacheRead, tier.cacheWrite]),
		);
	}
	if (model.deprecated) extra.deprecated = model.deprecated;
	const flags =
		(model.reasoning ? 1 : 0) |
		(model.input.includes("image") ? 2 : 0) |
		(model.input.includes("pdf") ? 4 : 0) |
		(model.input.includes("audio") ? 8 : 0);
	const { input, output, cacheRead, cacheWrite } = model.cost;
	const row: unknown[] = [
		frontCoded(model.id, previous?.id),
		model.name === model.id ? 0 : frontCoded(model.name, previous?.name),
		flags,
		model.contextWindow,
		model.maxTokens,
		trimmedPrices([input, output, cacheRead, cacheWrite]),
	];
	if (Object.keys(extra).length > 0) row.push(ordered(extra));
	return row;
}

/** The module name of a provider's data file, e.g. "amazon-bedrock". */
export function providerFileName(provider: string): string {
	if (!/^[a-z0-9][a-z0-9-]*$/.test(provider)) throw new Error(`Provider id "${provider}" cannot name a file.`);
	return provider;
}

function identifierFor(provider: string): string {
	return `${provider.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())}Models`;
}

function renderProviderFile(provider: string, models: readonly Model<Api>[]): string {
	const defaults = providerDefaults(models);
	const levelMaps: string[] = [];
	const rows = models.map((model, index) => {
		const comma = index < models.length - 1 ? "," : "";
		return `${JSON.stringify(compactRow(model, defaults, levelMaps, models[index - 1]))}${comma}`;
	});
	const json = `{"provider":${JSON.stringify(provider)},"defaults":${JSON.stringify(defaults)},"levelMaps":[${levelMaps.join(",")}],"rows":[\n${rows.join("\n")}\n]}`;
	return [
		"// Generated by scripts/generate-models.ts: do not edit. The row format: catalog/generator/render.ts.",
		`export default \`${inTemplateLiteral(json)}\`;`,
		"",
	].join("\n");
}

/**
 * The module behind `@keel/ai/models/<provider>`: that provider's typed lookups over its data module
 * only, so an app that uses one provider bundles no other provider's rows (models/provider-catalogue.ts).
 */
function renderProviderEntry(provider: string): string {
	const key = JSON.stringify(provider);
	return [
		"// Generated by scripts/generate-models.ts: do not edit. Published as",
		`// @keel/ai/models/${provider}: the ${provider} models alone, for apps that bundle one provider.`,
		'import type { GeneratedCatalogue } from "../../models.generated.js";',
		`import data from "../generated/${providerFileName(provider)}.js";`,
		'import { createProviderCatalogue, type ProviderCatalogue } from "../provider-catalogue.js";',
		"",
		`/** The provider these lookups serve. */`,
		`export const PROVIDER = ${key};`,
		"",
		`/** Every ${provider} model's type, by id. */`,
		`export type Models = GeneratedCatalogue[${key}];`,
		"",
		`/** An id the catalogue lists for ${provider}. */`,
		"export type ModelId = keyof Models & string;",
		"",
		"const catalogue = /* @__PURE__ */ createProviderCatalogue<Models>(data);",
		"",
		`/** The ${provider} model with this id, typed; an id outside the catalogue is a compile error. */`,
		'export const getModel: ProviderCatalogue<Models>["getModel"] = catalogue.getModel;',
		"",
		`/** Any id string; undefined when ${provider} has no such model in the catalogue. */`,
		'export const findModel: ProviderCatalogue<Models>["findModel"] = catalogue.findModel;',
		"",
		`/** Every ${provider} model, sorted by id. */`,
		'export const getModels: ProviderCatalogue<Models>["getModels"] = catalogue.getModels;',
		"",
	].join("\n");
}

function renderIndex(
	byProvider: Map<string, Model<Api>[]>,
	sourceDescription: string,
	retired: readonly string[],
): string {
	const providers = [...byProvider];
	const typeBlocks = providers.map(([provider, list]) => {
		const rows = list.map((model) => `\t\t${JSON.stringify(model.id)}: Model<${JSON.stringify(model.api)}>;`);
		return `\t${JSON.stringify(provider)}: {\n${rows.join("\n")}\n\t};`;
	});
	const imports = providers.map(
		([provider]) => `import ${identifierFor(provider)} from "./models/generated/${providerFileName(provider)}.js";`,
	);
	const table = providers.map(([provider]) => `\t${JSON.stringify(provider)}: ${identifierFor(provider)},`);
	return [
		"// Generated by scripts/generate-models.ts: do not edit. Run `pnpm generate-models` to regenerate;",
		"// `pnpm check` fails when this file is stale. Curated rows and their sources: packages/ai/catalog/.",
		`// Sources: ${sourceDescription}.`,
		"// Where each row's fields came from: models/generated/provenance.tsv.",
		'import type { Model } from "./types.js";',
		...imports,
		"",
		"/** Every catalogue model's type, by provider and id: what getModel infers from. */",
		"export interface GeneratedCatalogue {",
		...typeBlocks,
		"}",
		"",
		"/** Each provider's models as compact JSON text, parsed on that provider's first lookup (models/catalogue.ts). */",
		"export const GENERATED_PROVIDER_DATA: Readonly<Record<string, string>> = {",
		...table,
		"};",
		"",
		'/** The rows left out because their provider retired them ("provider/id"): refreshModels() does not add them back. */',
		"export const RETIRED_MODELS: readonly string[] = [",
		...retired.map((entry) => `\t${JSON.stringify(entry)},`),
		"];",
		"",
	].join("\n");
}

function renderProvenance(models: readonly Model<Api>[], provenance: ReadonlyMap<string, RowProvenance>): string {
	const sources = new Set<string>();
	for (const row of provenance.values()) for (const source of Object.values(row)) if (source) sources.add(source);
	const legend = [...sources].sort();
	const lines = [
		"# Where each catalogue row's fields came from. Generated by scripts/generate-models.ts; not loaded at run time.",
		"# Each field column holds the number of its source below; - means the field had no source (a default).",
		...legend.map((source, index) => `# ${index + 1}\t${source}`),
		["provider", "id", ...MERGED_FIELDS].join("\t"),
	];
	for (const model of models) {
		const row = provenance.get(`${model.provider}/${model.id}`) ?? {};
		const columns = MERGED_FIELDS.map((field) => {
			const source = row[field];
			return source ? String(legend.indexOf(source) + 1) : "-";
		});
		lines.push([model.provider, model.id, ...columns].join("\t"));
	}
	return `${lines.join("\n")}\n`;
}

/**
 * Every generated file, by path relative to packages/ai/src. `models` must already be sorted by
 * provider, then id.
 */
export function renderCatalogueFiles(
	models: readonly Model<Api>[],
	sourceDescription: string,
	provenance: ReadonlyMap<string, RowProvenance> = new Map(),
	retired: readonly string[] = [],
): Map<string, string> {
	const byProvider = new Map<string, Model<Api>[]>();
	for (const model of models) {
		const list = byProvider.get(model.provider) ?? [];
		list.push(model);
		byProvider.set(model.provider, list);
	}
	const files = new Map<string, string>();
	files.set("models.generated.ts", renderIndex(byProvider, sourceDescription, retired));
	for (const [provider, list] of byProvider) {
		files.set(`models/generated/${providerFileName(provider)}.ts`, renderProviderFile(provider, list));
		files.set(`models/by-provider/${providerFileName(provider)}.ts`, renderProviderEntry(provider));
	}
	files.set("models/generated/provenance.tsv", renderProvenance(models, provenance));
	return files;
}

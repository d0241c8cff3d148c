// Assembles the catalogue from the sources. Every source proposes rows (models.dev, the toolkits'
// model lists, and live OpenRouter and gateway rows when asked); for each provider and id, each
// field comes from the newest source that has it, and price tables take part for prices. Curated
// rows and patches go on top, then Azure clones of the OpenAI models. Pure: same input, same output.

import type { Api, Model, OpenAICompletionsCompat } from "../../src/types.js";
import type { CuratedModel, CuratedPatch, ModelRetirement } from "../index.js";
import { bedrockCompatFor, bedrockFamilyFor } from "./bedrock-compat.js";
import { claudeCompatFor } from "./claude-compat.js";
import {
	convertModelsDevModel,
	convertOpenRouterModel,
	convertToolkitModel,
	convertVercelGatewayModel,
} from "./convert.js";
import { withFamilyFileInput } from "./file-input.js";
import {
	apiForCopilotModel,
	MODELS_DEV_PROVIDER_RULES,
	OPENROUTER_RULE,
	ruleForProvider,
	VERCEL_GATEWAY_RULE,
} from "./providers.js";
import type { ModelsDevModel, SourceData, SourceSnapshot, ToolkitModel } from "./source-types.js";
import { mistralCompatFor, modelCompatFor, sourceThinkingMapApplies, thinkingLevelMapFor } from "./thinking-levels.js";

export interface CatalogueInput {
	sources: SourceData;
	curatedModels: readonly CuratedModel[];
	curatedPatches: readonly CuratedPatch[];
	/** Providers' announced retirements (catalog/retirements.ts). */
	retirements?: readonly ModelRetirement[];
	/**
	 * The catalogue's date, YYYY-MM-DD: rows retired before it are dropped, rows retiring on or after
	 * it are marked deprecated. The generator passes the newest source's publication date, so the
	 * output depends on its input only, never on the day it runs.
	 */
	asOf?: string;
}

/** A curated value that differs from every source that lists the field for the same row. */
export interface CuratedConflict {
	provider: string;
	id: string;
	field: MergedField;
	curated: unknown;
	sources: { source: string; value: unknown }[];
	/** The provider page the row cites for this field (`overrides`), if any. */
	citation?: string;
}

export interface BuiltCatalogue {
	/** Sorted by provider, then id. */
	models: Model<Api>[];
	/** Things a maintainer should look at (a patch whose model no longer exists, …). */
	warnings: string[];
	/** "provider/id" → where each field of that row came from. */
	provenance: Map<string, RowProvenance>;
	/** "provider/id" of the rows dropped because the provider retired them before `asOf`. */
	retired: string[];
	/** Curated values that contradict every source (each needs a citation in the row's `overrides`). */
	curatedConflicts: CuratedConflict[];
}

function key(provider: string, id: string): string {
	return `${provider}\u0000${id}`;
}

function compareStrings(left: string, right: string): number {
	return left < right ? -1 : left > right ? 1 : 0;
}

function curatedToModel(row: CuratedModel): Model<Api> {
	const rule = ruleForProvider(row.provider);
	if (!rule && (!row.api || row.baseUrl === undefined)) {
		throw new Error(`Curated model ${row.provider}/${row.id}: unknown provider; set api and baseUrl on the row.`);
	}
	const model: Model<Api> = {
		id: row.id,
		name: row.name,
		api: row.api ?? (row.provider === "github-copilot" ? apiForCopilotModel(row.id) : rule!.api),
		provider: row.provider,
		baseUrl: row.baseUrl ?? rule!.baseUrl,
		reasoning: row.reasoning,
		input: [...row.input],
		cost: { ...row.cost },
		contextWindow: row.contextWindow,
		maxTokens: row.maxTokens,
	};
	if (row.headers) model.headers = { ...row.headers };
	if (row.compat) model.compat = { ...row.compat };
	if (row.thinkingLevelMap) model.thinkingLevelMap = { ...row.thinkingLevelMap };
	return model;
}

/** Provider-level compat and headers, per-model compat and the thinking-level map, in that order. */
function applyProviderDefaults(model: Model<Api>, mapIsCurated: boolean): Model<Api> {
	const rule = ruleForProvider(model.provider);
	model.input = withFamilyFileInput(model);
	if (model.api === "openai-completions") {
		const compat: OpenAICompletionsCompat = {
			...rule?.compat,
			...modelCompatFor(model.provider, model.id),
			...(model.compat as OpenAICompletionsCompat | undefined),
		};
		if (Object.keys(compat).length > 0) model.compat = compat;
	}
	if (model.api === "bedrock-converse-stream") {
		model.compat = { ...bedrockCompatFor(model.id), ...model.compat };
	}
	if (model.api === "anthropic-messages") {
		const compat = { ...claudeCompatFor(model.id, model.baseUrl), ...model.compat };
		if (Object.keys(compat).length > 0) model.compat = compat;
	}
	if (model.api === "mistral-conversations") {
		const compat = { ...mistralCompatFor(model.id, model.reasoning), ...model.compat };
		if (Object.keys(compat).length > 0) model.compat = compat;
	}
	if (rule?.headers) model.headers = { ...rule.headers, ...model.headers };
	// Keel's family rules (thinking-levels.ts) win over a source's map; a curated row's map wins over both.
	if (!mapIsCurated) {
		if (model.thinkingLevelMap && !sourceThinkingMapApplies(model.id, model.api)) delete model.thinkingLevelMap;
		const map = thinkingLevelMapFor(model.id, model.reasoning, model.api);
		// A family rule predates the max level: a source's max stays unless the rule says otherwise.
		const sourceMax = model.thinkingLevelMap?.max;
		if (map && map.max === undefined && typeof sourceMax === "string") map.max = sourceMax;
		if (map) model.thinkingLevelMap = map;
	}
	return model;
}

/** Throws on a row the providers could not use, naming it. */
export function validateCatalogueModel(model: Model<Api>): void {
	const where = `${model.provider}/${model.id}`;
	if (!model.id || !model.provider || !model.api)
		throw new Error(`Catalogue row ${where}: id, provider and api are required.`);
	if (typeof model.baseUrl !== "string") throw new Error(`Catalogue row ${where}: baseUrl must be a string.`);
	const { tiers, ...prices } = model.cost;
	const tierPrices = (tiers ?? []).flatMap((tier, index) =>
		Object.entries(tier).map(([field, value]) => [`tiers[${index}].${field}`, value] as const),
	);
	for (const [field, value] of [
		...Object.entries({ ...prices, contextWindow: model.contextWindow, maxTokens: model.maxTokens }),
		...tierPrices,
	]) {
		if (!Number.isFinite(value) || value < 0)
			throw new Error(`Catalogue row ${where}: ${field} is ${value}, expected a number ≥ 0.`);
	}
}

/** The fields each source may supply; the newest source that has a field gives it. */
export const MERGED_FIELDS = [
	"name",
	"reasoning",
	"input",
	"cost",
	"contextWindow",
	"maxTokens",
	"thinkingLevelMap",
] as const;
export type MergedField = (typeof MERGED_FIELDS)[number];

/** Where one row's fields came from: a source name per field, or "curated"/"keel rule". */
export type RowProvenance = Partial<Record<MergedField, string>>;

interface Candidate {
	model: Model<Api>;
	source: SourceSnapshot;
	/** The fields this source actually gave (the rest are the converter's defaults). */
	present: ReadonlySet<MergedField>;
	/** False for sources whose input list names text and images only (the toolkits' lists). */
	knowsFileInput?: boolean;
}

function modelsDevPresence(source: ModelsDevModel): Set<MergedField> {
	const present = new Set<MergedField>();
	if (source.name) present.add("name");
	if (typeof source.reasoning === "boolean") present.add("reasoning");
	if (source.modalities?.input) present.add("input");
	if (source.cost) present.add("cost");
	if ((source.limit?.context ?? 0) > 0) present.add("contextWindow");
	if ((source.limit?.output ?? 0) > 0) present.add("maxTokens");
	return present;
}

function toolkitPresence(source: ToolkitModel, model: Model<Api>): Set<MergedField> {
	const present = new Set<MergedField>();
	if (source.name) present.add("name");
	if (typeof source.reasoning === "boolean") present.add("reasoning");
	if (source.input) present.add("input");
	if (source.cost) present.add("cost");
	if ((source.contextWindow ?? 0) > 0) present.add("contextWindow");
	if ((source.maxTokens ?? 0) > 0) present.add("maxTokens");
	if (model.thinkingLevelMap) present.add("thinkingLevelMap");
	return present;
}

const ALL_FIELDS: ReadonlySet<MergedField> = new Set(MERGED_FIELDS);
const LIVE: SourceSnapshot = { name: "live", published: "live" };
const MODELS_DEV_DEFAULT: SourceSnapshot = { name: "models.dev", published: "0000-00-00" };

/**
 * One row from its candidates, newest source first: the newest candidate gives the row (api, base
 * URL, compat), then each field comes from the newest candidate that has it.
 */
function mergeCandidates(candidates: Candidate[]): { model: Model<Api>; provenance: RowProvenance } {
	const [newest] = candidates;
	const model = structuredClone(newest.model);
	const provenance: RowProvenance = {};
	for (const field of MERGED_FIELDS) {
		const giver = candidates.find((candidate) => candidate.present.has(field));
		if (!giver) continue;
		(model as unknown as Record<string, unknown>)[field] = structuredClone(giver.model[field]);
		provenance[field] = giver.source.name;
	}
	if (!provenance.thinkingLevelMap) delete model.thinkingLevelMap;
	// PDF and audio input from the newest source that can say so; image input stays the giver's.
	const fileGiver = candidates.find(
		(candidate) => candidate.present.has("input") && candidate.knowsFileInput !== false,
	);
	if (fileGiver && provenance.input !== fileGiver.source.name) {
		const fileKinds = fileGiver.model.input.filter((kind) => kind === "pdf" || kind === "audio");
		model.input = [...model.input.filter((kind) => kind === "text" || kind === "image"), ...fileKinds];
	}
	return { model, provenance };
}

export function buildCatalogue(input: CatalogueInput): BuiltCatalogue {
	const warnings: string[] = [];
	const candidatesByKey = new Map<string, Candidate[]>();
	const addCandidate = (
		model: Model<Api> | undefined,
		source: SourceSnapshot,
		present: ReadonlySet<MergedField>,
		knowsFileInput = true,
	) => {
		if (!model) return;
		const rowKey = key(model.provider, model.id);
		const list = candidatesByKey.get(rowKey) ?? [];
		// Within one source the first occurrence of an id wins.
		if (list.some((candidate) => candidate.source === source)) return;
		list.push({ model, source, present, knowsFileInput });
		candidatesByKey.set(rowKey, list);
	};

	const { modelsDev, openRouter, vercelGateway } = input.sources;
	const modelsDevSource =
		input.sources.origin === "live" ? LIVE : (input.sources.modelsDevSnapshot ?? MODELS_DEV_DEFAULT);
	for (const sourceProvider of Object.keys(modelsDev).sort(compareStrings)) {
		const rule = MODELS_DEV_PROVIDER_RULES[sourceProvider];
		if (!rule) continue;
		const provider = modelsDev[sourceProvider];
		for (const id of Object.keys(provider.models).sort(compareStrings)) {
			const source = { ...provider.models[id], id: provider.models[id].id ?? id };
			addCandidate(convertModelsDevModel(rule, source, provider.npm), modelsDevSource, modelsDevPresence(source));
		}
	}
	// Fetched together with models.dev, and ranked after it (models.dev's row wins for the same id).
	const openRouterSource: SourceSnapshot = { name: "live OpenRouter", published: modelsDevSource.published };
	const gatewaySource: SourceSnapshot = { name: "live Vercel AI Gateway", published: modelsDevSource.published };
	for (const source of openRouter ?? [])
		addCandidate(convertOpenRouterModel(OPENROUTER_RULE, source), openRouterSource, ALL_FIELDS);
	for (const source of vercelGateway ?? [])
		addCandidate(convertVercelGatewayModel(VERCEL_GATEWAY_RULE, source), gatewaySource, ALL_FIELDS);

	const unclassifiedBedrock = new Set<string>();
	for (const toolkit of input.sources.toolkits ?? []) {
		const snapshot: SourceSnapshot = { name: toolkit.name, published: toolkit.published };
		for (const source of toolkit.models) {
			const rule = ruleForProvider(source.provider);
			// Azure rows are derived from OpenAI's below, so both list the same models.
			if (!rule || rule.provider === "azure-openai-responses") continue;
			const model = convertToolkitModel(rule, source);
			// Bedrock rows need their family's flags from AWS's table (bedrock-compat.ts); a family the
			// table does not cover is left out rather than guessed.
			if (model?.provider === "amazon-bedrock" && !bedrockFamilyFor(model.id)) {
				unclassifiedBedrock.add(model.id);
				continue;
			}
			if (model) addCandidate(model, snapshot, toolkitPresence(source, model), false);
		}
	}

	if (unclassifiedBedrock.size > 0) {
		warnings.push(
			`${unclassifiedBedrock.size} Bedrock models of families not in bedrock-compat.ts were left out (e.g. ${[...unclassifiedBedrock].sort().slice(0, 3).join(", ")})`,
		);
	}
	const rows = new Map<string, Model<Api>>();
	const orderedByKey = new Map<string, Candidate[]>();
	const provenanceByKey = new Map<string, RowProvenance>();
	const byDate = (left: Candidate, right: Candidate) => compareStrings(right.source.published, left.source.published);
	for (const [rowKey, candidates] of candidatesByKey) {
		const [provider, id] = rowKey.split("\u0000");
		const ordered = [...candidates];
		for (const table of input.sources.priceTables ?? []) {
			const prices = table.lookup(provider, id);
			if (!prices) continue;
			const model = { ...ordered[0].model, cost: prices.cost };
			ordered.push({ model, source: { name: table.name, published: table.published }, present: new Set(["cost"]) });
		}
		ordered.sort(byDate);
		orderedByKey.set(rowKey, ordered);
		const { model, provenance } = mergeCandidates(ordered);
		if (ruleForProvider(model.provider)?.subscription)
			model.cost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
		// Limits from two sources can disagree; an output cap above the context could never be met.
		if (model.maxTokens > model.contextWindow) model.maxTokens = model.contextWindow;
		rows.set(rowKey, model);
		provenanceByKey.set(rowKey, provenance);
	}

	const curatedConflicts: CuratedConflict[] = [];
	for (const row of input.curatedModels) {
		const model = curatedToModel(row);
		curatedConflicts.push(...conflictsWithSources(row, model, orderedByKey.get(key(row.provider, row.id)) ?? []));
		rows.set(key(row.provider, row.id), model);
		const fields = MERGED_FIELDS.filter((field) => field !== "thinkingLevelMap" || row.thinkingLevelMap);
		provenanceByKey.set(key(row.provider, row.id), Object.fromEntries(fields.map((field) => [field, "curated"])));
	}
	for (const patch of input.curatedPatches) {
		const target = rows.get(key(patch.provider, patch.id));
		if (!target) {
			warnings.push(
				`curated patch for ${patch.provider}/${patch.id} has no model to apply to (source: ${patch.source})`,
			);
			continue;
		}
		Object.assign(target, structuredClone(patch.set));
		const provenance = provenanceByKey.get(key(patch.provider, patch.id)) ?? {};
		for (const field of Object.keys(patch.set)) provenance[field as MergedField] = "curated";
	}

	// A row its provider retired before the catalogue's date is dropped; one it retires later is marked.
	const retired: string[] = [];
	const applyRetirement = (rowKey: string, model: Model<Api>) => {
		const retirement = retirementFor(input.retirements ?? [], model);
		if (!retirement) return;
		if (retirement.withdrawn || !retirement.retiresOn || (input.asOf && retirement.retiresOn < input.asOf)) {
			retired.push(`${model.provider}/${model.id}`);
			rows.delete(rowKey);
			return;
		}
		model.deprecated = { retiresOn: retirement.retiresOn, source: retirement.source };
		if (retirement.replacement) model.deprecated.replacement = retirement.replacement;
	};
	for (const [rowKey, model] of [...rows]) applyRetirement(rowKey, model);

	// Azure OpenAI serves OpenAI's models through deployments in the caller's own resource
	// (https://learn.microsoft.com/azure/ai-foundry/openai/concepts/models), so each OpenAI Responses
	// model is listed for azure-openai-responses too, with no base URL: the resource decides it.
	for (const model of [...rows.values()]) {
		if (model.provider !== "openai" || model.api !== "openai-responses") continue;
		const azureKey = key("azure-openai-responses", model.id);
		if (rows.has(azureKey)) continue;
		const clone: Model<Api> = {
			...structuredClone(model),
			provider: "azure-openai-responses",
			api: "azure-openai-responses",
			baseUrl: "",
		};
		// Azure retires models on its own schedule (its own entries in the retirement data).
		delete clone.deprecated;
		rows.set(azureKey, clone);
		applyRetirement(azureKey, clone);
		provenanceByKey.set(azureKey, { ...provenanceByKey.get(key("openai", model.id)) });
	}

	const models = [...rows.values()]
		.map((model) => {
			const provenance = provenanceByKey.get(key(model.provider, model.id));
			const before = model.thinkingLevelMap;
			const result = applyProviderDefaults(model, provenance?.thinkingLevelMap === "curated");
			if (provenance && result.thinkingLevelMap && result.thinkingLevelMap !== before) {
				provenance.thinkingLevelMap = "keel rule";
			}
			return result;
		})
		.sort((left, right) => compareStrings(left.provider, right.provider) || compareStrings(left.id, right.id));
	for (const model of models) validateCatalogueModel(model);
	const provenance = new Map(
		models.map((model) => [`${model.provider}/${model.id}`, provenanceByKey.get(key(model.provider, model.id)) ?? {}]),
	);
	return { models, warnings, provenance, retired: retired.sort(compareStrings), curatedConflicts };
}

function retirementFor(retirements: readonly ModelRetirement[], model: Model<Api>): ModelRetirement | undefined {
	return retirements.find((entry) => entry.providers.includes(model.provider) && entry.ids.includes(model.id));
}

// Names are labels, not facts a call depends on, so a curated name may differ from a source's.
const CURATED_FIELDS = ["reasoning", "input", "cost", "contextWindow", "maxTokens"] as const;

/** The fields of a curated row whose value no source that has the field agrees with. */
function conflictsWithSources(
	row: CuratedModel,
	model: Model<Api>,
	candidates: readonly Candidate[],
): CuratedConflict[] {
	const conflicts: CuratedConflict[] = [];
	for (const field of CURATED_FIELDS) {
		// Subscription endpoints list a price of 0 whatever a source says (see buildCatalogue).
		if (field === "cost" && ruleForProvider(row.provider)?.subscription) continue;
		const givers = candidates.filter((candidate) => candidate.present.has(field));
		if (givers.length === 0) continue;
		const curated = comparable(field, model[field]);
		if (givers.some((candidate) => comparable(field, candidate.model[field]) === curated)) continue;
		const conflict: CuratedConflict = {
			provider: row.provider,
			id: row.id,
			field,
			curated: model[field],
			sources: givers.map((candidate) => ({ source: candidate.source.name, value: candidate.model[field] })),
		};
		const citation = row.overrides?.[field];
		if (citation) conflict.citation = citation;
		conflicts.push(conflict);
	}
	return conflicts;
}

/** A field's value as text for comparison; a price compares by its input and output price. */
function comparable(field: MergedField, value: unknown): string {
	if (field === "cost") {
		const cost = value as Model<Api>["cost"];
		return JSON.stringify([cost.input, cost.output]);
	}
	// Curated rows and most sources record image input only; PDF and audio come from family rules.
	if (field === "input") return JSON.stringify((value as Model<Api>["input"]).includes("image"));
	return JSON.stringify(value);
}

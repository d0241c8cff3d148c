// Reads one provider's generated data (models/generated/<provider>.ts) back into models. The
// format is written by catalog/generator/render.ts: the fields most rows share once, then one
// compact row per model:
//   [id, name or 0 when it equals the id, flags (1 reasoning, 2 image input), contextWindow,
//    maxTokens, [input, output, cacheRead, cacheWrite], {anything else}?]
import type { Api, Model, ModelCost } from "../types.js";

type CompactRow = [
	id: string,
	name: string | 0,
	flags: number,
	contextWindow: number,
	maxTokens: number,
	prices: [number, number, number, number],
	extra?: Record<string, unknown>,
];

interface ProviderData {
	provider: string;
	defaults: Record<string, unknown>;
	rows: CompactRow[];
}

/** One compact row as a model of `provider`. */
export function modelFromCompactRow(provider: string, defaults: Record<string, unknown>, row: CompactRow): Model<Api> {
	const [id, name, flags, contextWindow, maxTokens, prices, extra] = row;
	const cost: ModelCost = { input: prices[0], output: prices[1], cacheRead: prices[2], cacheWrite: prices[3] };
	const model = {
		id,
		name: name === 0 ? id : name,
		api: defaults.api,
		provider,
		baseUrl: defaults.baseUrl,
		reasoning: (flags & 1) === 1,
		input: (flags & 2) === 2 ? ["text", "image"] : ["text"],
		cost,
		contextWindow,
		maxTokens,
	} as Model<Api>;
	const fields = model as unknown as Record<string, unknown>;
	if (defaults.headers) fields.headers = defaults.headers;
	if (defaults.compat) fields.compat = defaults.compat;
	if (extra) {
		const { tiers, ...rest } = extra;
		for (const [field, value] of Object.entries(rest)) {
			if (value === null) delete fields[field];
			else fields[field] = value;
		}
		if (tiers) cost.tiers = tiers as ModelCost["tiers"];
	}
	return model;
}

/** A provider's models by id, from its generated JSON text. Each call builds new objects. */
export function decodeProviderModels(text: string): Record<string, Model<Api>> {
	const data = JSON.parse(text) as ProviderData;
	const models: Record<string, Model<Api>> = {};
	for (const row of data.rows) models[row[0]] = modelFromCompactRow(data.provider, data.defaults, row);
	return models;
}

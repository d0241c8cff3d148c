// Reads one provider's generated data (models/generated/<provider>.ts) back into models. The
// format is written by catalog/generator/render.ts: the fields most rows share and the distinct
// thinking-level maps once, then one compact row per model:
//   [id, name or 0 when it equals the id, flags (1 reasoning, 2 image, 4 PDF, 8 audio input), contextWindow,
//    maxTokens, [input, output, cacheRead?, cacheWrite?], {anything else}?]
// An id or name may be [length shared with the previous row's, rest] (front coding).
// "Anything else": shared fields that differ (null removes one), `levels` (index of the row's
// thinking-level map) and `tiers` ([inputTokensAbove, input, output, cacheRead?, cacheWrite?] each).
import type { Api, Model, ModelCost, ModelInput, ThinkingLevelMap } from "../types.js";

/** A text, or [length shared with the previous row's text, rest] (front coding). */
type FrontCoded = string | [number, string];

type CompactRow = [
	id: FrontCoded,
	name: FrontCoded | 0,
	flags: number,
	contextWindow: number,
	maxTokens: number,
	prices: number[],
	extra?: Record<string, unknown>,
];

interface ProviderData {
	provider: string;
	defaults: Record<string, unknown>;
	levelMaps: ThinkingLevelMap[];
	rows: CompactRow[];
}

function pricesOf(prices: number[]): Pick<ModelCost, "input" | "output" | "cacheRead" | "cacheWrite"> {
	return { input: prices[0] ?? 0, output: prices[1] ?? 0, cacheRead: prices[2] ?? 0, cacheWrite: prices[3] ?? 0 };
}

/** The input kinds a row's flags name, in the order Model.input lists them. */
function inputOf(flags: number): ModelInput[] {
	const input: ModelInput[] = ["text"];
	if ((flags & 2) === 2) input.push("image");
	if ((flags & 4) === 4) input.push("pdf");
	if ((flags & 8) === 8) input.push("audio");
	return input;
}

function decodeFrontCoded(text: FrontCoded, previous: string | undefined): string {
	return typeof text === "string" ? text : (previous ?? "").slice(0, text[0]) + text[1];
}

/** One compact row as a model of `provider`; `previous` is the model of the row before it. */
export function modelFromCompactRow(
	provider: string,
	defaults: Record<string, unknown>,
	levelMaps: readonly ThinkingLevelMap[],
	row: CompactRow,
	previous?: Model<Api>,
): Model<Api> {
	const [codedId, codedName, flags, contextWindow, maxTokens, prices, extra] = row;
	const cost: ModelCost = pricesOf(prices);
	const id = decodeFrontCoded(codedId, previous?.id);
	const model = {
		id,
		name: codedName === 0 ? id : decodeFrontCoded(codedName, previous?.name),
		api: defaults.api,
		provider,
		baseUrl: defaults.baseUrl,
		reasoning: (flags & 1) === 1,
		input: inputOf(flags),
		cost,
		contextWindow,
		maxTokens,
	} as Model<Api>;
	const fields = model as unknown as Record<string, unknown>;
	if (defaults.headers) fields.headers = defaults.headers;
	if (defaults.compat) fields.compat = defaults.compat;
	if (extra) {
		const { tiers, levels, ...rest } = extra;
		for (const [field, value] of Object.entries(rest)) {
			if (value === null) delete fields[field];
			else fields[field] = value;
		}
		if (typeof levels === "number") fields.thinkingLevelMap = levelMaps[levels];
		if (Array.isArray(tiers)) {
			cost.tiers = (tiers as number[][]).map(([inputTokensAbove, ...tierPrices]) => ({
				inputTokensAbove,
				...pricesOf(tierPrices),
			}));
		}
	}
	return model;
}

/** A provider's models by id, from its generated JSON text. Each call builds new objects. */
export function decodeProviderModels(text: string): Record<string, Model<Api>> {
	const data = JSON.parse(text) as ProviderData;
	const models: Record<string, Model<Api>> = {};
	let previous: Model<Api> | undefined;
	for (const row of data.rows) {
		previous = modelFromCompactRow(data.provider, data.defaults, data.levelMaps, row, previous);
		models[previous.id] = previous;
	}
	return models;
}

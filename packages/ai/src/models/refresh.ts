// refreshModels(): an opt-in, run-time top-up of the catalogue, so ids released after this version
// of Keel work without an upgrade. Never runs on import. It reads models.dev's api.json, OpenRouter's
// model list, or any provider's OpenAI-style `/models` endpoint, and adds the ids the built-in
// catalogue lacks; built-in rows are never changed. A source that fails leaves everything as it was.
// In Node the answer is cached on disk (loaded through process.getBuiltinModule, so browser bundles
// need no node: module); elsewhere it is cached in memory only.

import { RETIRED_MODELS } from "../models.generated.js";
import type { Api, Model, OpenAICompletionsCompat } from "../types.js";
import { urlForMessages, withUrlForMessages } from "../utils/url-for-messages.js";
import { addCatalogueModels, getModels, getProviders } from "./catalogue.js";
import { inputKindsFromModalities } from "./input-kinds.js";

export type RefreshSource =
	/** models.dev's api.json: every provider it lists that Keel's catalogue knows. */
	| { kind: "models.dev"; url?: string }
	/** OpenRouter's `GET /api/v1/models`: tool-capable models, added to the "openrouter" provider. */
	| { kind: "openrouter"; url?: string }
	/**
	 * A provider's OpenAI-style `GET /models` (`{ data: [{ id }] }`). New ids take the api, base URL
	 * and compat of the provider's built-in rows, and default limits.
	 */
	| { kind: "provider-models"; provider: string; url: string; apiKey?: string };

export interface RefreshOptions {
	/** Default: models.dev and OpenRouter. */
	sources?: RefreshSource[];
	/** How long a cached answer is used before fetching again. Default 24 hours. */
	ttlMs?: number;
	/** Per request. Default 10000. */
	timeoutMs?: number;
	/** Node only: where answers are cached. Default: `<os temp dir>/keel-model-catalogue`. */
	cacheDirectory?: string;
	signal?: AbortSignal;
	/** Replaces the global fetch (tests, proxies). */
	fetch?: typeof fetch;
}

export interface RefreshSourceResult {
	source: string;
	/** "fetched", "cached" (within the TTL) or "failed". */
	status: "fetched" | "cached" | "failed";
	/** Ids added to the catalogue from this source. */
	added: number;
	/** Why the source failed; the catalogue is unchanged by it. */
	error?: string;
}

export interface RefreshResult {
	added: number;
	sources: RefreshSourceResult[];
}

export const MODELS_DEV_URL = "https://models.dev/api.json";
export const OPENROUTER_MODELS_URL = "https://openrouter.ai/api/v1/models";
const DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;
const DEFAULT_TIMEOUT_MS = 10_000;
// Used for a new id whose source gives no limits: small enough that no listed model rejects it.
const FALLBACK_CONTEXT_WINDOW = 128_000;
const FALLBACK_MAX_TOKENS = 4096;

/** models.dev provider ids that Keel names differently. */
const MODELS_DEV_PROVIDER_IDS: Record<string, string> = {
	vercel: "vercel-ai-gateway",
	"fireworks-ai": "fireworks",
};

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function positive(value: unknown): number | undefined {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;
}

function rate(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

function perTokenToPerMillion(value: unknown): number {
	const parsed = typeof value === "string" ? Number.parseFloat(value) : Number.NaN;
	return Number.isFinite(parsed) && parsed > 0 ? Number((parsed * 1_000_000).toPrecision(12)) : 0;
}

/** The wire settings a new id of `provider` takes: those of the provider's built-in rows. */
function providerTemplate(provider: string): Model<Api> | undefined {
	const [first] = getModels(provider as "openai") as Model<Api>[];
	return first;
}

function newModel(
	template: Model<Api>,
	fields: Pick<Model<Api>, "id" | "name" | "reasoning" | "input" | "cost" | "contextWindow" | "maxTokens">,
): Model<Api> {
	const model: Model<Api> = {
		...fields,
		api: template.api,
		provider: template.provider,
		baseUrl: template.baseUrl,
	};
	if (template.headers) model.headers = { ...template.headers };
	if (template.compat) model.compat = structuredClone(template.compat) as OpenAICompletionsCompat;
	if (model.maxTokens > model.contextWindow) model.maxTokens = model.contextWindow;
	return model;
}

/** models.dev api.json → models of the providers Keel knows. Rows that cannot be read are skipped. */
export function modelsFromModelsDev(body: unknown): Model<Api>[] {
	if (!isRecord(body)) throw new Error("expected an object of providers");
	const known = new Set<string>(getProviders());
	const models: Model<Api>[] = [];
	for (const [sourceId, provider] of Object.entries(body)) {
		const keelId = MODELS_DEV_PROVIDER_IDS[sourceId] ?? sourceId;
		if (!known.has(keelId) || !isRecord(provider) || !isRecord(provider.models)) continue;
		const template = providerTemplate(keelId);
		if (!template) continue;
		for (const [id, row] of Object.entries(provider.models)) {
			if (!isRecord(row) || row.tool_call !== true || row.status === "deprecated") continue;
			const modalities = isRecord(row.modalities) ? row.modalities : {};
			const output = Array.isArray(modalities.output) ? modalities.output : undefined;
			if (output && !output.includes("text")) continue;
			const limit = isRecord(row.limit) ? row.limit : {};
			const cost = isRecord(row.cost) ? row.cost : {};
			const contextWindow = positive(limit.context) ?? FALLBACK_CONTEXT_WINDOW;
			models.push(
				newModel(template, {
					id: typeof row.id === "string" ? row.id : id,
					name: typeof row.name === "string" && row.name ? row.name : id,
					reasoning: row.reasoning === true,
					input: inputKindsFromModalities(modalities.input),
					cost: {
						input: rate(cost.input),
						output: rate(cost.output),
						cacheRead: rate(cost.cache_read),
						cacheWrite: rate(cost.cache_write),
					},
					contextWindow,
					maxTokens: positive(limit.output) ?? Math.min(FALLBACK_MAX_TOKENS, contextWindow),
				}),
			);
		}
	}
	return models;
}

function dataArray(body: unknown): unknown[] {
	if (isRecord(body) && Array.isArray(body.data)) return body.data;
	throw new Error('expected JSON with a "data" array');
}

/** OpenRouter's model list → tool-capable models of the "openrouter" provider. */
export function modelsFromOpenRouter(body: unknown): Model<Api>[] {
	const template = providerTemplate("openrouter");
	if (!template) return [];
	const models: Model<Api>[] = [];
	for (const row of dataArray(body)) {
		if (!isRecord(row) || typeof row.id !== "string") continue;
		const parameters = Array.isArray(row.supported_parameters) ? row.supported_parameters : [];
		if (!parameters.includes("tools")) continue;
		const top = isRecord(row.top_provider) ? row.top_provider : {};
		const pricing = isRecord(row.pricing) ? row.pricing : {};
		const architecture = isRecord(row.architecture) ? row.architecture : {};
		const inputKinds = Array.isArray(architecture.input_modalities) ? architecture.input_modalities : [];
		const contextWindow = positive(top.context_length) ?? positive(row.context_length) ?? FALLBACK_CONTEXT_WINDOW;
		models.push(
			newModel(template, {
				id: row.id,
				name: typeof row.name === "string" && row.name ? row.name : row.id,
				reasoning: parameters.includes("reasoning"),
				input: inputKindsFromModalities(inputKinds),
				cost: {
					input: perTokenToPerMillion(pricing.prompt),
					output: perTokenToPerMillion(pricing.completion),
					cacheRead: perTokenToPerMillion(pricing.input_cache_read),
					cacheWrite: perTokenToPerMillion(pricing.input_cache_write),
				},
				contextWindow,
				maxTokens: positive(top.max_completion_tokens) ?? contextWindow,
			}),
		);
	}
	return models;
}

/** A provider's `/models` list → new ids on the provider's own wire settings, with default limits. */
export function modelsFromProviderList(provider: string, body: unknown): Model<Api>[] {
	const template = providerTemplate(provider);
	if (!template) throw new Error(`provider "${provider}" has no built-in models to take its api and base URL from`);
	const models: Model<Api>[] = [];
	for (const row of dataArray(body)) {
		if (!isRecord(row) || typeof row.id !== "string" || row.id === "") continue;
		const contextWindow = positive(row.context_window) ?? positive(row.context_length) ?? FALLBACK_CONTEXT_WINDOW;
		models.push(
			newModel(template, {
				id: row.id,
				name: row.id,
				reasoning: false,
				input: ["text"],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow,
				maxTokens: Math.min(FALLBACK_MAX_TOKENS, contextWindow),
			}),
		);
	}
	return models;
}

// --- cache --------------------------------------------------------------------------------------

interface CacheEntry {
	fetchedAt: number;
	body: unknown;
}

const memoryCache = new Map<string, CacheEntry>();

interface NodeFileSystem {
	readFileSync(path: string, encoding: "utf8"): string;
	writeFileSync(path: string, text: string): void;
	mkdirSync(path: string, options: { recursive: true }): void;
}

/** node:fs and the temp directory when running in Node, else undefined (browsers, Workers). */
function nodeFileSystem(): { fs: NodeFileSystem; tmpdir: () => string } | undefined {
	const nodeProcess = globalThis.process as { getBuiltinModule?: (id: string) => unknown } | undefined;
	const fs = nodeProcess?.getBuiltinModule?.("node:fs") as NodeFileSystem | undefined;
	const os = nodeProcess?.getBuiltinModule?.("node:os") as { tmpdir(): string } | undefined;
	return fs && os ? { fs, tmpdir: () => os.tmpdir() } : undefined;
}

function cacheFileName(url: string): string {
	let hash = 0;
	for (let index = 0; index < url.length; index++) hash = (hash * 31 + url.charCodeAt(index)) | 0;
	return `${url
		.replace(/^https?:\/\//, "")
		.replace(/[^A-Za-z0-9.-]+/g, "_")
		.slice(0, 80)}-${(hash >>> 0).toString(16)}.json`;
}

function readCache(url: string, options: RefreshOptions): CacheEntry | undefined {
	const inMemory = memoryCache.get(url);
	if (inMemory) return inMemory;
	const node = nodeFileSystem();
	if (!node) return undefined;
	const directory = options.cacheDirectory ?? `${node.tmpdir()}/keel-model-catalogue`;
	try {
		const entry = JSON.parse(node.fs.readFileSync(`${directory}/${cacheFileName(url)}`, "utf8")) as CacheEntry;
		if (typeof entry.fetchedAt !== "number") return undefined;
		memoryCache.set(url, entry);
		return entry;
	} catch {
		return undefined;
	}
}

function writeCache(url: string, entry: CacheEntry, options: RefreshOptions): void {
	memoryCache.set(url, entry);
	const node = nodeFileSystem();
	if (!node) return;
	const directory = options.cacheDirectory ?? `${node.tmpdir()}/keel-model-catalogue`;
	try {
		node.fs.mkdirSync(directory, { recursive: true });
		node.fs.writeFileSync(`${directory}/${cacheFileName(url)}`, JSON.stringify(entry));
	} catch {
		// A cache that cannot be written only costs a fetch next time.
	}
}

/** Forgets cached answers held in memory (the disk cache stays; pass ttlMs: 0 to bypass it). */
export function clearRefreshCache(): void {
	memoryCache.clear();
}

// --- fetching -----------------------------------------------------------------------------------

async function fetchJson(url: string, options: RefreshOptions, apiKey?: string): Promise<unknown> {
	const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
	const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
	const headers: Record<string, string> = { accept: "application/json" };
	if (apiKey) headers.authorization = `Bearer ${apiKey}`;
	let response: Response;
	try {
		response = await (options.fetch ?? fetch)(url, { signal, headers });
	} catch (error) {
		if (timeout.aborted) throw new Error(`no answer within ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`);
		throw new Error(error instanceof Error ? error.message : String(error));
	}
	if (!response.ok) {
		await response.body?.cancel();
		throw new Error(`HTTP ${response.status}`);
	}
	try {
		return await response.json();
	} catch {
		throw new Error("the answer is not valid JSON");
	}
}

function describe(source: RefreshSource): { name: string; url: string } {
	if (source.kind === "models.dev") return { name: "models.dev", url: source.url ?? MODELS_DEV_URL };
	if (source.kind === "openrouter") return { name: "openrouter", url: source.url ?? OPENROUTER_MODELS_URL };
	return { name: `${source.provider} /models`, url: source.url };
}

let retiredModelSet: ReadonlySet<string> | undefined;

function retiredModels(): ReadonlySet<string> {
	retiredModelSet ??= new Set(RETIRED_MODELS);
	return retiredModelSet;
}

function convert(source: RefreshSource, body: unknown): Model<Api>[] {
	if (source.kind === "models.dev") return modelsFromModelsDev(body);
	if (source.kind === "openrouter") return modelsFromOpenRouter(body);
	return modelsFromProviderList(source.provider, body);
}

/**
 * Fetches the sources (or reads them from the cache while younger than `ttlMs`) and adds the models
 * the built-in catalogue lacks, so `findModel`, `getModelOrThrow`, `getModels` and `getProviders`
 * know them. Never throws for a source: each one's outcome is in the result, and a source that is
 * offline, answers an error, times out or sends the wrong shape changes nothing.
 */
export async function refreshModels(options: RefreshOptions = {}): Promise<RefreshResult> {
	const sources = options.sources ?? [{ kind: "models.dev" }, { kind: "openrouter" }];
	const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
	const results: RefreshSourceResult[] = [];
	for (const source of sources) {
		const { name, url } = describe(source);
		try {
			const cached = readCache(url, options);
			const fresh = cached && Date.now() - cached.fetchedAt < ttlMs;
			const body = fresh
				? cached.body
				: await fetchJson(url, options, source.kind === "provider-models" ? source.apiKey : undefined);
			// Converted in full before anything is added: a bad shape adds nothing. A model the catalogue
			// left out because its provider retired it stays out, although public lists may still carry it.
			const models = convert(source, body).filter((model) => !retiredModels().has(`${model.provider}/${model.id}`));
			if (!fresh) writeCache(url, { fetchedAt: Date.now(), body }, options);
			results.push({ source: name, status: fresh ? "cached" : "fetched", added: addCatalogueModels(models) });
		} catch (error) {
			results.push({
				source: name,
				status: "failed",
				added: 0,
				// fetch quotes the URL in some of its errors: the shown URL replaces it there too.
				error: `${urlForMessages(url)}: ${withUrlForMessages(error instanceof Error ? error.message : String(error), url)}`,
			});
		}
	}
	return { added: results.reduce((sum, result) => sum + result.added, 0), sources: results };
}

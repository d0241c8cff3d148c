import { failedStream } from "../call/failed-stream.js";
import type { Api, Model } from "../types.js";
import type { ModelProvider, ProviderAuth, ProviderStreams, RefreshModelsContext } from "./types.js";

export interface CreateProviderOptions<TApi extends Api = Api> {
	id: string;
	/** Default: the id. */
	name?: string;
	baseUrl?: string;
	/** Sent with every request of this provider; a model's own headers win on a clash. */
	headers?: Record<string, string>;
	auth: ProviderAuth;
	models: readonly Model<TApi>[];
	/** Fetches the live model list (an OpenAI-compatible `/models`, a local server's list). */
	fetchModels?: (context: RefreshModelsContext) => Promise<readonly Model<TApi>[]>;
	/** One implementation for every model, or one per `model.api`. */
	api: ProviderStreams | Partial<Record<TApi, ProviderStreams>>;
}

function isProviderStreams(value: unknown): value is ProviderStreams {
	return (
		typeof value === "object" &&
		value !== null &&
		typeof (value as ProviderStreams).stream === "function" &&
		typeof (value as ProviderStreams).streamSimple === "function"
	);
}

/** Builds a provider from parts. Bad options throw here, at construction, with what to fix. */
export function createProvider<TApi extends Api = Api>(options: CreateProviderOptions<TApi>): ModelProvider<TApi> {
	if (typeof options?.id !== "string" || options.id === "")
		throw new Error("createProvider: id must be a non-empty string");
	const id = options.id;
	if (!options.auth || (!options.auth.apiKey && !options.auth.oauth)) {
		throw new Error(`createProvider("${id}"): auth needs apiKey or oauth (a keyless server resolves to { auth: {} })`);
	}
	if (!options.api || typeof options.api !== "object") throw new Error(`createProvider("${id}"): api is required`);
	if (!Array.isArray(options.models)) throw new Error(`createProvider("${id}"): models must be an array`);
	const api = options.api;
	const streamsFor = (model: Model<Api>): ProviderStreams | undefined =>
		isProviderStreams(api) ? api : (api as Partial<Record<Api, ProviderStreams>>)[model.api];
	const withProviderHeaders = (model: Model<Api>): Model<Api> =>
		options.headers ? { ...model, headers: { ...options.headers, ...model.headers } } : model;
	const noApi = (model: Model<Api>) =>
		failedStream(model, `Provider "${id}" has no implementation for api "${model.api}" (model "${model.id}")`);

	let models: readonly Model<TApi>[] = [...options.models];
	const fetchModels = options.fetchModels;

	return {
		id,
		name: options.name ?? id,
		baseUrl: options.baseUrl,
		headers: options.headers,
		auth: options.auth,
		getModels: () => models,
		refreshModels: fetchModels
			? async (context) => {
					if (!context.allowNetwork) {
						if (context.stored) models = context.stored.models as readonly Model<TApi>[];
						return;
					}
					const fetched = await fetchModels(context);
					await context.persist({ models: fetched, checkedAt: Date.now() });
					models = [...fetched];
				}
			: undefined,
		stream(model, context, streamOptions) {
			const streams = streamsFor(model);
			return streams ? streams.stream(withProviderHeaders(model), context, streamOptions) : noApi(model);
		},
		streamSimple(model, context, streamOptions) {
			const streams = streamsFor(model);
			return streams ? streams.streamSimple(withProviderHeaders(model), context, streamOptions) : noApi(model);
		},
	};
}

/** Narrows a model to one wire API, for code that needs that API's option types. */
export function hasApi<TApi extends Api>(model: Model<Api> | undefined | null, api: TApi): model is Model<TApi> {
	return model !== undefined && model !== null && model.api === api;
}

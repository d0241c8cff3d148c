import type { StreamFunction } from "./stream-function.js";
import type { Api, Model, SimpleStreamOptions, StreamOptions } from "./types.js";
import type { AssistantMessageEventStream } from "./utils/event-stream.js";

export type ApiStreamFunction = (
	model: Model<Api>,
	context: import("./types.js").Context,
	options?: StreamOptions,
) => AssistantMessageEventStream;

export type ApiStreamSimpleFunction = (
	model: Model<Api>,
	context: import("./types.js").Context,
	options?: SimpleStreamOptions,
) => AssistantMessageEventStream;

/** A provider for one wire API: a raw stream function and a unified-options one. */
export interface ApiProvider<TApi extends Api = Api, TOptions extends StreamOptions = StreamOptions> {
	api: TApi;
	stream: StreamFunction<TApi, TOptions>;
	streamSimple: StreamFunction<TApi, SimpleStreamOptions>;
}

interface RegistryEntry {
	provider: ApiProvider<Api, StreamOptions>;
	sourceId?: string;
}

const registry = new Map<string, RegistryEntry>();

function checkApi(api: Api, model: Model<Api>): void {
	// A programming error (wrong model for this provider), so it throws at once.
	if (model.api !== api) throw new Error(`Mismatched api: ${model.api} expected ${api}`);
}

/** Adds or replaces (last one wins) the provider for `provider.api`. */
export function registerApiProvider<TApi extends Api, TOptions extends StreamOptions>(
	provider: ApiProvider<TApi, TOptions>,
	sourceId?: string,
): void {
	const api = provider.api;
	const wrapped: ApiProvider<Api, StreamOptions> = {
		api,
		stream: (model, context, options) => {
			checkApi(api, model);
			return provider.stream(model as Model<TApi>, context, options as TOptions);
		},
		streamSimple: (model, context, options) => {
			checkApi(api, model);
			return provider.streamSimple(model as Model<TApi>, context, options);
		},
	};
	registry.set(api, { provider: wrapped, sourceId });
}

export function getApiProvider(api: Api): ApiProvider<Api, StreamOptions> | undefined {
	return registry.get(api)?.provider;
}

export function getApiProviders(): ApiProvider<Api, StreamOptions>[] {
	return [...registry.values()].map((entry) => entry.provider);
}

/** Removes every provider registered with this sourceId. */
export function unregisterApiProviders(sourceId: string): void {
	for (const [api, entry] of registry) {
		if (entry.sourceId === sourceId) registry.delete(api);
	}
}

export function clearApiProviders(): void {
	registry.clear();
}

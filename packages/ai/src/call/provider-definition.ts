// A wire API as the harness runs it: how unified options map onto the API's own, whether it needs a
// key, how its errors read, and one attempt. Each provider folder's index.ts exports one; the
// registry holds a loader for it (a dynamic import), so a provider module loads on its first call
// and its events still go straight into the one stream the caller already holds.
import type { ApiProvider } from "../api-registry.js";
import type { Api, Context, Model, SimpleStreamOptions, StreamOptions } from "../types.js";
import { formatThrownValue } from "../utils/error-message.js";
import type { AssistantMessageEventStream } from "../utils/event-stream.js";
import { classifyError, type ErrorClassification } from "./error-classification.js";
import type { ProviderAttempt } from "./provider-attempt.js";
import { startProviderCall } from "./provider-stream.js";

export interface ProviderDefinition<TApi extends Api = Api, TOptions extends StreamOptions = StreamOptions> {
	api: TApi;
	/** Maps unified options (a reasoning level, thinking budgets) onto this API's options. */
	simpleOptions(model: Model<TApi>, options: SimpleStreamOptions | undefined): TOptions;
	/** False when a call can go without a key (a local server, an injected client). Default: true. */
	requiresApiKey?(model: Model<TApi>, options: TOptions): boolean;
	/** Reads this API's errors (status, message, retryable); default `classifyError`. */
	classifyError?(error: unknown): ErrorClassification;
	/** One attempt: send the request, feed the decoder; the harness retries, times and ends the call. */
	runAttempt(attempt: ProviderAttempt<TApi>, context: Context, options: TOptions): Promise<void>;
}

/** A definition, or a loader that imports the module holding it. */
export type ProviderDefinitionSource<TApi extends Api, TOptions extends StreamOptions> =
	| ProviderDefinition<TApi, TOptions>
	| (() => Promise<ProviderDefinition<TApi, TOptions>>);

/** Streams one call with the API's own options. Never throws; see StreamFunction. */
export function streamWithDefinition<TApi extends Api, TOptions extends StreamOptions>(
	source: ProviderDefinitionSource<TApi, TOptions>,
	model: Model<TApi>,
	context: Context,
	options: TOptions | undefined,
): AssistantMessageEventStream {
	return streamFromSource(source, model, context, options, () => options ?? ({} as TOptions));
}

/** Streams one call with unified options, mapped by the definition. Never throws; see StreamFunction. */
export function streamSimpleWithDefinition<TApi extends Api, TOptions extends StreamOptions>(
	source: ProviderDefinitionSource<TApi, TOptions>,
	model: Model<TApi>,
	context: Context,
	options: SimpleStreamOptions | undefined,
): AssistantMessageEventStream {
	return streamFromSource(source, model, context, options, (definition) => definition.simpleOptions(model, options));
}

/** The registry entry for a definition: `stream` and `streamSimple` run it in the harness. */
export function apiProviderFromDefinition<TApi extends Api, TOptions extends StreamOptions>(
	api: TApi,
	source: ProviderDefinitionSource<TApi, TOptions>,
): ApiProvider<TApi, TOptions> {
	return {
		api,
		stream: (model, context, options) => streamWithDefinition(source, model, context, options),
		streamSimple: (model, context, options) => streamSimpleWithDefinition(source, model, context, options),
	};
}

function streamFromSource<TApi extends Api, TOptions extends StreamOptions>(
	source: ProviderDefinitionSource<TApi, TOptions>,
	model: Model<TApi>,
	context: Context,
	callerOptions: StreamOptions | undefined,
	mapOptions: (definition: ProviderDefinition<TApi, TOptions>) => TOptions,
): AssistantMessageEventStream {
	return startProviderCall(
		model,
		callerOptions,
		async () => {
			const definition = typeof source === "function" ? await loadDefinition(source, model.api) : source;
			const options = mapOptions(definition);
			return {
				options,
				requiresApiKey: definition.requiresApiKey?.(model, options) ?? true,
				classifyError: definition.classifyError ?? classifyError,
				run: (attempt) => definition.runAttempt(attempt, context, options),
			};
		},
		context,
	);
}

async function loadDefinition<TDefinition>(load: () => Promise<TDefinition>, api: Api): Promise<TDefinition> {
	try {
		return await load();
	} catch (error) {
		throw new Error(`Failed to load the provider for api "${api}": ${formatThrownValue(error)}`, { cause: error });
	}
}

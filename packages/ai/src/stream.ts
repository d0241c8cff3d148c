import { getApiProvider } from "./api-registry.js";
import { failedStream } from "./providers/shared/failed-stream.js";
import { redactSecret } from "./providers/shared/retry.js";
import type {
	Api,
	AssistantMessage,
	Context,
	Model,
	ProviderStreamOptions,
	SimpleStreamOptions,
	StreamOptions,
} from "./types.js";
import type { AssistantMessageEventStream } from "./utils/event-stream.js";

function resolveProvider(api: Api) {
	const provider = getApiProvider(api);
	// An unknown api is a programming error, so it throws at once rather than becoming an event.
	if (!provider) throw new Error(`No API provider registered for api: ${api}`);
	return provider;
}

/** Runs a provider call; anything it throws after this point becomes an error event. */
function guarded(
	model: Model<Api>,
	apiKey: string | undefined,
	call: () => AssistantMessageEventStream,
): AssistantMessageEventStream {
	try {
		return call();
	} catch (error) {
		const text = error instanceof Error ? error.message : String(error);
		return failedStream(model, redactSecret(text, apiKey));
	}
}

/** Streams a response with provider-specific options. Never throws for request or runtime failures. */
export function stream<TApi extends Api>(
	model: Model<TApi>,
	context: Context,
	options?: ProviderStreamOptions | StreamOptions,
): AssistantMessageEventStream {
	const provider = resolveProvider(model.api);
	return guarded(model, options?.apiKey, () => provider.stream(model, context, options));
}

export function complete<TApi extends Api>(
	model: Model<TApi>,
	context: Context,
	options?: ProviderStreamOptions | StreamOptions,
): Promise<AssistantMessage> {
	return stream(model, context, options).result();
}

/** Streams a response with unified options (`reasoning` level). Never throws for request failures. */
export function streamSimple<TApi extends Api>(
	model: Model<TApi>,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	const provider = resolveProvider(model.api);
	return guarded(model, options?.apiKey, () => provider.streamSimple(model, context, options));
}

export function completeSimple<TApi extends Api>(
	model: Model<TApi>,
	context: Context,
	options?: SimpleStreamOptions,
): Promise<AssistantMessage> {
	return streamSimple(model, context, options).result();
}

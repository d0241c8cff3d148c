import { getApiProvider } from "./api-registry.js";
import { failedStream } from "./call/failed-stream.js";
import { sanitizeServerText } from "./call/secret-redaction.js";
import { withDeprecationWarning } from "./models/deprecation-warning.js";
import type {
	Api,
	AssistantMessage,
	Context,
	Model,
	ProviderStreamOptions,
	SimpleStreamOptions,
	StreamOptions,
} from "./types.js";
import { formatThrownValue } from "./utils/error-message.js";
import type { AssistantMessageEventStream } from "./utils/event-stream.js";

type EntryPoint = "stream" | "streamSimple";

/**
 * Calls the registered provider for the model's api. An unknown api is a programming error and
 * throws at once; everything else arrives as events. A registered StreamFunction must not throw
 * (see its type); should one throw anyway, this is the one place that turns it into an error event.
 */
function callProvider<TApi extends Api>(
	entryPoint: EntryPoint,
	model: Model<TApi>,
	context: Context,
	options: (StreamOptions & Record<string, unknown>) | SimpleStreamOptions | undefined,
): AssistantMessageEventStream {
	if (model === undefined || model === null || typeof model !== "object") return missingModelStream(entryPoint, model);
	const provider = getApiProvider(model.api);
	if (!provider) throw new Error(`No API provider registered for api: ${model.api}`);
	try {
		return withDeprecationWarning(model, provider[entryPoint](model, context, options));
	} catch (error) {
		return failedStream(model, sanitizeServerText(formatThrownValue(error), options?.apiKey));
	}
}

/** `getModel` returns undefined for an id the catalogue does not know; that arrives here at run time. */
function missingModelStream(entryPoint: EntryPoint, model: unknown): AssistantMessageEventStream {
	const got = model === null ? "null" : typeof model === "object" ? "an object" : String(model);
	return failedStream(
		{ api: "unknown", provider: "unknown", id: "unknown" },
		`${entryPoint}() was called without a model (got ${got}): getModel() returns undefined for a provider/model id the catalogue does not know. Check the id (getModels(provider) lists them), or look the model up with getModelOrThrow() to fail where the id is wrong`,
	);
}

/** Streams a response with provider-specific options. Never throws for request or runtime failures. */
export function stream<TApi extends Api>(
	model: Model<TApi>,
	context: Context,
	options?: ProviderStreamOptions | StreamOptions,
): AssistantMessageEventStream {
	return callProvider("stream", model, context, options);
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
	return callProvider("streamSimple", model, context, options);
}

export function completeSimple<TApi extends Api>(
	model: Model<TApi>,
	context: Context,
	options?: SimpleStreamOptions,
): Promise<AssistantMessage> {
	return streamSimple(model, context, options).result();
}

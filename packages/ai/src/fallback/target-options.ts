// The options each model of a fallback chain is called with. The caller's options were written for
// the caller's model: its key, its headers and its provider's own options must never reach another
// provider. What carries over is what means the same to every model.
import type { Api, Model, ProviderStreamOptions, SimpleStreamOptions } from "../types.js";

/** Options of a call through a fallback chain: unified options, plus provider options for `stream`. */
export type FallbackCallOptions = SimpleStreamOptions & ProviderStreamOptions;

// Every key of StreamOptions and SimpleStreamOptions but `apiKey` and `headers`, which belong to
// one provider. A key added to StreamOptions is not carried over until it is listed here.
const PORTABLE_KEYS = [
	"temperature",
	"samplingParams",
	"maxTokens",
	"signal",
	"transport",
	"cacheRetention",
	"sessionId",
	"onPayload",
	"onResponse",
	"onRawEvent",
	"timeoutMs",
	"idleTimeoutMs",
	"maxRetries",
	"maxRetryDelayMs",
	"metadata",
	"reasoning",
	"thinkingBudgets",
	"missingKeyRemedy",
] as const satisfies readonly (keyof SimpleStreamOptions)[];

/** Compile-time check that the list above names every key but the two that stay behind. */
type UnlistedKey = Exclude<keyof SimpleStreamOptions, (typeof PORTABLE_KEYS)[number] | "apiKey" | "headers">;
const everyKeyListed: UnlistedKey extends never ? true : UnlistedKey = true;
void everyKeyListed;

/**
 * The options for one model of the chain: the caller's options whole when it is the caller's own
 * model, else only their portable part; then the target's own options (its key, headers, provider
 * options) over them. `maxTokens` is lowered to the model's limit.
 */
export function buildTargetOptions(
	model: Model<Api>,
	callerOptions: FallbackCallOptions | undefined,
	targetOptions: FallbackCallOptions | undefined,
	isCallerModel: boolean,
): FallbackCallOptions {
	const carried: FallbackCallOptions = isCallerModel ? { ...callerOptions } : portableOptions(callerOptions);
	const options: FallbackCallOptions = { ...carried, ...targetOptions };
	if (options.maxTokens !== undefined && model.maxTokens > 0 && options.maxTokens > model.maxTokens) {
		options.maxTokens = model.maxTokens;
	}
	return options;
}

function portableOptions(options: FallbackCallOptions | undefined): FallbackCallOptions {
	const portable: Record<string, unknown> = {};
	if (!options) return portable;
	for (const key of PORTABLE_KEYS) {
		if (options[key] !== undefined) portable[key] = options[key];
	}
	return portable as FallbackCallOptions;
}

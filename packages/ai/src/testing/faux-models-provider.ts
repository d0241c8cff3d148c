import { createProvider } from "../registry/create-provider.js";
import { keylessAuth } from "../registry/env-api-key-auth.js";
import type { ModelProvider } from "../registry/types.js";
import type { Api, Model } from "../types.js";
import { createFauxStreams, type FauxProviderOptions, type FauxProviderRegistration } from "./faux-provider.js";

/** A faux provider for a `Models` collection: the same controls as registerFauxProvider, plus the provider. */
export interface FauxProviderHandle<TApi extends string = "faux">
	extends Omit<FauxProviderRegistration<TApi>, "unregister" | "provider"> {
	/** The provider to add to a collection; its id is `options.provider` (default "faux"). */
	readonly provider: ModelProvider;
	readonly models: Model<TApi>[];
}

/**
 * Builds an in-memory scripted provider without touching the global API registry; add it to a
 * collection with `models.setProvider(faux.provider)`. Two handles with different `provider` ids
 * are independent, so concurrent tests do not share a queue.
 */
export function fauxProvider<TApi extends string = "faux">(
	options: FauxProviderOptions<TApi> = {},
): FauxProviderHandle<TApi> {
	const { streams, controls } = createFauxStreams(options);
	const provider = createProvider<Api>({
		id: controls.provider,
		auth: { apiKey: keylessAuth("Faux provider") },
		models: controls.models,
		api: streams as never,
	});
	const { provider: _providerId, ...rest } = controls;
	return { ...rest, provider };
}

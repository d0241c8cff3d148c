// One provider's catalogue on its own, for the generated `@keel/ai/models/<provider>` entries. An
// app that imports `getModel` from "@keel/ai" bundles every provider's data, because the provider
// is a run-time argument; an entry made for one provider holds only that provider's data module,
// so a browser bundle carries the rows it can use and no others. The rows are read with the same
// reader as the whole catalogue's (catalogue-rows.ts), parsed on the first lookup, never at import.
import type { Api, Model } from "../types.js";
import { decodeProviderModels } from "./catalogue-rows.js";
import { deepFreeze } from "./deep-freeze.js";

/** Lookups in one provider's models; `TModels` maps each id to its typed model. */
export interface ProviderCatalogue<TModels> {
	/**
	 * The model with this id, its api inferred from the id. An id outside the catalogue is a compile
	 * error; at run time one (reachable only through a cast) returns undefined, like "@keel/ai"'s getModel.
	 */
	getModel<TModelId extends keyof TModels & string>(modelId: TModelId): TModels[TModelId];
	/** Any id string (from configuration, a CLI flag); undefined when the provider has no such model. */
	findModel(modelId: string): TModels[keyof TModels & string] | undefined;
	/** Every model of the provider, sorted by id. */
	getModels(): TModels[keyof TModels & string][];
}

/** The catalogue of the provider whose generated JSON text is `data`. */
export function createProviderCatalogue<TModels>(data: string): ProviderCatalogue<TModels> {
	let models: Record<string, Model<Api>> | undefined;
	const built = () => {
		models ??= decodeProviderModels(data);
		return models;
	};
	const find = (modelId: string) => {
		const all = built();
		return Object.hasOwn(all, modelId) ? deepFreeze(all[modelId]) : undefined;
	};
	return {
		getModel: (modelId) => find(modelId) as never,
		findModel: (modelId) => find(modelId) as never,
		getModels: () => Object.keys(built()).map((modelId) => find(modelId)) as never,
	};
}

// Typed access to the generated catalogue. Lookups are typed from its generated interface, so an
// unknown provider or id is a compile error and the api type is inferred:
//   getModel("anthropic", "claude-sonnet-4-6")  →  Model<"anthropic-messages">
// Models handed out are deeply frozen: they are shared rows, so a caller cannot change the registry
// for everyone by accident. Copy one (`{ ...model }`, structuredClone) to adjust it.
import { GENERATED_PROVIDER_DATA, type GeneratedCatalogue } from "../models.generated.js";
import type { Api, Model, Provider } from "../types.js";
import { decodeProviderModels } from "./catalogue-rows.js";
import { deepFreeze } from "./deep-freeze.js";

type Catalogue = GeneratedCatalogue;

/** A provider id present in the generated catalogue. */
export type CatalogueProvider = keyof Catalogue;

/** A model id the catalogue lists for `TProvider`. */
export type CatalogueModelId<TProvider extends CatalogueProvider> = keyof Catalogue[TProvider] & string;

/** The model type of one catalogue entry, with its api inferred. */
export type CatalogueModel<
	TProvider extends CatalogueProvider,
	TModelId extends CatalogueModelId<TProvider>,
> = Catalogue[TProvider][TModelId] extends { api: infer TApi extends Api } ? Model<TApi> : Model<Api>;

// Nothing is built at import. Each provider's data is JSON text in its own generated module, parsed
// the first time that provider is looked up (a program that uses one provider builds only its rows),
// and each model is frozen when first handed out. Lookups are plain object reads; Object.hasOwn keeps
// "__proto__" or "constructor" from resolving to Object.prototype members.
const builtProviders = new Map<string, Record<string, Model<Api>>>();

// Models added at run time by refreshModels(): ids the built-in catalogue does not list.
const addedModels = new Map<string, Map<string, Model<Api>>>();

function builtInModels(provider: string): Record<string, Model<Api>> | undefined {
	let models = builtProviders.get(provider);
	if (!models && Object.hasOwn(GENERATED_PROVIDER_DATA, provider)) {
		models = decodeProviderModels(GENERATED_PROVIDER_DATA[provider]);
		builtProviders.set(provider, models);
	}
	return models;
}

function lookup(provider: string, modelId: string): Model<Api> | undefined {
	const models = builtInModels(provider);
	if (models && Object.hasOwn(models, modelId)) return deepFreeze(models[modelId]);
	const added = addedModels.get(provider)?.get(modelId);
	return added ? deepFreeze(added) : undefined;
}

function idsOf(provider: string): string[] {
	const builtIn = Object.keys(builtInModels(provider) ?? {});
	const added = [...(addedModels.get(provider)?.keys() ?? [])];
	return added.length === 0 ? builtIn : [...new Set([...builtIn, ...added])].sort();
}

/** Whether the built-in catalogue lists this provider and id (refreshModels adds only what it lacks). */
export function isBuiltInModel(provider: string, modelId: string): boolean {
	const models = builtInModels(provider);
	return models !== undefined && Object.hasOwn(models, modelId);
}

/**
 * Adds models the built-in catalogue does not list, so that findModel, getModelOrThrow, getModels
 * and getProviders see them. A built-in row is never replaced. Returns how many were added.
 */
export function addCatalogueModels(models: readonly Model<Api>[]): number {
	let count = 0;
	for (const model of models) {
		if (isBuiltInModel(model.provider, model.id)) continue;
		let forProvider = addedModels.get(model.provider);
		if (!forProvider) {
			forProvider = new Map();
			addedModels.set(model.provider, forProvider);
		}
		if (!forProvider.has(model.id)) count++;
		forProvider.set(model.id, model);
	}
	return count;
}

/** Forgets every model refreshModels added (tests; a program that wants the built-in list back). */
export function clearAddedModels(): void {
	addedModels.clear();
}

/**
 * A catalogue model. Both arguments autocomplete and are checked at compile time. At runtime, a pair
 * that is not in the catalogue (reachable only through a cast) returns undefined rather than
 * throwing; use `findModel` for ids that come from configuration, or `getModelOrThrow` for a clear error.
 */
export function getModel<TProvider extends CatalogueProvider, TModelId extends CatalogueModelId<TProvider>>(
	provider: TProvider,
	modelId: TModelId,
): CatalogueModel<TProvider, TModelId> {
	return lookup(provider, modelId) as CatalogueModel<TProvider, TModelId>;
}

/** Looks up any provider and id strings (from a config file, a CLI flag); undefined when unknown. */
export function findModel(provider: Provider, modelId: string): Model<Api> | undefined {
	return lookup(provider, modelId);
}

/** Like findModel, but an unknown provider or id throws an error that says what exists. */
export function getModelOrThrow(provider: Provider, modelId: string): Model<Api> {
	if (!builtInModels(provider) && !addedModels.has(provider)) {
		throw new Error(
			`Unknown provider "${provider}". Known providers: ${getProviders().join(", ")}. ` +
				"For a custom endpoint, use defineModel({ id, baseUrl }).",
		);
	}
	const model = lookup(provider, modelId);
	if (!model) {
		const ids = idsOf(provider);
		const shown = ids.slice(0, 20).join(", ") + (ids.length > 20 ? `, … (${ids.length} in all)` : "");
		throw new Error(`Unknown model "${modelId}" for provider "${provider}". Known ids: ${shown}.`);
	}
	return model;
}

/** Every model of a provider, sorted by id; [] for an unknown provider. */
export function getModels<TProvider extends CatalogueProvider>(
	provider: TProvider,
): CatalogueModel<TProvider, CatalogueModelId<TProvider>>[] {
	return idsOf(provider).map((id) => lookup(provider, id)) as CatalogueModel<TProvider, CatalogueModelId<TProvider>>[];
}

/** The provider ids in the catalogue, sorted. */
export function getProviders(): CatalogueProvider[] {
	const providers = Object.keys(GENERATED_PROVIDER_DATA);
	const added = [...addedModels.keys()].filter((provider) => !Object.hasOwn(GENERATED_PROVIDER_DATA, provider));
	return (added.length === 0 ? providers : [...providers, ...added].sort()) as CatalogueProvider[];
}

/** Same model: equal id and provider. False when either side is missing. */
export function modelsAreEqual(
	left: Pick<Model<Api>, "id" | "provider"> | null | undefined,
	right: Pick<Model<Api>, "id" | "provider"> | null | undefined,
): boolean {
	if (!left || !right) return false;
	return left.id === right.id && left.provider === right.provider;
}

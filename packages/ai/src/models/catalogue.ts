// Typed access to the generated catalogue. Lookups are typed from its generated interface, so an
// unknown provider or id is a compile error and the api type is inferred:
//   getModel("anthropic", "claude-sonnet-4-5")  →  Model<"anthropic-messages">
// Models handed out are deeply frozen: a caller cannot change the registry by accident (in pi they
// were shared mutable objects). Copy one (`{ ...model }`, structuredClone) to adjust it.
import { createCatalogue, type GeneratedCatalogue } from "../models.generated.js";
import type { Api, Model, Provider } from "../types.js";

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

function deepFreeze<T>(value: T): T {
	if (value && typeof value === "object" && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const child of Object.values(value)) deepFreeze(child);
	}
	return value;
}

// Nothing is built at import: the generated JSON text is parsed on the first lookup (≈430 models in
// ≈1 ms, where object literals cost ≈4 ms of every cold start), and each model is frozen when first
// handed out. Lookups are plain object reads; Object.hasOwn keeps "__proto__" or "constructor" from
// resolving to Object.prototype members.
let builtCatalogue: Record<string, Record<string, Model<Api>>> | undefined;

function catalogue(): Record<string, Record<string, Model<Api>>> {
	builtCatalogue ??= createCatalogue() as unknown as Record<string, Record<string, Model<Api>>>;
	return builtCatalogue;
}

function providerModels(provider: string): Record<string, Model<Api>> | undefined {
	const models = catalogue();
	return Object.hasOwn(models, provider) ? models[provider] : undefined;
}

function lookup(provider: string, modelId: string): Model<Api> | undefined {
	const models = providerModels(provider);
	return models && Object.hasOwn(models, modelId) ? deepFreeze(models[modelId]) : undefined;
}

/**
 * A catalogue model. Both arguments autocomplete and are checked at compile time. At runtime, a pair
 * that is not in the catalogue (reachable only through a cast) returns undefined, as in pi; use
 * `findModel` for ids that come from configuration, or `getModelOrThrow` for a clear error.
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
	const models = providerModels(provider);
	if (!models) {
		throw new Error(
			`Unknown provider "${provider}". Known providers: ${getProviders().join(", ")}. ` +
				"For a custom endpoint, use defineModel({ id, baseUrl }).",
		);
	}
	const model = lookup(provider, modelId);
	if (!model) {
		const ids = Object.keys(models);
		const shown = ids.slice(0, 20).join(", ") + (ids.length > 20 ? `, … (${ids.length} in all)` : "");
		throw new Error(`Unknown model "${modelId}" for provider "${provider}". Known ids: ${shown}.`);
	}
	return model;
}

/** Every model of a provider, sorted by id; [] for an unknown provider. */
export function getModels<TProvider extends CatalogueProvider>(
	provider: TProvider,
): CatalogueModel<TProvider, CatalogueModelId<TProvider>>[] {
	const models = providerModels(provider);
	return (models ? Object.values(models).map(deepFreeze) : []) as CatalogueModel<
		TProvider,
		CatalogueModelId<TProvider>
	>[];
}

/** The provider ids in the catalogue, sorted. */
export function getProviders(): CatalogueProvider[] {
	return Object.keys(catalogue()) as CatalogueProvider[];
}

/** Same model: equal id and provider. False when either side is missing. */
export function modelsAreEqual(
	left: Pick<Model<Api>, "id" | "provider"> | null | undefined,
	right: Pick<Model<Api>, "id" | "provider"> | null | undefined,
): boolean {
	if (!left || !right) return false;
	return left.id === right.id && left.provider === right.provider;
}

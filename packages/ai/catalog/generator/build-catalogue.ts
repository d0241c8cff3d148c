// Assembles the catalogue from the sources, in order of precedence: the public catalogues (first
// occurrence of an id wins: models.dev, then OpenRouter, then the Vercel gateway), then the curated
// rows on top, then Azure clones of the OpenAI models. Pure: same input, same output.

import type { Api, Model, OpenAICompletionsCompat } from "../../src/types.js";
import type { CuratedModel, CuratedPatch } from "../index.js";
import { bedrockCompatFor } from "./bedrock-compat.js";
import { convertModelsDevModel, convertOpenRouterModel, convertVercelGatewayModel } from "./convert.js";
import {
	apiForCopilotModel,
	MODELS_DEV_PROVIDER_RULES,
	OPENROUTER_RULE,
	ruleForProvider,
	VERCEL_GATEWAY_RULE,
} from "./providers.js";
import type { SourceData } from "./source-types.js";
import { mistralCompatFor, modelCompatFor, thinkingLevelMapFor } from "./thinking-levels.js";

export interface CatalogueInput {
	sources: SourceData;
	curatedModels: readonly CuratedModel[];
	curatedPatches: readonly CuratedPatch[];
}

export interface BuiltCatalogue {
	/** Sorted by provider, then id. */
	models: Model<Api>[];
	/** Things a maintainer should look at (a patch whose model no longer exists, …). */
	warnings: string[];
}

function key(provider: string, id: string): string {
	return `${provider}\u0000${id}`;
}

function compareStrings(left: string, right: string): number {
	return left < right ? -1 : left > right ? 1 : 0;
}

function curatedToModel(row: CuratedModel): Model<Api> {
	const rule = ruleForProvider(row.provider);
	if (!rule && (!row.api || row.baseUrl === undefined)) {
		throw new Error(`Curated model ${row.provider}/${row.id}: unknown provider; set api and baseUrl on the row.`);
	}
	const model: Model<Api> = {
		id: row.id,
		name: row.name,
		api: row.api ?? (row.provider === "github-copilot" ? apiForCopilotModel(row.id) : rule!.api),
		provider: row.provider,
		baseUrl: row.baseUrl ?? rule!.baseUrl,
		reasoning: row.reasoning,
		input: [...row.input],
		cost: { ...row.cost },
		contextWindow: row.contextWindow,
		maxTokens: row.maxTokens,
	};
	if (row.headers) model.headers = { ...row.headers };
	if (row.compat) model.compat = { ...row.compat };
	if (row.thinkingLevelMap) model.thinkingLevelMap = { ...row.thinkingLevelMap };
	return model;
}

/** Provider-level compat and headers, per-model compat and the thinking-level map, in that order. */
function applyProviderDefaults(model: Model<Api>): Model<Api> {
	const rule = ruleForProvider(model.provider);
	if (model.api === "openai-completions") {
		const compat: OpenAICompletionsCompat = {
			...rule?.compat,
			...modelCompatFor(model.provider, model.id),
			...(model.compat as OpenAICompletionsCompat | undefined),
		};
		if (Object.keys(compat).length > 0) model.compat = compat;
	}
	if (model.api === "bedrock-converse-stream") {
		model.compat = { ...bedrockCompatFor(model.id), ...model.compat };
	}
	if (model.api === "mistral-conversations") {
		const compat = { ...mistralCompatFor(model.id, model.reasoning), ...model.compat };
		if (Object.keys(compat).length > 0) model.compat = compat;
	}
	if (rule?.headers) model.headers = { ...rule.headers, ...model.headers };
	if (!model.thinkingLevelMap) {
		const map = thinkingLevelMapFor(model.id, model.reasoning, model.api);
		if (map) model.thinkingLevelMap = map;
	}
	return model;
}

/** Throws on a row the providers could not use, naming it. */
export function validateCatalogueModel(model: Model<Api>): void {
	const where = `${model.provider}/${model.id}`;
	if (!model.id || !model.provider || !model.api)
		throw new Error(`Catalogue row ${where}: id, provider and api are required.`);
	if (typeof model.baseUrl !== "string") throw new Error(`Catalogue row ${where}: baseUrl must be a string.`);
	for (const [field, value] of Object.entries({
		...model.cost,
		contextWindow: model.contextWindow,
		maxTokens: model.maxTokens,
	})) {
		if (!Number.isFinite(value) || value < 0)
			throw new Error(`Catalogue row ${where}: ${field} is ${value}, expected a number ≥ 0.`);
	}
}

export function buildCatalogue(input: CatalogueInput): BuiltCatalogue {
	const warnings: string[] = [];
	const rows = new Map<string, Model<Api>>();
	const addFirst = (model: Model<Api> | undefined) => {
		if (model && !rows.has(key(model.provider, model.id))) rows.set(key(model.provider, model.id), model);
	};

	const { modelsDev, openRouter, vercelGateway } = input.sources;
	for (const sourceProvider of Object.keys(modelsDev).sort(compareStrings)) {
		const rule = MODELS_DEV_PROVIDER_RULES[sourceProvider];
		if (!rule) continue;
		const provider = modelsDev[sourceProvider];
		for (const id of Object.keys(provider.models).sort(compareStrings)) {
			addFirst(convertModelsDevModel(rule, { ...provider.models[id], id: provider.models[id].id ?? id }, provider.npm));
		}
	}
	for (const source of openRouter ?? []) addFirst(convertOpenRouterModel(OPENROUTER_RULE, source));
	for (const source of vercelGateway ?? []) addFirst(convertVercelGatewayModel(VERCEL_GATEWAY_RULE, source));

	for (const row of input.curatedModels) rows.set(key(row.provider, row.id), curatedToModel(row));
	for (const patch of input.curatedPatches) {
		const target = rows.get(key(patch.provider, patch.id));
		if (!target) {
			warnings.push(
				`curated patch for ${patch.provider}/${patch.id} has no model to apply to (source: ${patch.source})`,
			);
			continue;
		}
		Object.assign(target, structuredClone(patch.set));
	}

	// Azure OpenAI serves OpenAI's models through deployments in the caller's own resource
	// (https://learn.microsoft.com/azure/ai-foundry/openai/concepts/models), so each OpenAI Responses
	// model is listed for azure-openai-responses too, with no base URL: the resource decides it.
	for (const model of [...rows.values()]) {
		if (model.provider !== "openai" || model.api !== "openai-responses") continue;
		addFirst({
			...structuredClone(model),
			provider: "azure-openai-responses",
			api: "azure-openai-responses",
			baseUrl: "",
		});
	}

	const models = [...rows.values()]
		.map(applyProviderDefaults)
		.sort((left, right) => compareStrings(left.provider, right.provider) || compareStrings(left.id, right.id));
	for (const model of models) validateCatalogueModel(model);
	return { models, warnings };
}

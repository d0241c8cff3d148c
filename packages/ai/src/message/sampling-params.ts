// Sampling parameters (top_p, top_k, min_p, repetition_penalty, …) beyond `temperature`: set per
// request (`samplingParams`), per model (`Model.samplingParams`) and per thinking level
// (`Model.samplingParamsByThinkingLevel`), merged in that order of precedence, request last.
// Each API takes them where its request has them (see `encodeSamplingParams` callers):
// OpenAI-compatible bodies as given, Gemini's generationConfig in camelCase, Bedrock's
// inferenceConfig, Claude's top-level fields.
import { clampThinkingLevel, type ThinkingLevelOrOff } from "../models/thinking-levels.js";
import type { Api, Model, SamplingParams } from "../types.js";

/**
 * The parameters a call sends: the model's defaults, then the ones for its thinking level (the
 * level the model really gets, after clamping), then the request's, each key overriding the one
 * before. Undefined when none of the three has any.
 */
export function resolveSamplingParams(
	model: Pick<Model<Api>, "reasoning" | "thinkingLevelMap" | "samplingParams" | "samplingParamsByThinkingLevel">,
	thinkingLevel: ThinkingLevelOrOff,
	requestParams?: SamplingParams,
): SamplingParams | undefined {
	const byLevel = model.samplingParamsByThinkingLevel;
	const levelParams = byLevel ? byLevel[clampThinkingLevel(model, thinkingLevel)] : undefined;
	if (!model.samplingParams && !levelParams && !requestParams) return undefined;
	return { ...model.samplingParams, ...levelParams, ...requestParams };
}

/**
 * What an encoder sends: the model's defaults under the options' parameters. streamSimple has
 * already merged the model's and its level's into the options, so merging the model's again under
 * them changes nothing; a direct `stream()` call gets the model's defaults this way.
 */
export function samplingParamsForRequest(
	model: Pick<Model<Api>, "samplingParams">,
	options: { samplingParams?: SamplingParams },
): SamplingParams | undefined {
	if (!model.samplingParams && !options.samplingParams) return undefined;
	const merged: SamplingParams = { ...model.samplingParams, ...options.samplingParams };
	// A key set to undefined is "not set", as for every other option.
	for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
	return Object.keys(merged).length > 0 ? merged : undefined;
}

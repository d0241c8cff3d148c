// Sampling parameters on Gemini go in `generationConfig` under camelCase names
// (https://ai.google.dev/api/generate-content#generationconfig). Keel's samplingParams use the
// OpenAI-style wire names (top_p), so both spellings are read: top_p and topP are the same key.
import { samplingParamsForRequest } from "../../message/sampling-params.js";
import type { Api, Model, SamplingParams } from "../../types.js";

/** generationConfig's sampling fields. */
export const GEMINI_SAMPLING_FIELDS: readonly string[] = [
	"temperature",
	"topP",
	"topK",
	"seed",
	"presencePenalty",
	"frequencyPenalty",
];

/** top_p → topP; a name already in camelCase is unchanged. */
export function geminiFieldName(key: string): string {
	return key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

/** The generationConfig fields for the call's sampling parameters; keys Gemini does not take are left out. */
export function geminiSamplingFields(model: Model<Api>, options: { samplingParams?: SamplingParams }): SamplingParams {
	const fields: SamplingParams = {};
	for (const [key, value] of Object.entries(samplingParamsForRequest(model, options) ?? {})) {
		const name = geminiFieldName(key);
		if (GEMINI_SAMPLING_FIELDS.includes(name)) fields[name] = value;
	}
	return fields;
}

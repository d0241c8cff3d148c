// Sampling parameters on Bedrock's Converse API: `temperature` and `topP` are common to every model
// and go in `inferenceConfig`; a model's own parameters (Claude's `top_k`, others' penalties) go in
// `additionalModelRequestFields` under the model's names.
// @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InferenceConfiguration.html
// @see https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference-call.html
import { samplingParamsForRequest } from "../../message/sampling-params.js";
import type { Api, Model, SamplingParams } from "../../types.js";

/** The inferenceConfig fields and the model-specific ones for the call's sampling parameters. */
export function bedrockSamplingFields(
	model: Model<Api>,
	options: { samplingParams?: SamplingParams },
	rules: { takesSampling: boolean; thinking: boolean; claude: boolean },
): { inferenceConfig: { temperature?: number; topP?: number }; additional: Record<string, unknown> } {
	const inferenceConfig: { temperature?: number; topP?: number } = {};
	const additional: Record<string, unknown> = {};
	if (!rules.takesSampling) return { inferenceConfig, additional };
	for (const [key, value] of Object.entries(samplingParamsForRequest(model, options) ?? {})) {
		// Claude refuses a set temperature and top_k while thinking, as on the Messages API.
		if (rules.claude && rules.thinking && (key === "temperature" || key === "top_k")) continue;
		if (key === "temperature" && typeof value === "number") inferenceConfig.temperature = value;
		else if ((key === "top_p" || key === "topP") && typeof value === "number") inferenceConfig.topP = value;
		else additional[key] = value;
	}
	return { inferenceConfig, additional };
}

// Sampling parameters on Claude: the Messages API takes `temperature`, `top_p` and `top_k` at the
// top level of the body (https://docs.claude.com/en/api/messages). With extended thinking it
// takes neither a temperature other than the default nor `top_k`, and `top_p` only from 0.95 to 1
// (https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility).
// Models without sampling settings (Opus 4.7 and later) get none; the caller checks that.
import { samplingParamsForRequest } from "../../message/sampling-params.js";
import type { Api, Model, SamplingParams } from "../../types.js";

/** The names Claude takes, and the ones it refuses while thinking. */
export const CLAUDE_SAMPLING_KEYS: readonly string[] = ["temperature", "top_p", "top_k"];
const REFUSED_WHILE_THINKING: ReadonlySet<string> = new Set(["temperature", "top_k"]);

/** The sampling fields to put in the body: the known ones, less the ones thinking refuses. */
export function claudeSamplingFields(
	model: Model<Api>,
	options: { samplingParams?: SamplingParams },
	thinking: boolean,
): SamplingParams {
	const params = samplingParamsForRequest(model, options) ?? {};
	const fields: SamplingParams = {};
	for (const key of CLAUDE_SAMPLING_KEYS) {
		if (params[key] === undefined || (thinking && REFUSED_WHILE_THINKING.has(key))) continue;
		fields[key] = params[key];
	}
	return fields;
}

// @keel/ai-sdk: Keel and the AI SDK both ways.

export { aiSdkModelInfo, type FromAiSdkModelOptions, fromAiSdkModel } from "./from-ai-sdk-model.js";
export {
	type KeelCallOptions,
	type KeelLanguageModelSettings,
	type KeelStreamFunction,
	keelLanguageModel,
} from "./keel-language-model.js";
export { KEEL_METADATA_KEY } from "./to-keel-context.js";

// PLACEHOLDER until the AzureOpenAIResponses provider lands: every call ends with a clear error event.
import type { Context, Model, SimpleStreamOptions, StreamOptions } from "../../types.js";
import { failedStream } from "../shared/failed-stream.js";

export type AzureOpenAIResponsesOptions = StreamOptions;
export const streamAzureOpenAIResponses = (
	model: Model<"azure-openai-responses">,
	_context: Context,
	_options?: AzureOpenAIResponsesOptions,
) => failedStream(model, "The azure-openai-responses provider is not implemented yet");
export const streamSimpleAzureOpenAIResponses = (
	model: Model<"azure-openai-responses">,
	_context: Context,
	_options?: SimpleStreamOptions,
) => failedStream(model, "The azure-openai-responses provider is not implemented yet");

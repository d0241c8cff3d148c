// PLACEHOLDER until the OpenAIResponses provider lands: every call ends with a clear error event.
import type { Context, Model, SimpleStreamOptions, StreamOptions } from "../../types.js";
import { failedStream } from "../shared/failed-stream.js";

export type OpenAIResponsesOptions = StreamOptions;
export const streamOpenAIResponses = (
	model: Model<"openai-responses">,
	_context: Context,
	_options?: OpenAIResponsesOptions,
) => failedStream(model, "The openai-responses provider is not implemented yet");
export const streamSimpleOpenAIResponses = (
	model: Model<"openai-responses">,
	_context: Context,
	_options?: SimpleStreamOptions,
) => failedStream(model, "The openai-responses provider is not implemented yet");

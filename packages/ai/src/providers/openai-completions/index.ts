// PLACEHOLDER until the OpenAICompletions provider lands: every call ends with a clear error event.
import type { Context, Model, SimpleStreamOptions, StreamOptions } from "../../types.js";
import { failedStream } from "../shared/failed-stream.js";

export type OpenAICompletionsOptions = StreamOptions;
export const streamOpenAICompletions = (
	model: Model<"openai-completions">,
	_context: Context,
	_options?: OpenAICompletionsOptions,
) => failedStream(model, "The openai-completions provider is not implemented yet");
export const streamSimpleOpenAICompletions = (
	model: Model<"openai-completions">,
	_context: Context,
	_options?: SimpleStreamOptions,
) => failedStream(model, "The openai-completions provider is not implemented yet");

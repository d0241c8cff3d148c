// PLACEHOLDER until the Anthropic provider lands: every call ends with a clear error event.
import type { Context, Model, SimpleStreamOptions, StreamOptions } from "../../types.js";
import { failedStream } from "../shared/failed-stream.js";

export type AnthropicOptions = StreamOptions;
export const streamAnthropic = (model: Model<"anthropic-messages">, _context: Context, _options?: AnthropicOptions) =>
	failedStream(model, "The anthropic-messages provider is not implemented yet");
export const streamSimpleAnthropic = (
	model: Model<"anthropic-messages">,
	_context: Context,
	_options?: SimpleStreamOptions,
) => failedStream(model, "The anthropic-messages provider is not implemented yet");

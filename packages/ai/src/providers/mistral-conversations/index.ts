// @keel/ai/mistral-conversations: Mistral's chat completions API (La Plateforme), streamed.

import {
	type ProviderDefinition,
	streamSimpleWithDefinition,
	streamWithDefinition,
} from "../../call/provider-definition.js";
import { buildBaseOptions } from "../../message/simple-options.js";
import type { Context, Model, SimpleStreamOptions } from "../../types.js";
import type { AssistantMessageEventStream } from "../../utils/event-stream.js";
import { mistralReasoningFormat } from "./encode.js";
import { classifyMistralError } from "./errors.js";
import type { MistralOptions } from "./options.js";
import { runMistralAttempt } from "./transport.js";

export { MistralStreamDecoder, mapMistralStopReason, mapMistralUsage } from "./decode.js";
export {
	buildMistralHeaders,
	encodeMistralRequest,
	mapMistralReasoningEffort,
	mistralReasoningFormat,
} from "./encode.js";
export type { MistralOptions } from "./options.js";
export { normalizeMistralToolCallId } from "./tool-call-id.js";
export type { MistralToolChoice } from "./wire-types.js";

/** Options of the unified call, plus Mistral's tool settings. */
export type MistralSimpleOptions = SimpleStreamOptions & Pick<MistralOptions, "toolChoice" | "parallelToolCalls">;

/**
 * The unified options. For a reasoning model, `reasoning` becomes what the model takes: Magistral
 * models, which always reason, get `prompt_mode: "reasoning"` when a level is set; models with
 * adjustable reasoning get `reasoning_effort` (the level, or "none" when reasoning is off).
 */
export function mistralOptionsFromSimple(
	model: Model<"mistral-conversations">,
	options: MistralSimpleOptions | undefined,
): MistralOptions {
	const mapped: MistralOptions = {
		...buildBaseOptions(model, options),
		toolChoice: options?.toolChoice,
		parallelToolCalls: options?.parallelToolCalls,
	};
	if (!model.reasoning) return mapped;
	if (mistralReasoningFormat(model) === "prompt-mode") {
		if (options?.reasoning) mapped.promptMode = "reasoning";
	} else {
		mapped.reasoningEffort = options?.reasoning ?? "none";
	}
	return mapped;
}

export const mistralConversationsProvider: ProviderDefinition<"mistral-conversations", MistralOptions> = {
	api: "mistral-conversations",
	simpleOptions: mistralOptionsFromSimple,
	classifyError: classifyMistralError,
	runAttempt: runMistralAttempt,
};

/** Streams one Mistral chat completion. Never throws: every failure is one `error` event. */
export function streamMistral(
	model: Model<"mistral-conversations">,
	context: Context,
	options?: MistralOptions,
): AssistantMessageEventStream {
	return streamWithDefinition(mistralConversationsProvider, model, context, options);
}

/** The unified entry point: `reasoning` becomes Magistral's prompt mode or the reasoning effort. */
export function streamSimpleMistral(
	model: Model<"mistral-conversations">,
	context: Context,
	options?: MistralSimpleOptions,
): AssistantMessageEventStream {
	return streamSimpleWithDefinition(mistralConversationsProvider, model, context, options);
}

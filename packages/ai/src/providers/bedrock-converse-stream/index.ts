// The bedrock-converse-stream provider: models on Amazon Bedrock through the Converse API
// (ConverseStream), sent with `fetch`, signed with SigV4 (or a Bedrock API key), read from the binary
// event stream by Keel.

import {
	type ProviderDefinition,
	streamSimpleWithDefinition,
	streamWithDefinition,
} from "../../call/provider-definition.js";
import { buildBaseOptions } from "../../message/simple-options.js";
import type { Context, Model, SimpleStreamOptions } from "../../types.js";
import type { AssistantMessageEventStream } from "../../utils/event-stream.js";
import { claudeThinkingFields } from "../anthropic/thinking.js";
import { resolveBedrockCompat } from "./compat.js";
import { classifyBedrockError } from "./errors.js";
import type { BedrockOptions } from "./options.js";
import { runBedrockAttempt } from "./transport.js";

export { resolveBedrockCompat } from "./compat.js";
export { BedrockStreamDecoder, decodeBedrockStreamEvents } from "./decode.js";
export { encodeBedrockRequest } from "./encode.js";
export { classifyBedrockError } from "./errors.js";
export type { AwsCredentials, BedrockEffort, BedrockOptions, BedrockToolChoice } from "./options.js";
export { mapBedrockStopReason } from "./stop-reason.js";
export { converseStreamUrl, resolveBedrockBearerToken, resolveBedrockRegion } from "./transport.js";
export type * from "./wire-types.js";

/**
 * Unified options: for Claude, `reasoning` becomes adaptive thinking with an effort (Claude 4.6 and
 * later) or a token budget on top of maxTokens; other models take no thinking fields.
 */
export function bedrockOptionsFromSimple(
	model: Model<"bedrock-converse-stream">,
	options: SimpleStreamOptions | undefined,
): BedrockOptions {
	const base = buildBaseOptions(model, options);
	const level = options?.reasoning;
	if (!level || !model.reasoning || !resolveBedrockCompat(model).claudeThinking) {
		return { ...base, thinkingEnabled: false };
	}
	return { ...base, ...claudeThinkingFields(model, base.maxTokens, level, options?.thinkingBudgets) };
}

export const bedrockConverseStreamProvider: ProviderDefinition<"bedrock-converse-stream", BedrockOptions> = {
	api: "bedrock-converse-stream",
	simpleOptions: bedrockOptionsFromSimple,
	// SigV4 credentials come from the options, the environment or the AWS credential chain
	// (signing-credentials.ts), not from `apiKey`; missing ones are a clear error at the call.
	requiresApiKey: () => false,
	classifyError: classifyBedrockError,
	runAttempt: runBedrockAttempt,
};

/** Streams one Bedrock response with Bedrock-specific options. Never throws; see StreamFunction. */
export function streamBedrock(
	model: Model<"bedrock-converse-stream">,
	context: Context,
	options?: BedrockOptions,
): AssistantMessageEventStream {
	return streamWithDefinition(bedrockConverseStreamProvider, model, context, options);
}

/** Streams one Bedrock response with unified options. Never throws; see StreamFunction. */
export function streamSimpleBedrock(
	model: Model<"bedrock-converse-stream">,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	return streamSimpleWithDefinition(bedrockConverseStreamProvider, model, context, options);
}

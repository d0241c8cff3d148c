// The Codex Responses endpoint of a ChatGPT subscription (POST {baseUrl}/codex/responses, or the
// same over a WebSocket). The wire format is the Responses API's: encode, decode and errors come
// from openai-responses; this folder adds the endpoint, the account header, the instructions field
// and the WebSocket transport.

import {
	type ProviderDefinition,
	streamSimpleWithDefinition,
	streamWithDefinition,
} from "../../call/provider-definition.js";
import type { Context, Model, SimpleStreamOptions } from "../../types.js";
import type { AssistantMessageEventStream } from "../../utils/event-stream.js";
import { toResponsesOptions } from "../openai-responses/index.js";
import { classifyOpenAICodexError } from "./errors.js";
import type { OpenAICodexResponsesOptions, OpenAICodexResponsesSimpleOptions } from "./options.js";
import { runOpenAICodexAttempt } from "./transport.js";

export { readChatGPTAccountId } from "./account-id.js";
export { buildOpenAICodexHeaders, encodeOpenAICodexRequest, type OpenAICodexRequestBody } from "./encode.js";
export { codexResponsesUrl, webSocketUrl } from "./endpoint.js";
export { classifyOpenAICodexError } from "./errors.js";
export type { OpenAICodexResponsesOptions, OpenAICodexResponsesSimpleOptions } from "./options.js";
export { forgetOpenAICodexSseFallbacks } from "./transport.js";
export { closeOpenAICodexWebSockets, keptOpenAICodexWebSocketCount } from "./websocket-session.js";

/** Unified options: the Responses mapping, plus the Codex settings. */
export function toCodexOptions(
	model: Model<"openai-codex-responses">,
	options: SimpleStreamOptions | undefined,
): OpenAICodexResponsesOptions {
	const codex = options as OpenAICodexResponsesSimpleOptions | undefined;
	return {
		...toResponsesOptions(model, codex),
		textVerbosity: codex?.textVerbosity,
		accountId: codex?.accountId,
		webSocketConnectTimeoutMs: codex?.webSocketConnectTimeoutMs,
		webSocketIdleTimeoutMs: codex?.webSocketIdleTimeoutMs,
	};
}

export const openAICodexResponsesProvider: ProviderDefinition<"openai-codex-responses", OpenAICodexResponsesOptions> = {
	api: "openai-codex-responses",
	simpleOptions: toCodexOptions,
	classifyError: classifyOpenAICodexError,
	runAttempt: runOpenAICodexAttempt,
};

/** Streams one response from the Codex endpoint. Never throws; failures end in an error event. */
export function streamOpenAICodexResponses(
	model: Model<"openai-codex-responses">,
	context: Context,
	options?: OpenAICodexResponsesOptions,
): AssistantMessageEventStream {
	return streamWithDefinition(openAICodexResponsesProvider, model, context, options);
}

/** The unified call: `reasoning` becomes the reasoning effort (thinking off when undefined). */
export function streamSimpleOpenAICodexResponses(
	model: Model<"openai-codex-responses">,
	context: Context,
	options?: OpenAICodexResponsesSimpleOptions,
): AssistantMessageEventStream {
	return streamSimpleWithDefinition(openAICodexResponsesProvider, model, context, options);
}

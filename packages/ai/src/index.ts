// The public surface of @keel/ai. Each section is owned by one area of the code.

export type { Static, TSchema } from "@sinclair/typebox";
// --- TypeBox, re-exported for tool schemas ---
export { Type } from "@sinclair/typebox";
export {
	type ApiProvider,
	type ApiStreamFunction,
	type ApiStreamSimpleFunction,
	clearApiProviders,
	getApiProvider,
	getApiProviders,
	registerApiProvider,
	unregisterApiProviders,
} from "./api-registry.js";
// --- keys, cost ---
export { findEnvKeys, getEnvApiKey } from "./env-api-keys.js";
export { calculateCost } from "./models/cost.js";
// --- model catalogue (owner: catalogue) ---
export {
	type CatalogueModel,
	type CatalogueModelId,
	type CatalogueProvider,
	findModel,
	getModel,
	getModelOrThrow,
	getModels,
	getProviders,
	modelsAreEqual,
} from "./models/catalogue.js";
export { SERVICE_TIER_COST_MULTIPLIERS } from "./models/cost.js";
export {
	DEFAULT_CONTEXT_WINDOW,
	DEFAULT_MAX_TOKENS,
	defineModel,
	LOCAL_SERVER_URLS,
	type ModelDefinition,
} from "./models/define-model.js";
export {
	clampThinkingLevel,
	getSupportedThinkingLevels,
	supportsXhigh,
	type ThinkingLevelOrOff,
} from "./models/thinking-levels.js";
// --- end model catalogue ---
// --- anthropic-messages option types (owner: anthropic provider; functions are in @keel/ai/anthropic) ---
export type { AnthropicEffort, AnthropicOptions, AnthropicToolChoice } from "./providers/anthropic/options.js";
// --- end anthropic-messages ---
// --- openai-completions option types (owner: openai-completions provider; functions are in
// @keel/ai/openai-completions) ---
export type { OpenAICompletionsOptions } from "./providers/openai-completions/options.js";
export type { ChatToolChoice as OpenAICompletionsToolChoice } from "./providers/openai-completions/wire-types.js";
// --- end openai-completions ---
// --- openai-responses / azure-openai-responses option types (owner: responses providers; functions are in
// @keel/ai/openai-responses and @keel/ai/azure-openai-responses) ---
export type {
	AzureOpenAIResponsesOptions,
	AzureOpenAIResponsesSimpleOptions,
} from "./providers/azure-openai-responses/options.js";
export type {
	OpenAIResponsesOptions,
	OpenAIResponsesSimpleOptions,
} from "./providers/openai-responses/options.js";
// --- end openai-responses / azure-openai-responses ---
export { registerBuiltInApiProviders, resetApiProviders } from "./providers/register-builtins.js";
// --- provider building blocks (for custom providers) ---
export { AssistantMessageBuilder } from "./providers/shared/assistant-message-builder.js";
export {
	createProviderStream,
	type ProviderAttempt,
	type ProviderStreamConfig,
} from "./providers/shared/provider-stream.js";
export {
	adjustMaxTokensForThinking,
	buildBaseOptions,
	clampReasoning,
	DEFAULT_THINKING_BUDGETS,
} from "./providers/shared/simple-options.js";
// --- server-sent events (owner: providers; the agent proxy client reads its stream with it) ---
export { readServerSentEvents, type ServerSentEvent, ServerSentEventParser } from "./providers/shared/sse.js";
export { complete, completeSimple, stream, streamSimple } from "./stream.js";
// --- types ---
export type * from "./types.js";
// --- streams and the registry ---
export {
	AssistantMessageEventStream,
	createAssistantMessageEventStream,
	createEmptyAssistantMessage,
	EventStream,
} from "./utils/event-stream.js";

// --- JSON ---
export { parseStreamingJson, StreamingJsonParser, type StreamingJsonResult } from "./utils/streaming-json.js";
// --- JSON repair, tool validation, schema helpers (owner: core JSON/validation) ---
export { parseJsonWithRepair, repairJson } from "./utils/json-repair.js";
export { StringEnum } from "./utils/typebox-helpers.js";
export { validateToolArguments, validateToolCall } from "./utils/validation.js";

// --- cross-provider messages, tool-call ids, overflow, unicode, message readers (owner: core helpers) ---
export {
	createMistralToolCallIdNormalizer,
	normalizeAnthropicToolCallId,
	normalizeMistralToolCallId,
	normalizeOpenAICompletionsToolCallId,
	normalizeOpenAIResponsesToolCallId,
	parseResponsesToolCallId,
	type ResponsesToolCallId,
	sanitizeToolCallIdCharacters,
	type ToolCallIdNormalizer,
} from "./providers/shared/tool-call-ids.js";
export { isSameModel, MISSING_TOOL_RESULT_TEXT, transformMessages } from "./providers/shared/transform-messages.js";
export { getMessageText, getThinking, getToolCalls } from "./utils/message-content.js";
export { getOverflowPatterns, isContextOverflow, isOverflowErrorMessage } from "./utils/overflow.js";
export { sanitizeSurrogates } from "./utils/sanitize-unicode.js";

import { registerBuiltInApiProviders } from "./providers/register-builtins.js";

// Built-ins are registered on import; their modules and SDKs load on first use.
registerBuiltInApiProviders();

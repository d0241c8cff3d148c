// The public surface of @keel/ai, sorted by module path. Provider stream functions are not here:
// they load lazily through the registry, or directly from their subpaths (@keel/ai/anthropic, …);
// only their option types are exported, which costs nothing at run time.
export type { Static, TSchema } from "@sinclair/typebox";
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
export {
	classifyError,
	type ErrorClassification,
	headersToRecord,
	parseRetryAfter,
} from "./call/error-classification.js";
export {
	createProviderStream,
	NonRetryableError,
	type ProviderAttempt,
	type ProviderStreamConfig,
} from "./call/provider-stream.js";
export {
	appendAssistantMessageDiagnostic,
	CACHE_WARMING_IDLE_CONTINUATION_PROBABILITY,
	CACHE_WARMING_MAX_AGE_MS,
	CACHE_WARMING_MAX_IDLE_AGE_MS,
	CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS,
	type CacheWarmingDecision,
	type CacheWarmingPhase,
	type ClientAttribution,
	type ClientIdentity,
	type ClientIdentityTarget,
	type ClientUserAgent,
	cleanupSessionResources,
	collapseSystemMessages,
	contentText,
	createAssistantMessageDiagnostic,
	createInitialSystemMessage,
	DEFAULT_MAX_AGENT_RETRY_DELAY_MS,
	type DiagnosticErrorInfo,
	declarationsEqual,
	evaluateCacheWarming,
	extractDiagnosticError,
	formatUserAgent,
	getAttributionHeaders,
	getCacheWarmingDelayMs,
	getCacheWarmingRequestOptions,
	getClientVersion,
	getCurrentSystemMessage,
	getCurrentSystemPrompt,
	getCurrentTools,
	getDeclaredTools,
	getIdentityHeaders,
	getInitialSystemMessage,
	getModelType,
	getPromptCacheTtlMs,
	getSystemMessageText,
	getToolStateChanges,
	hasNonAdditiveToolChanges,
	hasToolRedefinitions,
	isCacheWarmingReplayable,
	isModelType,
	isRecoverableLength,
	isRetryableAssistantError,
	type LazyOAuthInput,
	type LazyStreamObserver,
	lazyApi,
	lazyOAuth,
	lazyStream,
	ModelsError,
	type ModelsErrorCode,
	type ModelType,
	mergeClientIdentity,
	normalizeContext,
	type PromptCacheLifetimes,
	parseToolCallArguments,
	type RetryCallbacks,
	type RetryPolicy,
	registerSessionResourceCleanup,
	resolveTranscript,
	resolveTranscriptTools,
	retryAssistantCall,
	retryDelayMs,
	type SessionResourceCleanup,
	ToolCallArgumentsStream,
	type ToolStateChanges,
	type TranscriptContext,
	type TranscriptMessages,
	type TranscriptToolSupport,
	type TranscriptTools,
	toToolDeclaration,
	uuidv7,
	withClientIdentity,
	withoutInitialSystemMessage,
} from "./compat/index.js";
export {
	CallFailedError,
	completeOrThrow,
	completeSimpleOrThrow,
	isFailedMessage,
	throwIfFailed,
} from "./complete-or-throw.js";
export { findEnvKeys, getEnvApiKey } from "./env-api-keys.js";
export {
	createFallbackStream,
	FALLBACK_ATTEMPT_DIAGNOSTIC,
	type FallbackAttemptDetails,
	type FallbackOptions,
	type FallbackStreamFunction,
	type FallbackTarget,
} from "./fallback/create-fallback-stream.js";
export { classifyFallbackFailure, type FallbackFailureKind } from "./fallback/failure-kind.js";
export type { FallbackCallOptions } from "./fallback/target-options.js";
export {
	AssistantMessageBuilder,
	MAX_TOOL_ARGUMENTS_LENGTH,
	TOOL_ARGUMENTS_REJECTED,
} from "./message/assistant-message-builder.js";
export { type DocumentFormat, documentFormatOf, isPdfFile, isTextFile } from "./message/file-content.js";
export { blockProblem as contentBlockProblem, findInputProblem } from "./message/input-support.js";
export { checkSamplingParams, samplingParamKeys } from "./message/sampling-keys.js";
export { resolveSamplingParams } from "./message/sampling-params.js";
export {
	adjustMaxTokensForThinking,
	buildBaseOptions,
	clampReasoning,
	DEFAULT_THINKING_BUDGETS,
} from "./message/simple-options.js";
export {
	normalizeAnthropicToolCallId,
	normalizeOpenAICompletionsToolCallId,
	normalizeOpenAIResponsesToolCallId,
	parseResponsesToolCallId,
	type ResponsesToolCallId,
	sanitizeToolCallIdCharacters,
	type ToolCallIdNormalizer,
} from "./message/tool-call-ids.js";
export { isSameModel, MISSING_TOOL_RESULT_TEXT, transformMessages } from "./message/transform-messages.js";
export {
	type CatalogueModel,
	type CatalogueModelId,
	type CatalogueProvider,
	clearAddedModels,
	findModel,
	getModel,
	getModelOrThrow,
	getModels,
	getProviders,
	modelsAreEqual,
} from "./models/catalogue.js";
export { calculateCost, SERVICE_TIER_COST_MULTIPLIERS } from "./models/cost.js";
export {
	DEFAULT_CONTEXT_WINDOW,
	DEFAULT_MAX_TOKENS,
	defineModel,
	LOCAL_SERVER_URLS,
	type ModelDefinition,
} from "./models/define-model.js";
export { MODEL_DEPRECATED_DIAGNOSTIC } from "./models/deprecation-warning.js";
export {
	clearRefreshCache,
	type RefreshOptions,
	type RefreshResult,
	type RefreshSource,
	type RefreshSourceResult,
	refreshModels,
} from "./models/refresh.js";
export {
	clampThinkingLevel,
	getSupportedThinkingLevels,
	supportsMax,
	supportsXhigh,
	type ThinkingLevelOrOff,
} from "./models/thinking-levels.js";
export type { AnthropicEffort, AnthropicOptions, AnthropicToolChoice } from "./providers/anthropic/options.js";
export type {
	AzureOpenAIResponsesOptions,
	AzureOpenAIResponsesSimpleOptions,
} from "./providers/azure-openai-responses/options.js";
export type { BedrockEffort, BedrockOptions, BedrockToolChoice } from "./providers/bedrock-converse-stream/options.js";
export type {
	GoogleOptions,
	GoogleThinkingLevel,
	GoogleToolChoice,
} from "./providers/google-generative-ai/options.js";
export type { GoogleVertexOptions } from "./providers/google-vertex/options.js";
export type { MistralSimpleOptions } from "./providers/mistral-conversations/index.js";
export type { MistralOptions } from "./providers/mistral-conversations/options.js";
export type { MistralToolChoice } from "./providers/mistral-conversations/wire-types.js";
export type {
	OpenAICodexResponsesOptions,
	OpenAICodexResponsesSimpleOptions,
} from "./providers/openai-codex-responses/options.js";
export type { OpenAICompletionsOptions } from "./providers/openai-completions/options.js";
export type { ChatToolChoice as OpenAICompletionsToolChoice } from "./providers/openai-completions/wire-types.js";
export type {
	OpenAIResponsesOptions,
	OpenAIResponsesSimpleOptions,
} from "./providers/openai-responses/options.js";
export { registerBuiltInApiProviders, resetApiProviders } from "./providers/register-builtins.js";
export * from "./registry/index.js";
export type {
	StandardJSONSchemaV1Converter,
	StandardJSONSchemaV1Options,
	StandardSchemaOutput,
	StandardSchemaV1,
	StandardSchemaV1Issue,
	StandardSchemaV1Props,
	StandardSchemaV1Result,
} from "./schema/standard-schema.js";
export { findStrictModeProblem } from "./schema/strict-mode-rules.js";
export { toJsonSchema } from "./schema/to-json-schema.js";
export type { JsonSchemaObject, SchemaOutput, ToolParameters } from "./schema/tool-parameters.js";
export { complete, completeSimple, stream, streamSimple } from "./stream.js";
export type { StreamFunction } from "./stream-function.js";
export type {
	ObjectResult,
	ObjectStream,
	ObjectStreamEvent,
	PartialObject,
} from "./structured-output/object-stream.js";
export { buildResponseFormat, meetsStrictModeRules } from "./structured-output/response-format.js";
export { completeObject, type ObjectOptions, streamObject } from "./structured-output/stream-object.js";
export { StructuredOutputError, type StructuredOutputFailure } from "./structured-output/structured-output-error.js";
// Tracing's hook interface (types only: the hooks themselves come from `@keel/ai/tracing`).
export type {
	AgentRunTrace,
	AgentTurnTrace,
	FallbackAttemptTrace,
	FallbackTrace,
	ToolTrace,
	TracingHooks,
} from "./tracing/hooks.js";
export type * from "./types.js";
export { type ContextLimits, DEFAULT_CONTEXT_LIMITS, validateContext } from "./utils/context-validation.js";
export { createErrorMessage, formatThrownValue } from "./utils/error-message.js";
export {
	AssistantMessageEventStream,
	createAssistantMessageEventStream,
	createEmptyAssistantMessage,
	EventStream,
} from "./utils/event-stream.js";
export { parseJsonWithRepair, repairJson } from "./utils/json-repair.js";
export { getImages, getMessageText, getThinking, getToolCalls } from "./utils/message-content.js";
export {
	type ContentBlockType,
	MESSAGE_ROLES,
	MessageValidationError,
	type MessageValidationOptions,
	parseMessage,
	validateContentBlocks,
	validateMessage,
	validateTool,
} from "./utils/message-validation.js";
export { getOverflowPatterns, isContextOverflow, isOverflowErrorMessage } from "./utils/overflow.js";
export { sanitizeSurrogates } from "./utils/sanitize-unicode.js";
export { parseStreamingJson, StreamingJsonParser, type StreamingJsonResult } from "./utils/streaming-json.js";
export {
	findSystemMessageProblem,
	foldSystemMessages,
	keepSystemMessagesInPlace,
	type ResolvedSystemContext,
	renderSystemMessageUpdate,
	resolveCurrentTools,
} from "./utils/system-messages.js";
export { StringEnum } from "./utils/typebox-helpers.js";
export { addUsage, emptyUsage } from "./utils/usage.js";
export {
	checkJsonValue,
	checkToolArguments,
	validateJsonValue,
	validateToolArguments,
	validateToolCall,
} from "./utils/validation.js";
export { readServerSentEvents } from "./wire/framers.js";
export { type ServerSentEvent, ServerSentEventParser } from "./wire/sse.js";

import { registerBuiltInApiProviders } from "./providers/register-builtins.js";

// Built-ins are registered on import; each provider module loads on its first call.
registerBuiltInApiProviders();

// Small helpers agent programs call by name (text of a message, time-ordered ids, retrying a failed
// assistant call), each with its own implementation here.
export {
	CACHE_WARMING_IDLE_CONTINUATION_PROBABILITY,
	CACHE_WARMING_MAX_AGE_MS,
	CACHE_WARMING_MAX_IDLE_AGE_MS,
	CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS,
	type CacheWarmingDecision,
	type CacheWarmingPhase,
	evaluateCacheWarming,
	getCacheWarmingDelayMs,
	getCacheWarmingRequestOptions,
	getPromptCacheTtlMs,
	isCacheWarmingReplayable,
	type PromptCacheLifetimes,
} from "./cache-warming.js";
export {
	type ClientAttribution,
	type ClientIdentity,
	type ClientIdentityTarget,
	type ClientUserAgent,
	formatUserAgent,
	getAttributionHeaders,
	getClientVersion,
	getIdentityHeaders,
	mergeClientIdentity,
} from "./client-identity.js";
export { contentText } from "./content-text.js";
export {
	appendAssistantMessageDiagnostic,
	createAssistantMessageDiagnostic,
	type DiagnosticErrorInfo,
	extractDiagnosticError,
} from "./diagnostics.js";
export { type LazyStreamObserver, lazyApi, lazyStream } from "./lazy-api.js";
export { type LazyOAuthInput, lazyOAuth } from "./lazy-oauth.js";
export { getModelType, isModelType, type ModelType } from "./model-type.js";
export { ModelsError, type ModelsErrorCode } from "./models-error.js";
export { isRecoverableLength } from "./recoverable-length.js";
export {
	DEFAULT_MAX_AGENT_RETRY_DELAY_MS,
	isRetryableAssistantError,
	type RetryCallbacks,
	type RetryPolicy,
	retryAssistantCall,
	retryDelayMs,
} from "./retry-assistant-call.js";
export {
	cleanupSessionResources,
	registerSessionResourceCleanup,
	type SessionResourceCleanup,
} from "./session-resources.js";
export { parseToolCallArguments } from "./tool-call-arguments.js";
export { ToolCallArgumentsStream } from "./tool-call-arguments-stream.js";
export {
	collapseSystemMessages,
	createInitialSystemMessage,
	declarationsEqual,
	getCurrentSystemMessage,
	getCurrentSystemPrompt,
	getCurrentTools,
	getDeclaredTools,
	getInitialSystemMessage,
	getSystemMessageText,
	getToolStateChanges,
	hasNonAdditiveToolChanges,
	hasToolRedefinitions,
	normalizeContext,
	resolveTranscript,
	type ToolStateChanges,
	type TranscriptContext,
	type TranscriptMessages,
	toToolDeclaration,
	withoutInitialSystemMessage,
} from "./transcript.js";
export { resolveTranscriptTools, type TranscriptToolSupport, type TranscriptTools } from "./transcript-tools.js";
export { uuidv7 } from "./uuidv7.js";
export { withClientIdentity } from "./with-client-identity.js";

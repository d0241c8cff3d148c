// Small helpers agent programs call by name (text of a message, time-ordered ids, retrying a failed
// assistant call), each with its own implementation here.
export { contentText } from "./content-text.js";
export {
	appendAssistantMessageDiagnostic,
	createAssistantMessageDiagnostic,
	type DiagnosticErrorInfo,
	extractDiagnosticError,
} from "./diagnostics.js";
export { type LazyStreamObserver, lazyApi, lazyStream } from "./lazy-api.js";
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
export { parseToolCallArguments } from "./tool-call-arguments.js";
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
export { uuidv7 } from "./uuidv7.js";

// Helpers that pi 1.5 programs call by name, with Keel's own implementations.
export { contentText } from "./content-text.js";
export { isRecoverableLength } from "./recoverable-length.js";
export {
	DEFAULT_MAX_AGENT_RETRY_DELAY_MS,
	isRetryableAssistantError,
	type RetryCallbacks,
	type RetryPolicy,
	retryAssistantCall,
	retryDelayMs,
} from "./retry-assistant-call.js";
export { uuidv7 } from "./uuidv7.js";

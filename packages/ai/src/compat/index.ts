// Small helpers agent programs call by name (text of a message, time-ordered ids, retrying a failed
// assistant call), each with its own implementation here.
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

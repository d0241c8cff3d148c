import type { ClientOptions } from "openai";
import type { Api, Model } from "../../types.js";

/**
 * The SDKs' own request timeout, set far beyond any real call: `timeoutMs` and the idle watchdog of
 * createProviderStream bound the request instead, through `attempt.signal`. One day, well inside
 * setTimeout's 32-bit limit.
 */
export const SDK_TIMEOUT_DISABLED_MS = 24 * 60 * 60 * 1000;

// Sent as the key when there is none (Ollama, vLLM, LM Studio need none); the openai SDK insists on
// a value, and the Authorization header is removed below so the placeholder never leaves.
const NO_KEY_PLACEHOLDER = "keel-no-api-key";

/**
 * What every openai SDK client of Keel gets (Chat Completions, Responses, Azure): no SDK retries or
 * timeout (the harness owns both), no Authorization header without a key, OPENAI_ORG_ID /
 * OPENAI_PROJECT_ID from the environment for OpenAI itself only, no SDK logging, and browser use
 * allowed (Keel runs in browsers and web workers; where a key lives is the caller's choice).
 */
export function openAIClientOptions(
	model: Model<Api>,
	apiKey: string | undefined,
	headers: Record<string, string>,
): ClientOptions & { apiKey: string } {
	const defaultHeaders: Record<string, string | null> = { ...headers };
	if (!apiKey) defaultHeaders.Authorization = null;
	return {
		apiKey: apiKey || NO_KEY_PLACEHOLDER,
		...(model.provider === "openai" ? {} : { organization: null, project: null }),
		maxRetries: 0,
		timeout: SDK_TIMEOUT_DISABLED_MS,
		defaultHeaders,
		logLevel: "off",
		dangerouslyAllowBrowser: true,
	};
}

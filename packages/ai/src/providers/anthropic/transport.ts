import Anthropic from "@anthropic-ai/sdk";
import type { Context, Model } from "../../types.js";
import { NonRetryableError, type ProviderAttempt } from "../shared/provider-stream.js";
import { headersToRecord } from "../shared/retry.js";
import { AnthropicStreamDecoder } from "./decode.js";
import { type AnthropicAuthMode, anthropicAuthMode, buildAnthropicHeaders, encodeAnthropicRequest } from "./encode.js";
import type { AnthropicOptions } from "./options.js";

// Keel's harness owns timeouts (timeoutMs, idle watchdog); the SDK's own must never fire first.
// One day, well inside setTimeout's 32-bit limit.
const SDK_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/** A client for one call: no SDK retries (the harness retries), the model's base URL, the key's auth mode. */
export function createAnthropicClient(
	model: Model<"anthropic-messages">,
	apiKey: string | undefined,
	authMode: AnthropicAuthMode,
): Anthropic {
	const credentials = authMode === "apiKey" ? { apiKey: apiKey ?? null } : { authToken: apiKey ?? null };
	return new Anthropic({
		...credentials,
		baseURL: model.baseUrl,
		maxRetries: 0,
		timeout: SDK_TIMEOUT_MS,
		dangerouslyAllowBrowser: true,
	});
}

/**
 * One attempt: encode, send with `stream: true`, feed every raw event to the decoder. Uses the
 * raw event stream rather than the SDK's accumulating helper, which re-parses tool JSON per delta.
 */
export async function runAnthropicAttempt(
	attempt: ProviderAttempt<"anthropic-messages">,
	context: Context,
	options: AnthropicOptions,
): Promise<void> {
	const { model, apiKey } = attempt;
	const authMode = anthropicAuthMode(model, apiKey);
	const body = await attempt.preparePayload(encodeRequestOrFail(model, context, options));
	const headers = buildAnthropicHeaders(model, context, options, authMode);
	const client = options.client ?? createAnthropicClient(model, apiKey, authMode);
	const { data: events, response } = await client.messages
		.create(body, { signal: attempt.signal, headers })
		.withResponse();
	attempt.touch();
	await attempt.reportResponse({ status: response.status, headers: headersToRecord(response.headers) });
	const decoder = new AnthropicStreamDecoder(attempt.builder);
	for await (const event of events) {
		attempt.touch();
		decoder.decode(event);
	}
}

/** Input the encoder rejects fails the call at once: retrying the same input cannot help. */
function encodeRequestOrFail(
	model: Model<"anthropic-messages">,
	context: Context,
	options: AnthropicOptions,
): ReturnType<typeof encodeAnthropicRequest> {
	try {
		return encodeAnthropicRequest(model, context, options);
	} catch (error) {
		if (error instanceof NonRetryableError) throw error;
		throw new NonRetryableError(error instanceof Error ? error.message : String(error));
	}
}

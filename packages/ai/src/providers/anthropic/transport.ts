import Anthropic from "@anthropic-ai/sdk";
import type { Context, Model } from "../../types.js";
import { NonRetryableError, type ProviderAttempt } from "../shared/provider-stream.js";
import { headersToRecord } from "../shared/retry.js";
import { SDK_TIMEOUT_DISABLED_MS } from "../shared/sdk-client-options.js";
import { AnthropicStreamDecoder } from "./decode.js";
import { encodeAnthropicRequest } from "./encode.js";
import { type AnthropicAuthMode, anthropicAuthMode, buildAnthropicHeaders } from "./encode-headers.js";
import type { AnthropicOptions } from "./options.js";
import { readAnthropicEvents } from "./read-events.js";

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
		timeout: SDK_TIMEOUT_DISABLED_MS,
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
	// `stream: true` with the SDK raising typed errors for non-2xx; the body is read by readAnthropicEvents.
	const response = await client.messages.create(body, { signal: attempt.signal, headers }).asResponse();
	attempt.touch();
	await attempt.reportResponse({ status: response.status, headers: headersToRecord(response.headers) });
	const decoder = new AnthropicStreamDecoder(attempt.builder);
	try {
		for await (const events of readAnthropicEvents(response, attempt.touch)) {
			for (const event of events) {
				decoder.decode(event);
				// Nothing follows message_stop; stop reading (and downloading) once the message is finished.
				if (attempt.builder.isSealed) return;
			}
		}
	} catch (error) {
		// The harness aborted the request (caller, timeoutMs, idle watchdog) and reports why itself.
		if (attempt.signal.aborted) return;
		throw error;
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

import type OpenAI from "openai";
import type { ResponseCreateParamsStreaming } from "openai/resources/responses/responses";
import type { Api } from "../../types.js";
import type { ProviderAttempt } from "../shared/provider-stream.js";
import { classifyError, type ErrorClassification, headersToRecord } from "../shared/retry.js";
import { OpenAIResponsesDecoder, ResponsesStreamError } from "./decode.js";

/**
 * The SDK's own timeout is set far beyond any real call: `timeoutMs` and the idle watchdog of
 * createProviderStream bound the request instead, through `attempt.signal`.
 */
export const SDK_TIMEOUT_DISABLED_MS = 24 * 60 * 60 * 1000;

/** The options every Responses client gets: our harness does retries and timeouts, not the SDK. */
export function baseClientOptions(apiKey: string | undefined, headers: Record<string, string>) {
	return {
		apiKey: apiKey ?? "",
		maxRetries: 0,
		timeout: SDK_TIMEOUT_DISABLED_MS,
		defaultHeaders: headers,
		// The SDK would print malformed events to the console; they reach the caller as the error event.
		logLevel: "off" as const,
		// Keys are the caller's own; Keel also runs in browsers and web workers.
		dangerouslyAllowBrowser: true,
	};
}

/**
 * One attempt: sends the body (after onPayload), reports the response, and feeds every raw stream
 * event to the decoder. The client is the caller's (OpenAI or AzureOpenAI): the wire is the same.
 */
export async function runOpenAIResponsesAttempt<TApi extends Api>(
	attempt: ProviderAttempt<TApi>,
	client: OpenAI,
	body: ResponseCreateParamsStreaming,
	providerLabel: string,
): Promise<void> {
	const payload = await attempt.preparePayload(body);
	const { data: events, response } = await client.responses.create(payload, { signal: attempt.signal }).withResponse();
	await attempt.reportResponse({ status: response.status, headers: headersToRecord(response.headers) });
	const decoder = new OpenAIResponsesDecoder(attempt.builder, providerLabel, payload.service_tier ?? undefined);
	for await (const event of events) {
		attempt.touch();
		decoder.decode(event);
		if (decoder.isEnded) break;
	}
}

// Error codes that an in-stream `error` event uses for temporary conditions.
const RETRYABLE_STREAM_CODES = new Set(["rate_limit_exceeded", "server_error", "server_is_overloaded", "overloaded"]);

/** classifyError, plus in-stream error events whose code says a retry can help (before content). */
export function classifyOpenAIResponsesError(error: unknown): ErrorClassification {
	if (error instanceof ResponsesStreamError) {
		return { message: error.message, retryable: error.code !== undefined && RETRYABLE_STREAM_CODES.has(error.code) };
	}
	const classified = classifyError(error);
	// Azure repeats the status as the error code ({"code":"401"}): "401 … (401)" says nothing more.
	const repeatedStatus = ` (${classified.status})`;
	if (classified.status !== undefined && classified.message.endsWith(repeatedStatus)) {
		classified.message = classified.message.slice(0, -repeatedStatus.length);
	}
	return classified;
}

import type OpenAI from "openai";
import { APIError } from "openai";
import type { ResponseCreateParamsStreaming, ResponseStreamEvent } from "openai/resources/responses/responses";
import type { Api } from "../../types.js";
import { parseStreamEventJson } from "../shared/parse-stream-json.js";
import type { ProviderAttempt } from "../shared/provider-stream.js";
import { classifyError, type ErrorClassification, headersToRecord } from "../shared/retry.js";
import { readServerSentEvents, type ServerSentEvent } from "../shared/sse.js";
import { OpenAIResponsesDecoder, ResponsesStreamError } from "./decode.js";

/**
 * One attempt: the SDK builds, authenticates and sends the request (stream: true) and turns an HTTP
 * error into its typed error; the raw body is then read here through the shared SSE reader and
 * every event goes to the decoder. The client is the caller's (OpenAI or AzureOpenAI).
 */
export async function runOpenAIResponsesAttempt<TApi extends Api>(
	attempt: ProviderAttempt<TApi>,
	client: OpenAI,
	body: ResponseCreateParamsStreaming,
	providerLabel: string,
): Promise<void> {
	const payload = await attempt.preparePayload(body);
	const response = await client.responses
		.create(payload, { signal: attempt.signal })
		.asResponse()
		.catch(async (error: unknown) => {
			// An HTTP error still has status and headers (rate-limit counters, request id) for onResponse.
			if (error instanceof APIError && typeof error.status === "number") {
				await attempt.reportResponse({ status: error.status, headers: headersToRecord(error.headers) });
			}
			throw error;
		});
	await attempt.reportResponse({ status: response.status, headers: headersToRecord(response.headers) });
	if (!response.body) throw new Error(`${providerLabel} returned an empty response body`);
	const contentType = response.headers.get("content-type") ?? "";
	if (contentType.includes("application/json")) {
		// Some proxies answer 200 with a JSON error instead of an event stream.
		throw jsonBodyError(await response.text(), providerLabel);
	}
	const decoder = new OpenAIResponsesDecoder(attempt.builder, providerLabel, payload.service_tier ?? undefined);
	// Leaving the loop early (terminal event, decoder error) cancels the download.
	reading: for await (const events of readServerSentEvents(response.body, attempt.touch)) {
		for (const event of events) {
			decoder.decode(parseStreamEvent(event, providerLabel));
			if (decoder.isEnded) break reading;
		}
	}
}

/** One SSE message as a stream event. `[DONE]` and empty data are ignored; bad JSON is a clear error. */
function parseStreamEvent(message: ServerSentEvent, providerLabel: string): ResponseStreamEvent {
	if (message.data === "[DONE]") return IGNORED_EVENT;
	const data = parseStreamEventJson(message.data, providerLabel, message.event);
	if (typeof data !== "object" || data === null) return IGNORED_EVENT;
	const record = data as { type?: unknown; error?: { message?: unknown; code?: unknown } };
	// Some proxies send `{"error":{...}}` without a type; the SDK treats that as an error too.
	if (typeof record.type !== "string" && record.error && typeof record.error === "object") {
		const code = typeof record.error.code === "string" ? record.error.code : undefined;
		throw new ResponsesStreamError(
			`${providerLabel} stream error${code ? ` ${code}` : ""}: ${String(record.error.message ?? "unknown error")}`,
			code,
		);
	}
	return data as ResponseStreamEvent;
}

/** The error for a JSON body where an event stream was expected: the body's own message when it has one. */
function jsonBodyError(text: string, providerLabel: string): Error {
	try {
		const parsed = JSON.parse(text) as { error?: { message?: unknown; code?: unknown } | string };
		const error = parsed.error;
		if (typeof error === "string") return new ResponsesStreamError(`${providerLabel} error: ${error}`, undefined);
		if (error && typeof error === "object") {
			const code = typeof error.code === "string" ? error.code : undefined;
			return new ResponsesStreamError(
				`${providerLabel} error${code ? ` ${code}` : ""}: ${String(error.message ?? "unknown error")}`,
				code,
			);
		}
	} catch {
		// Not JSON after all: report the start of the body below.
	}
	return new Error(`${providerLabel} answered with JSON instead of an event stream: ${text.slice(0, 200)}`);
}

const IGNORED_EVENT = { type: "keel.ignored" } as unknown as ResponseStreamEvent;

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

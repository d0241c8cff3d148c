import type { ResponseCreateParamsStreaming, ResponseStreamEvent } from "openai/resources/responses/responses";
import { encodeOrFail, type ProviderAttempt } from "../../call/provider-attempt.js";
import type { Api, Context } from "../../types.js";
import { mergeHeaders } from "../../wire/headers.js";
import { endpointUrl, runSseAttempt } from "../../wire/http-transport.js";
import { openAIDefaultHeaders } from "../../wire/openai-default-headers.js";
import { parseStreamEventJson } from "../../wire/parse-stream-json.js";
import { ProviderStreamError } from "../../wire/provider-errors.js";
import { requireBaseUrl } from "../../wire/require-base-url.js";
import type { ServerSentEvent } from "../../wire/sse.js";
import { OpenAIResponsesDecoder } from "./decode.js";
import { buildOpenAIResponsesHeaders, encodeOpenAIResponsesRequest } from "./encode.js";
import type { OpenAIResponsesOptions } from "./options.js";

/**
 * One attempt: POST `{baseUrl}/responses` with `stream: true` and feed every event to the decoder.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
export async function runOpenAIResponsesAttempt(
	attempt: ProviderAttempt<"openai-responses">,
	context: Context,
	options: OpenAIResponsesOptions,
): Promise<void> {
	const { model } = attempt;
	await runResponsesRequest(attempt, {
		label: "OpenAI",
		url: endpointUrl(requireBaseUrl(model), "/responses"),
		headers: mergeHeaders(
			openAIDefaultHeaders(model, attempt.apiKey),
			buildOpenAIResponsesHeaders(model, options, context),
		),
		body: encodeOrFail(() => encodeOpenAIResponsesRequest(model, context, options)),
	});
}

/** Where a Responses request goes: OpenAI's endpoint or an Azure deployment's. */
export interface ResponsesRequest {
	/** Names the provider in error messages: "OpenAI", "Azure OpenAI". */
	label: string;
	url: string;
	headers: Record<string, string>;
	body: ResponseCreateParamsStreaming;
}

/** The Responses wire format over the shared transport; the Azure provider reuses it. */
export function runResponsesRequest<TApi extends Api>(
	attempt: ProviderAttempt<TApi>,
	request: ResponsesRequest,
): Promise<void> {
	return runSseAttempt(attempt, {
		...request,
		createDecoder: (payload) =>
			new OpenAIResponsesDecoder(attempt.builder, request.label, payload.service_tier ?? undefined),
		parseEvent: (event) => parseResponsesEvent(event, request.label),
	});
}

/** One SSE message as a stream event. Data that is not an object is skipped; bad JSON is a clear error. */
export function parseResponsesEvent(message: ServerSentEvent, label: string): ResponseStreamEvent | undefined {
	const data = parseStreamEventJson(message.data, label, message.event);
	if (typeof data !== "object" || data === null) return undefined;
	const record = data as { type?: unknown; error?: { message?: unknown; code?: unknown } };
	// Some proxies send `{"error":{...}}` without a type; the SDK treated that as an error too.
	if (typeof record.type !== "string" && record.error && typeof record.error === "object") {
		const code = typeof record.error.code === "string" ? record.error.code : undefined;
		throw new ProviderStreamError(
			`${label} stream error${code ? ` ${code}` : ""}: ${String(record.error.message ?? "unknown error")}`,
			code,
		);
	}
	return data as ResponseStreamEvent;
}

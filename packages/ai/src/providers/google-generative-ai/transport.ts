import { encodeOrFail, type ProviderAttempt } from "../../call/provider-attempt.js";
import type { Api, Context } from "../../types.js";
import { mergeHeaders } from "../../wire/headers.js";
import { endpointUrl, runSseAttempt } from "../../wire/http-transport.js";
import { parseStreamEventJson } from "../../wire/parse-stream-json.js";
import { requireBaseUrl } from "../../wire/require-base-url.js";
import type { ServerSentEvent } from "../../wire/sse.js";
import { GeminiStreamDecoder } from "./decode.js";
import { encodeGeminiRequest } from "./encode.js";
import { geminiStreamError } from "./errors.js";
import type { GoogleOptions } from "./options.js";
import type { GeminiRequestBody, GeminiResponseChunk } from "./wire-types.js";

/**
 * One attempt: POST `{baseUrl}/models/{model}:streamGenerateContent?alt=sse` with the key in
 * `x-goog-api-key` (never in the URL, where logs and proxies would keep it).
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
export async function runGoogleAttempt(
	attempt: ProviderAttempt<"google-generative-ai">,
	context: Context,
	options: GoogleOptions,
): Promise<void> {
	const { model, apiKey } = attempt;
	await runGeminiRequest(attempt, {
		label: "Gemini",
		url: endpointUrl(requireBaseUrl(model), `/models/${encodeURIComponent(model.id)}:streamGenerateContent`, {
			alt: "sse",
		}),
		headers: mergeHeaders(apiKey ? { "x-goog-api-key": apiKey } : undefined, model.headers, options.headers),
		body: encodeOrFail(() => encodeGeminiRequest(model, context, options)),
	});
}

/** Where a Gemini request goes: the Gemini API or Vertex AI. */
export interface GeminiRequest {
	/** Names the provider in error messages: "Gemini", "Vertex AI". */
	label: string;
	url: string;
	headers: Record<string, string>;
	body: GeminiRequestBody;
}

let attemptCounter = 0;

/** The Gemini wire format over the shared transport; the Vertex provider reuses it. */
export function runGeminiRequest<TApi extends Api>(
	attempt: ProviderAttempt<TApi>,
	request: GeminiRequest,
): Promise<void> {
	// Gemini sends function calls without ids; the ones Keel makes must not repeat within a conversation.
	const toolCallIdPrefix = `call_${Date.now().toString(36)}${(++attemptCounter).toString(36)}`;
	return runSseAttempt(attempt, {
		...request,
		createDecoder: () => new GeminiStreamDecoder(attempt.builder, { label: request.label, toolCallIdPrefix }),
		parseEvent: (event) => parseGeminiEvent(event, request.label),
	});
}

/** One SSE event as a response chunk; `{"error":{…}}` (an error after the stream began) is thrown. */
export function parseGeminiEvent(event: ServerSentEvent, label: string): GeminiResponseChunk | undefined {
	const data = parseStreamEventJson(event.data, label, event.event);
	if (typeof data !== "object" || data === null) return undefined;
	const error = (data as { error?: unknown }).error;
	if (error && typeof error === "object") throw geminiStreamError(error, label);
	return data as GeminiResponseChunk;
}

import { encodeOrFail, type ProviderAttempt } from "../../call/provider-attempt.js";
import type { Context } from "../../types.js";
import { mergeHeaders } from "../../wire/headers.js";
import { endpointUrl, runSseAttempt } from "../../wire/http-transport.js";
import { parseStreamEventJson } from "../../wire/parse-stream-json.js";
import { requireBaseUrl } from "../../wire/require-base-url.js";
import type { ServerSentEvent } from "../../wire/sse.js";
import { AnthropicStreamDecoder, type AnthropicStreamEvent } from "./decode.js";
import { encodeAnthropicRequest } from "./encode.js";
import { anthropicAuthMode, anthropicCredentialHeaders, buildAnthropicHeaders } from "./encode-headers.js";
import { anthropicStreamError } from "./errors.js";
import type { AnthropicOptions } from "./options.js";

/**
 * One attempt: POST `{baseUrl}/v1/messages` with `stream: true` and feed every event to the decoder.
 * With `options.client` (a caller's Anthropic SDK client) the client sends the request with its own
 * base URL and credentials; Keel still reads the body.
 * @see https://docs.anthropic.com/en/api/messages-streaming
 */
export async function runAnthropicAttempt(
	attempt: ProviderAttempt<"anthropic-messages">,
	context: Context,
	options: AnthropicOptions,
): Promise<void> {
	const { model, apiKey } = attempt;
	const authMode = anthropicAuthMode(model, apiKey);
	const client = options.client;
	await runSseAttempt(attempt, {
		label: "Anthropic",
		url: endpointUrl(requireBaseUrl(model), "/v1/messages"),
		headers: mergeHeaders(
			client ? undefined : anthropicCredentialHeaders(authMode, apiKey),
			buildAnthropicHeaders(model, context, options, authMode),
		),
		body: encodeOrFail(() => encodeAnthropicRequest(model, context, options)),
		createDecoder: () => new AnthropicStreamDecoder(attempt.builder),
		parseEvent: parseAnthropicEvent,
		sendThroughClient: client ? (payload, init) => client.messages.create(payload, init).asResponse() : undefined,
	});
}

/** One SSE event: `ping` is skipped, `error` is thrown (see classifyAnthropicError), the rest parsed. */
function parseAnthropicEvent(event: ServerSentEvent): AnthropicStreamEvent | undefined {
	if (event.event === "ping") return undefined;
	if (event.event === "error") throw anthropicStreamError(event.data);
	return parseStreamEventJson(event.data, "Anthropic", event.event) as AnthropicStreamEvent;
}

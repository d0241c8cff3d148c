import { encodeOrFail, NonRetryableError, type ProviderAttempt } from "../../call/provider-attempt.js";
import type { Context } from "../../types.js";
import { mergeHeaders } from "../../wire/headers.js";
import { endpointUrl, runSseAttempt } from "../../wire/http-transport.js";
import { parseStreamEventJson } from "../../wire/parse-stream-json.js";
import { requireBaseUrl } from "../../wire/require-base-url.js";
import { MistralStreamDecoder } from "./decode.js";
import { buildMistralHeaders, encodeMistralRequest, findMistralInputProblem } from "./encode.js";
import { findMistralStreamError } from "./errors.js";
import type { MistralOptions } from "./options.js";
import type { MistralChunkWire } from "./wire-types.js";

/**
 * One attempt: POST `{baseUrl}/v1/chat/completions` with `stream: true` and the key as a bearer
 * token, and feed every chunk to the decoder. The catalogue's base URL is the API's host,
 * https://api.mistral.ai.
 * @see https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post
 */
export async function runMistralAttempt(
	attempt: ProviderAttempt<"mistral-conversations">,
	context: Context,
	options: MistralOptions,
): Promise<void> {
	const { model, apiKey } = attempt;
	const problem = findMistralInputProblem(model, context);
	if (problem) throw new NonRetryableError(problem);
	await runSseAttempt(attempt, {
		label: "Mistral",
		url: endpointUrl(requireBaseUrl(model), "/v1/chat/completions"),
		// `accept: application/json` as Mistral's SDKs send it; the body is still an event stream.
		headers: mergeHeaders(
			{ accept: "application/json" },
			apiKey ? { authorization: `Bearer ${apiKey}` } : undefined,
			buildMistralHeaders(model, options),
		),
		body: encodeOrFail(
			() => encodeMistralRequest(model, context, options),
			`Could not build the Mistral request for "${model.id}"`,
		),
		createDecoder: () => new MistralStreamDecoder(attempt.builder),
		parseEvent: (event) => parseChunk(event.data),
	});
}

/** One `data:` payload; an error sent with status 200 is thrown. */
function parseChunk(data: string): MistralChunkWire {
	const parsed = parseStreamEventJson(data, "Mistral");
	const error = findMistralStreamError(parsed);
	if (error) throw error;
	return parsed as MistralChunkWire;
}

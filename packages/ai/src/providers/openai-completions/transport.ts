import { encodeOrFail, NonRetryableError, type ProviderAttempt } from "../../call/provider-attempt.js";
import type { Context, Model } from "../../types.js";
import { formatThrownValue } from "../../utils/error-message.js";
import { mergeHeaders } from "../../wire/headers.js";
import { endpointUrl, runSseAttempt } from "../../wire/http-transport.js";
import { openAIDefaultHeaders } from "../../wire/openai-default-headers.js";
import { parseStreamEventJson } from "../../wire/parse-stream-json.js";
import { requireBaseUrl } from "../../wire/require-base-url.js";
import { resolveBaseUrl } from "./base-url.js";
import { type ResolvedOpenAICompletionsCompat, resolveOpenAICompletionsCompat } from "./compat.js";
import {
	type ChatCompletionChunkWire,
	type ChatCompletionDeltaWire,
	OpenAICompletionsStreamDecoder,
} from "./decode.js";
import {
	buildOpenAICompletionsHeaders,
	encodeOpenAICompletionsRequest,
	findOpenAICompletionsInputProblem,
} from "./encode.js";
import { findChatCompletionsError } from "./errors.js";
import type { OpenAICompletionsOptions } from "./options.js";

/**
 * One attempt: POST `{baseUrl}/chat/completions` with `stream: true` and feed every chunk to the
 * decoder. The vendor's quirks come from its compat flags (provider id and base URL, overridden by
 * `model.compat`); `{VARIABLE}` placeholders in the base URL are filled from the environment.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export async function runOpenAICompletionsAttempt(
	attempt: ProviderAttempt<"openai-completions">,
	context: Context,
	options: OpenAICompletionsOptions,
): Promise<void> {
	const { model } = attempt;
	const baseUrl = resolveBaseUrl(requireBaseUrl(model));
	if ("problem" in baseUrl) throw new NonRetryableError(baseUrl.problem);
	const compat = resolveCompatOrFail(model);
	const vendor = model.provider;
	const problem = findOpenAICompletionsInputProblem(model, context);
	if (problem) throw new NonRetryableError(problem);
	await runSseAttempt(attempt, {
		label: vendor,
		url: endpointUrl(baseUrl.url, "/chat/completions"),
		headers: mergeHeaders(
			openAIDefaultHeaders(model, attempt.apiKey),
			buildOpenAICompletionsHeaders(model, context, options, compat),
		),
		body: encodeOrFail(
			() => encodeOpenAICompletionsRequest(model, context, options, compat),
			`Could not build the Chat Completions request for "${model.id}"`,
		),
		createDecoder: () => new OpenAICompletionsStreamDecoder(attempt.builder, vendor, compat.usageCounting),
		parseEvent: (event) => parseChunk(event.data, vendor, `${vendor} stream error`),
		decodeJsonBody: (text, decoder) => {
			// Some proxies ignore `stream: true` and answer with one whole chat.completion object.
			decoder.decode(completionAsChunk(parseChunk(text, vendor, `${vendor} error`)));
			decoder.end();
		},
	});
}

/** Parses one `data:` payload (or a whole JSON body); an error sent with status 200 is thrown. */
function parseChunk(data: string, vendor: string, errorLabel: string): ChatCompletionChunkWire {
	const parsed = parseStreamEventJson(data, vendor);
	const error = findChatCompletionsError(parsed, errorLabel);
	if (error) throw error;
	return parsed as ChatCompletionChunkWire;
}

/** A non-streamed `chat.completion` as one chunk: each choice's `message` becomes its `delta`. */
function completionAsChunk(completion: ChatCompletionChunkWire): ChatCompletionChunkWire {
	type WholeChoice = NonNullable<ChatCompletionChunkWire["choices"]>[number] & { message?: ChatCompletionDeltaWire };
	const choices = (completion.choices ?? []) as WholeChoice[];
	return {
		...completion,
		choices: choices.map(({ message, ...choice }) => {
			const delta = message ?? choice.delta ?? {};
			const toolCalls = delta.tool_calls?.map((call, index) => ({ index, ...call }));
			return { ...choice, delta: toolCalls ? { ...delta, tool_calls: toolCalls } : delta };
		}),
	};
}

function resolveCompatOrFail(model: Model<"openai-completions">): ResolvedOpenAICompletionsCompat {
	try {
		return resolveOpenAICompletionsCompat(model);
	} catch (error) {
		throw new NonRetryableError(formatThrownValue(error));
	}
}

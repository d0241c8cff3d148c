import OpenAI from "openai";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import type { Api, Context, Model } from "../../types.js";
import { parseStreamEventJson } from "../shared/parse-stream-json.js";
import type { ProviderAttempt } from "../shared/provider-stream.js";
import { headersToRecord } from "../shared/retry.js";
import { openAIClientOptions } from "../shared/sdk-client-options.js";
import { readServerSentEvents } from "../shared/sse.js";
import type { ResolvedOpenAICompletionsCompat } from "./compat.js";
import {
	type ChatCompletionChunkWire,
	type ChatCompletionDeltaWire,
	OpenAICompletionsStreamDecoder,
} from "./decode.js";
import { buildOpenAICompletionsHeaders } from "./encode.js";
import { attachErrorBody } from "./errors.js";
import type { OpenAICompletionsOptions } from "./options.js";
import type { ChatCompletionsRequest } from "./wire-types.js";

/** One attempt: send the request through the openai SDK and feed every chunk to the decoder. */
export async function runOpenAICompletionsAttempt(
	attempt: ProviderAttempt<"openai-completions">,
	context: Context,
	options: OpenAICompletionsOptions,
	compat: ResolvedOpenAICompletionsCompat,
	body: ChatCompletionsRequest,
	/** `model.baseUrl` with its environment placeholders filled. */
	baseUrl: string = attempt.model.baseUrl,
): Promise<void> {
	const { model } = attempt;
	let errorBody: string | undefined;
	const client = createOpenAICompletionsClient(model, attempt.apiKey, {
		baseUrl,
		headers: buildOpenAICompletionsHeaders(model, context, options, compat),
		onErrorBody: (text) => {
			errorBody = text;
		},
	});
	const payload = await attempt.preparePayload(body);
	let response: Response;
	try {
		// The SDK sends the request and raises its typed errors for non-2xx answers; the body is
		// read by `readServerSentEvents` (see there for why not the SDK's own stream).
		response = await client.chat.completions
			.create(payload as unknown as ChatCompletionCreateParamsStreaming, { signal: attempt.signal })
			.asResponse();
	} catch (error) {
		const { status, headers } = error as { status?: unknown; headers?: Headers };
		if (typeof status === "number") await attempt.reportResponse({ status, headers: headersToRecord(headers) });
		throw attachErrorBody(error, errorBody);
	}
	await attempt.reportResponse({ status: response.status, headers: headersToRecord(response.headers) });
	if (!response.body) throw new Error(`The ${model.provider} response to a streaming request has no body`);

	const decoder = new OpenAICompletionsStreamDecoder(attempt.builder, model.provider);
	if (response.headers.get("content-type")?.includes("application/json")) {
		// Some proxies ignore `stream: true` and answer with one whole chat.completion object.
		attempt.touch();
		const completion = parseChunk(await response.text(), model.provider);
		decoder.decodeChunk(completionAsChunk(completion));
		decoder.end();
		return;
	}
	try {
		reading: for await (const events of readServerSentEvents(response.body, attempt.touch)) {
			for (const event of events) {
				if (event.data === "[DONE]") break reading;
				decoder.decodeChunk(parseChunk(event.data, model.provider));
			}
		}
	} catch (error) {
		// Reading stops with an abort error when the harness aborts; it reports the cause itself.
		if (attempt.signal.aborted) return;
		throw describeCutConnection(error, model.provider);
	}
	if (attempt.signal.aborted) return;
	decoder.end();
}

/** Parses one `data:` payload; an `{"error": …}` payload (sent with status 200) becomes an error. */
function parseChunk(data: string, provider: string): ChatCompletionChunkWire {
	const parsed = parseStreamEventJson(data, provider);
	const streamError = (parsed as { error?: unknown } | null)?.error;
	if (streamError) throw streamErrorFrom(streamError);
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

/**
 * undici reports a connection closed mid-body as a bare "terminated"; say what that means. The
 * wording keeps the original text, so retry classification still sees a connection failure.
 */
function describeCutConnection(error: unknown, provider: string): unknown {
	if (!(error instanceof TypeError) || !/terminated|other side closed|ECONNRESET|socket/i.test(error.message)) {
		return error;
	}
	const cause =
		error.cause instanceof Error && !error.message.includes(error.cause.message) ? ` (${error.cause.message})` : "";
	return new Error(`The connection to ${provider} closed before the response was finished: ${error.message}${cause}`, {
		cause: error,
	});
}

/** An error event inside the stream, shaped like the SDK's errors so classification reads it. */
function streamErrorFrom(body: unknown): Error {
	const message =
		typeof body === "string"
			? body
			: typeof (body as { message?: unknown }).message === "string"
				? (body as { message: string }).message
				: JSON.stringify(body);
	return Object.assign(new Error(message), { error: body });
}

interface ClientSettings {
	baseUrl: string;
	headers: Record<string, string>;
	/** Receives the text of a non-2xx response body before the SDK reduces it to an error. */
	onErrorBody: (text: string) => void;
}

/** An openai SDK client for one attempt: no SDK retries or timeout (the harness owns both). */
export function createOpenAICompletionsClient(
	model: Model<"openai-completions">,
	apiKey: string | undefined,
	settings: ClientSettings,
): OpenAI {
	const capturingFetch: typeof fetch = async (input, init) => {
		const response = await fetch(input, init);
		if (!response.ok) settings.onErrorBody(await response.clone().text());
		return response;
	};
	return new OpenAI({
		...openAIClientOptions(model as Model<Api>, apiKey, settings.headers),
		baseURL: settings.baseUrl,
		fetch: capturingFetch,
	});
}

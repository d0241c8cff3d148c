import OpenAI from "openai";
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import type { Context, Model } from "../../types.js";
import { NonRetryableError, type ProviderAttempt } from "../shared/provider-stream.js";
import { headersToRecord } from "../shared/retry.js";
import type { ResolvedOpenAICompletionsCompat } from "./compat.js";
import { type ChatCompletionChunkWire, OpenAICompletionsStreamDecoder } from "./decode.js";
import { buildOpenAICompletionsHeaders } from "./encode.js";
import { attachErrorBody } from "./errors.js";
import type { OpenAICompletionsOptions } from "./options.js";
import type { ChatCompletionsRequest } from "./wire-types.js";

// The longest delay setTimeout accepts; the SDK's own timeout is effectively off because
// Keel's harness enforces timeoutMs and the idle watchdog through `attempt.signal`.
const SDK_TIMEOUT_DISABLED_MS = 2_147_483_647;

// Servers that need no key (Ollama, vLLM, LM Studio) still get a client: the SDK insists on a
// key, so it gets this placeholder and the Authorization header is removed from the request.
const NO_KEY_PLACEHOLDER = "keel-no-api-key";

/** One attempt: send the request through the openai SDK and feed every chunk to the decoder. */
export async function runOpenAICompletionsAttempt(
	attempt: ProviderAttempt<"openai-completions">,
	context: Context,
	options: OpenAICompletionsOptions,
	compat: ResolvedOpenAICompletionsCompat,
	body: ChatCompletionsRequest,
): Promise<void> {
	const { model } = attempt;
	let errorBody: string | undefined;
	const client = createOpenAICompletionsClient(model, attempt.apiKey, {
		headers: buildOpenAICompletionsHeaders(model, context, options, compat),
		onErrorBody: (text) => {
			errorBody = text;
		},
	});
	const payload = await attempt.preparePayload(body);
	let stream: AsyncIterable<ChatCompletionChunk>;
	try {
		const { data, response } = await client.chat.completions
			.create(payload as unknown as ChatCompletionCreateParamsStreaming, { signal: attempt.signal })
			.withResponse();
		await attempt.reportResponse({ status: response.status, headers: headersToRecord(response.headers) });
		stream = data;
	} catch (error) {
		throw attachErrorBody(error, errorBody);
	}
	const decoder = new OpenAICompletionsStreamDecoder(attempt.builder, model.provider);
	try {
		for await (const chunk of stream) {
			attempt.touch();
			decoder.decodeChunk(chunk as unknown as ChatCompletionChunkWire);
		}
	} catch (error) {
		if (error instanceof SyntaxError) {
			throw new NonRetryableError(`The ${model.provider} stream sent an event that is not JSON: ${error.message}`);
		}
		throw error;
	}
	// The SDK ends the iteration quietly on abort; the harness reports the abort.
	if (attempt.signal.aborted) return;
	decoder.end();
}

interface ClientSettings {
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
	const headers: Record<string, string | null> = { ...settings.headers };
	if (!apiKey) headers.Authorization = null;
	const capturingFetch: typeof fetch = async (input, init) => {
		const response = await fetch(input, init);
		if (!response.ok) settings.onErrorBody(await response.clone().text());
		return response;
	};
	return new OpenAI({
		apiKey: apiKey ?? NO_KEY_PLACEHOLDER,
		baseURL: model.baseUrl,
		// Only OpenAI itself should receive the OPENAI_ORG_ID / OPENAI_PROJECT_ID headers.
		...(model.provider === "openai" ? {} : { organization: null, project: null }),
		defaultHeaders: headers,
		maxRetries: 0,
		timeout: SDK_TIMEOUT_DISABLED_MS,
		fetch: capturingFetch,
		logLevel: "off",
		// Keel also runs in browsers (extensions, local tools); where a key lives is the caller's choice.
		dangerouslyAllowBrowser: true,
	});
}

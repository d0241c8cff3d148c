// The provider module, loaded on the first call (see register.ts). Everything but the wire format
// comes from the kit: the request, retries, HTTP errors, the read loop, the idle watchdog.
import type { Context } from "@keel/ai";
import {
	encodeOrFail,
	endpointUrl,
	mergeHeaders,
	ndjsonFramer,
	type ProviderAttempt,
	type ProviderDefinition,
	ProviderStreamError,
	parseStreamEventJson,
	requireBaseUrl,
	runStreamingAttempt,
} from "@keel/ai/provider-kit";
import { OllamaChatDecoder } from "./decode.js";
import { encodeOllamaChatRequest, type OllamaChatOptions } from "./encode.js";
import type { OllamaChatChunk } from "./wire-types.js";

async function runOllamaChatAttempt(
	attempt: ProviderAttempt<"ollama-chat">,
	context: Context,
	options: OllamaChatOptions,
): Promise<void> {
	const { model, apiKey } = attempt;
	await runStreamingAttempt(attempt, {
		label: "Ollama",
		url: endpointUrl(requireBaseUrl(model), "/api/chat"),
		// A local Ollama needs no key; one behind an authenticating proxy or Ollama's cloud takes a bearer token.
		headers: mergeHeaders({ accept: "application/x-ndjson" }, apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
		body: encodeOrFail(() => encodeOllamaChatRequest(model, context, options)),
		createDecoder: () => new OllamaChatDecoder(attempt.builder),
		createFramer: ndjsonFramer,
		parseFrame: (line) => {
			const chunk = parseStreamEventJson(line, "Ollama") as OllamaChatChunk;
			if (typeof chunk?.error === "string") throw new ProviderStreamError(`Ollama error: ${chunk.error}`, undefined);
			return chunk;
		},
		rawEvent: (line) => ({ event: undefined, data: line }),
	});
}

export const ollamaChatDefinition: ProviderDefinition<"ollama-chat", OllamaChatOptions> = {
	api: "ollama-chat",
	simpleOptions: (_model, options) => options ?? {},
	requiresApiKey: () => false,
	runAttempt: runOllamaChatAttempt,
};

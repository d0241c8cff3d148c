import { clearApiProviders, registerApiProvider } from "../api-registry.js";
import type { Api, AssistantMessage, Context, Model, SimpleStreamOptions, StreamOptions } from "../types.js";
import {
	type AssistantMessageEventStream,
	createAssistantMessageEventStream,
	createEmptyAssistantMessage,
} from "../utils/event-stream.js";
import { failedStream } from "./shared/failed-stream.js";
import { redactSecret } from "./shared/retry.js";

/** What a provider module exports: its raw and unified stream functions. */
export interface ProviderModule {
	stream: (model: Model<Api>, context: Context, options?: StreamOptions) => AssistantMessageEventStream;
	streamSimple: (model: Model<Api>, context: Context, options?: SimpleStreamOptions) => AssistantMessageEventStream;
}

type ProviderLoader = () => Promise<ProviderModule>;

// Each loader is a dynamic import, so importing @keel/ai loads no provider SDK: a provider's
// module (and its SDK) is loaded on its first call and cached by the module system.
const builtInLoaders: Record<string, ProviderLoader> = {
	"anthropic-messages": async () => {
		const module = await import("./anthropic/index.js");
		return { stream: module.streamAnthropic, streamSimple: module.streamSimpleAnthropic } as ProviderModule;
	},
	"openai-completions": async () => {
		const module = await import("./openai-completions/index.js");
		return {
			stream: module.streamOpenAICompletions,
			streamSimple: module.streamSimpleOpenAICompletions,
		} as ProviderModule;
	},
	"openai-responses": async () => {
		const module = await import("./openai-responses/index.js");
		return { stream: module.streamOpenAIResponses, streamSimple: module.streamSimpleOpenAIResponses } as ProviderModule;
	},
	"azure-openai-responses": async () => {
		const module = await import("./azure-openai-responses/index.js");
		return {
			stream: module.streamAzureOpenAIResponses,
			streamSimple: module.streamSimpleAzureOpenAIResponses,
		} as ProviderModule;
	},
};

// Wire APIs that the catalogue lists but Keel does not speak yet. Their models can be looked up;
// a call ends with one clear error event instead of throwing "No API provider registered".
const notYetImplementedApis = [
	"google-generative-ai",
	"google-vertex",
	"google-gemini-cli",
	"mistral-conversations",
	"bedrock-converse-stream",
	"openai-codex-responses",
] as const;

function notImplementedStream(model: Model<Api>): AssistantMessageEventStream {
	const implemented = Object.keys(builtInLoaders).join(", ");
	return failedStream(
		model,
		`The "${model.api}" API (model "${model.provider}/${model.id}") is not implemented in Keel yet; use a model whose api is one of: ${implemented}, or register your own provider with registerApiProvider`,
	);
}

/** Forwards a lazily loaded provider's events into a stream returned synchronously. */
function lazyStream(
	load: ProviderLoader,
	pick: (module: ProviderModule) => ProviderModule["stream"] | ProviderModule["streamSimple"],
	model: Model<Api>,
	context: Context,
	options: SimpleStreamOptions | undefined,
): AssistantMessageEventStream {
	const outer = createAssistantMessageEventStream();
	void (async () => {
		let inner: AssistantMessageEventStream;
		try {
			const module = await load();
			inner = pick(module)(model, context, options);
		} catch (error) {
			inner = failedStream(
				model,
				`Failed to load the provider for api "${model.api}": ${redactSecret(errorText(error), options?.apiKey)}`,
			);
		}
		let lastPartial: AssistantMessage | undefined;
		try {
			for await (const event of inner) {
				if ("partial" in event) lastPartial = event.partial;
				outer.push(event);
			}
			outer.end(await inner.result());
		} catch (error) {
			// A provider stream that breaks while being read still ends the caller's stream with one
			// error event that keeps the content received so far.
			if (!outer.isDone) {
				const partial = lastPartial ?? createEmptyAssistantMessage(model.api, model.provider, model.id);
				const message: AssistantMessage = {
					...partial,
					stopReason: "error",
					errorMessage: `The provider for api "${model.api}" failed while streaming: ${redactSecret(errorText(error), options?.apiKey)}`,
				};
				outer.push({ type: "error", reason: "error", error: message });
			}
			outer.end();
		}
	})();
	return outer;
}

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Registers the built-in wire APIs. Runs when @keel/ai is imported. */
export function registerBuiltInApiProviders(): void {
	for (const [api, load] of Object.entries(builtInLoaders)) {
		registerApiProvider(
			{
				api,
				stream: (model, context, options) => lazyStream(load, (module) => module.stream, model, context, options),
				streamSimple: (model, context, options) =>
					lazyStream(load, (module) => module.streamSimple, model, context, options),
			},
			"builtin",
		);
	}
	for (const api of notYetImplementedApis) {
		registerApiProvider({ api, stream: notImplementedStream, streamSimple: notImplementedStream }, "builtin");
	}
}

/** Clears the registry, then registers the built-ins again. */
export function resetApiProviders(): void {
	clearApiProviders();
	registerBuiltInApiProviders();
}

import { clearApiProviders, registerApiProvider } from "../api-registry.js";
import { failedStream } from "../call/failed-stream.js";
import { apiProviderFromDefinition, type ProviderDefinition } from "../call/provider-definition.js";
import type { Api, Model } from "../types.js";
import type { AssistantMessageEventStream } from "../utils/event-stream.js";

// Each loader is a dynamic import, so importing @keel/ai loads no provider module and no SDK: a
// provider's module is loaded on its first call and cached by the module system. The harness has
// already returned the caller's stream by then; the loaded definition writes into it directly.
const builtInDefinitions: Record<string, () => Promise<ProviderDefinition<Api>>> = {
	"anthropic-messages": async () => (await import("./anthropic/registry-entry.js")).anthropicMessagesProvider,
	"openai-completions": async () => (await import("./openai-completions/registry-entry.js")).openAICompletionsProvider,
	"openai-responses": async () => (await import("./openai-responses/registry-entry.js")).openAIResponsesProvider,
	"azure-openai-responses": async () =>
		(await import("./azure-openai-responses/registry-entry.js")).azureOpenAIResponsesProvider,
	"mistral-conversations": async () =>
		(await import("./mistral-conversations/registry-entry.js")).mistralConversationsProvider,
	"google-generative-ai": async () =>
		(await import("./google-generative-ai/registry-entry.js")).googleGenerativeAIProvider,
	"google-vertex": async () => (await import("./google-vertex/registry-entry.js")).googleVertexProvider,
	"bedrock-converse-stream": async () =>
		(await import("./bedrock-converse-stream/registry-entry.js")).bedrockConverseStreamProvider,
	"openai-codex-responses": async () =>
		(await import("./openai-codex-responses/registry-entry.js")).openAICodexResponsesProvider,
};

// Wire APIs that the catalogue lists but Keel does not speak yet. Their models can be looked up;
// a call ends with one clear error event instead of throwing "No API provider registered".
const notYetImplementedApis = ["google-gemini-cli"] as const;

function notImplementedStream(model: Model<Api>): AssistantMessageEventStream {
	const implemented = Object.keys(builtInDefinitions).join(", ");
	return failedStream(
		model,
		`The "${model.api}" API (model "${model.provider}/${model.id}") is not implemented in Keel yet; use a model whose api is one of: ${implemented}, or register your own provider with registerApiProvider`,
	);
}

/** Registers the built-in wire APIs. Runs when @keel/ai is imported. */
export function registerBuiltInApiProviders(): void {
	for (const [api, load] of Object.entries(builtInDefinitions)) {
		registerApiProvider(apiProviderFromDefinition(api, load), "builtin");
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

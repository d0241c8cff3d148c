// How a third party registers a provider Keel does not ship: a registry entry whose module is
// imported on the first call, so registering costs nothing and the module stays out of bundles
// that never call it.
import { type Model, registerApiProvider } from "@keel/ai";
import { apiProviderFromDefinition } from "@keel/ai/provider-kit";
import type { OllamaChatOptions } from "./encode.js";

/** How often the provider module was asked for (a test checks that registering asks for nothing). */
export const moduleRequests = { count: 0 };

export function registerOllamaChat(): void {
	registerApiProvider(
		apiProviderFromDefinition<"ollama-chat", OllamaChatOptions>("ollama-chat", async () => {
			moduleRequests.count++;
			const module = await import("./definition.js");
			return module.ollamaChatDefinition;
		}),
		"ollama-chat",
	);
}

/** A model served by Ollama at `baseUrl` (http://127.0.0.1:11434 for a local one). */
export function ollamaModel(id: string, baseUrl: string): Model<"ollama-chat"> {
	return {
		id,
		name: id,
		api: "ollama-chat",
		provider: "ollama",
		baseUrl,
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 128_000,
		maxTokens: 8_192,
	};
}

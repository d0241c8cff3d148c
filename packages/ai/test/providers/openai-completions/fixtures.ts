// Models and stream builders shared by the openai-completions tests. Models are literals: the
// catalogue is generated elsewhere and these tests must not depend on its contents.
import type { Model, OpenAICompletionsCompat } from "../../../src/types.js";
import { testModel } from "../../helpers/models.js";

export function completionsModel(
	overrides: Partial<Model<"openai-completions">> & { compat?: OpenAICompletionsCompat } = {},
): Model<"openai-completions"> {
	return testModel(
		{
			id: "gpt-4.1-mini",
			name: "GPT-4.1 mini",
			api: "openai-completions",
			provider: "openai",
			baseUrl: "https://api.openai.com/v1",
		},
		overrides,
	);
}

/** A model served by the wire-test server, as the vendor named by `provider`. */
export function serverModel(
	baseUrl: string,
	overrides: Partial<Model<"openai-completions">> = {},
): Model<"openai-completions"> {
	return completionsModel({ baseUrl, ...overrides });
}

/** An Ollama / vLLM / LM Studio style model: a provider with no key variable, on localhost. */
export function localModel(baseUrl: string, overrides: Partial<Model<"openai-completions">> = {}) {
	return completionsModel({
		id: "qwen3:8b",
		name: "Qwen3 8B (local)",
		provider: "ollama",
		baseUrl,
		reasoning: true,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		...overrides,
	});
}

export interface ChunkOptions {
	id?: string;
	model?: string;
	finish?: string | null;
	usage?: Record<string, unknown>;
}

/** One `chat.completion.chunk` as OpenAI sends it. */
export function chunk(delta: Record<string, unknown>, options: ChunkOptions = {}): Record<string, unknown> {
	return {
		id: options.id ?? "chatcmpl-test",
		object: "chat.completion.chunk",
		created: 1_763_000_000,
		model: options.model ?? "gpt-4.1-mini",
		choices: [{ index: 0, delta, logprobs: null, finish_reason: options.finish ?? null }],
		...(options.usage ? { usage: options.usage } : {}),
	};
}

/** The final chunk sent with `stream_options.include_usage`: no choices, only usage. */
export function usageChunk(usage: Record<string, unknown>): Record<string, unknown> {
	return {
		id: "chatcmpl-test",
		object: "chat.completion.chunk",
		created: 1_763_000_000,
		model: "gpt-4.1-mini",
		choices: [],
		usage,
	};
}

/** Chunks as an SSE body: `data: <json>` events, then `data: [DONE]`. */
export function sse(chunks: unknown[], done = true): string {
	let body = "";
	for (const item of chunks) body += `data: ${typeof item === "string" ? item : JSON.stringify(item)}\n\n`;
	if (done) body += "data: [DONE]\n\n";
	return body;
}

/** A plain text answer with usage, as OpenAI streams it. */
export function textStream(text: string, usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }) {
	return sse([
		chunk({ role: "assistant", content: "" }),
		chunk({ content: text }),
		chunk({}, { finish: "stop" }),
		usageChunk(usage),
	]);
}

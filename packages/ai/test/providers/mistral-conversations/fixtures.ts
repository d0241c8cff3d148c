// Models and stream builders shared by the mistral-conversations tests. The chunks are shaped as
// Mistral's chat completions stream sends them (https://docs.mistral.ai/api/#tag/chat).
import type { Model } from "../../../src/types.js";
import { testModel } from "../../helpers/models.js";

export function mistralModel(overrides: Partial<Model<"mistral-conversations">> = {}): Model<"mistral-conversations"> {
	return testModel(
		{
			id: "mistral-large-latest",
			name: "Mistral Large",
			api: "mistral-conversations",
			provider: "mistral",
			baseUrl: "https://api.mistral.ai",
		},
		overrides,
	);
}

/** A Magistral model: always reasons, takes `prompt_mode`. */
export function magistralModel(overrides: Partial<Model<"mistral-conversations">> = {}) {
	return mistralModel({
		id: "magistral-medium-latest",
		name: "Magistral Medium",
		reasoning: true,
		input: ["text"],
		thinkingLevelMap: { off: null },
		...overrides,
	});
}

export interface MistralChunkOptions {
	id?: string;
	finish?: string | null;
	usage?: Record<string, unknown>;
}

/** One `chat.completion.chunk` as Mistral sends it. */
export function mistralChunk(
	delta: Record<string, unknown>,
	options: MistralChunkOptions = {},
): Record<string, unknown> {
	return {
		id: options.id ?? "cmpl-e5cc70bb28c444948073e77776eb30ef",
		object: "chat.completion.chunk",
		created: 1_763_000_000,
		model: "mistral-large-latest",
		choices: [{ index: 0, delta, finish_reason: options.finish ?? null }],
		...(options.usage ? { usage: options.usage } : {}),
	};
}

/** Chunks as an SSE body: `data: <json>` events, then `data: [DONE]`. */
export function mistralSse(chunks: unknown[], done = true): string {
	let body = "";
	for (const item of chunks) body += `data: ${typeof item === "string" ? item : JSON.stringify(item)}\n\n`;
	if (done) body += "data: [DONE]\n\n";
	return body;
}

/** A text answer: Mistral puts the usage on the chunk that carries the finish reason. */
export function mistralTextStream(
	text: string,
	usage: Record<string, unknown> = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
): string {
	return mistralSse([
		mistralChunk({ role: "assistant", content: "" }),
		mistralChunk({ content: text }),
		mistralChunk({ content: "" }, { finish: "stop", usage }),
	]);
}

/** One tool call, whole in one delta as Mistral sends it. */
export function mistralToolCallStream(id: string, name: string, argumentPieces: string[]): string {
	const [first = "", ...rest] = argumentPieces;
	return mistralSse([
		mistralChunk({ role: "assistant", content: "" }),
		mistralChunk({ tool_calls: [{ id, type: "function", index: 0, function: { name, arguments: first } }] }),
		...rest.map((piece) => mistralChunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
		mistralChunk(
			{ content: "" },
			{ finish: "tool_calls", usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 } },
		),
	]);
}

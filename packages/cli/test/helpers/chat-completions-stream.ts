// Chat Completions streams as an OpenAI-compatible server (Ollama, vLLM, OpenAI) sends them, for
// the wire-test server: `chat.completion.chunk` events, a usage chunk, then `data: [DONE]`.
import type { ScriptedResponse } from "@keel/ai/testing";

export interface ChatCompletionsAnswer {
	/** Sent as `reasoning_content` deltas before the text. */
	reasoning?: string[];
	text: string[];
	promptTokens?: number;
	completionTokens?: number;
	finishReason?: "stop" | "length";
	/** Leave out the finish, the usage and [DONE]: an answer still being written. */
	unfinished?: boolean;
}

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
	const body = {
		id: "chatcmpl-test",
		object: "chat.completion.chunk",
		created: 1_700_000_000,
		model: "test-model",
		choices: [{ index: 0, delta, finish_reason: finishReason }],
	};
	return `data: ${JSON.stringify(body)}\n\n`;
}

/** The pieces of the SSE body, one write each. */
export function chatCompletionsPieces(answer: ChatCompletionsAnswer): string[] {
	const prompt = answer.promptTokens ?? 12;
	const completion = answer.completionTokens ?? 7;
	const usage = {
		id: "chatcmpl-test",
		object: "chat.completion.chunk",
		created: 1_700_000_000,
		model: "test-model",
		choices: [],
		usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
	};
	const content = [
		chunk({ role: "assistant", content: "" }),
		...(answer.reasoning ?? []).map((piece) => chunk({ reasoning_content: piece })),
		...answer.text.map((piece) => chunk({ content: piece })),
	];
	if (answer.unfinished) return content;
	return [
		...content,
		chunk({}, answer.finishReason ?? "stop"),
		`data: ${JSON.stringify(usage)}\n\n`,
		"data: [DONE]\n\n",
	];
}

export function chatCompletionsResponse(
	answer: ChatCompletionsAnswer,
	extra: Partial<ScriptedResponse> = {},
): ScriptedResponse {
	return { body: chatCompletionsPieces(answer), ...extra };
}

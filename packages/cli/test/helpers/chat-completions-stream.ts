// Chat Completions streams as an OpenAI-compatible server (Ollama, vLLM, OpenAI) sends them, for
// the wire-test server: `chat.completion.chunk` events, a usage chunk, then `data: [DONE]`.
import type { ScriptedResponse } from "@keel/ai/testing";

export interface ChatCompletionsAnswer {
	/** Sent as `reasoning_content` deltas before the text. */
	reasoning?: string[];
	text: string[];
	/** Tool calls after the text; the answer then finishes with "tool_calls". */
	toolCalls?: { id: string; name: string; arguments: string }[];
	promptTokens?: number;
	completionTokens?: number;
	finishReason?: "stop" | "length" | "tool_calls";
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
		...(answer.toolCalls ?? []).map((call, index) =>
			chunk({
				tool_calls: [
					{ index, id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } },
				],
			}),
		),
	];
	if (answer.unfinished) return content;
	return [
		...content,
		chunk({}, answer.finishReason ?? (answer.toolCalls ? "tool_calls" : "stop")),
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

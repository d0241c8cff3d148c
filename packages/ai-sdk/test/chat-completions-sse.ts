// Chat Completions streaming bodies for the wire-test server, as the API sends them.
// @see https://platform.openai.com/docs/api-reference/chat-streaming
import { formatSse, type ScriptedResponse } from "@keel/ai/testing";

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): Record<string, unknown> {
	return {
		id: "chatcmpl-test",
		object: "chat.completion.chunk",
		created: 1_700_000_000,
		model: "wire-model",
		choices: [{ index: 0, delta, finish_reason: finishReason }],
	};
}

const usage = (prompt: number, completion: number) => ({
	id: "chatcmpl-test",
	object: "chat.completion.chunk",
	created: 1_700_000_000,
	model: "wire-model",
	choices: [],
	usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
});

/** An answer that streams `pieces` of text. */
export function textAnswer(pieces: string[], tokens = { prompt: 10, completion: 5 }): ScriptedResponse {
	return {
		body: formatSse([
			{ data: chunk({ role: "assistant", content: "" }) },
			...pieces.map((content) => ({ data: chunk({ content }) })),
			{ data: chunk({}, "stop") },
			{ data: usage(tokens.prompt, tokens.completion) },
			{ data: "[DONE]" },
		]),
	};
}

/** An answer that calls one tool, its arguments streamed in two pieces. */
export function toolCallAnswer(id: string, name: string, args: Record<string, unknown>): ScriptedResponse {
	const json = JSON.stringify(args);
	const half = Math.floor(json.length / 2);
	return {
		body: formatSse([
			{
				data: chunk({
					role: "assistant",
					tool_calls: [{ index: 0, id, type: "function", function: { name, arguments: json.slice(0, half) } }],
				}),
			},
			{ data: chunk({ tool_calls: [{ index: 0, function: { arguments: json.slice(half) } }] }) },
			{ data: chunk({}, "tool_calls") },
			{ data: usage(20, 8) },
			{ data: "[DONE]" },
		]),
	};
}

// The smallest successful streamed answer ("Hello") of each implemented wire API, for the cold-start
// bench's first call: the figure is about loading code, so the body is one text delta.
import type { Api } from "../../packages/ai/src/types.js";
import {
	type BedrockFrame,
	textFrames,
} from "../../packages/ai/test/providers/bedrock-converse-stream/bedrock-test-server.js";

/** The APIs whose first call the cold-start bench times, with one short text answer each. */
export const FIRST_CALL_APIS = [
	"anthropic-messages",
	"openai-completions",
	"openai-responses",
	"azure-openai-responses",
	"mistral-conversations",
	"google-generative-ai",
	"google-vertex",
] as const satisfies readonly Api[];

export type FirstCallApi = (typeof FIRST_CALL_APIS)[number];

/**
 * Bedrock's first call goes to its own server: ConverseStream answers in binary event-stream frames
 * (application/vnd.amazon.eventstream), which the SSE wire-test server does not send.
 */
export const BEDROCK_HELLO_FRAMES: readonly BedrockFrame[] = textFrames("Hello");

function namedEvent(data: { type: string } & Record<string, unknown>): string {
	return `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

function anthropicHello(): string {
	const usage = { input_tokens: 3, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
	return [
		namedEvent({
			type: "message_start",
			message: { id: "msg_cold", type: "message", role: "assistant", model: "cold-model", content: [], usage },
		}),
		namedEvent({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
		namedEvent({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello" } }),
		namedEvent({ type: "content_block_stop", index: 0 }),
		namedEvent({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage }),
		namedEvent({ type: "message_stop" }),
	].join("");
}

function chatCompletionsHello(): string {
	const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
		`data: ${JSON.stringify({
			id: "chatcmpl-cold",
			object: "chat.completion.chunk",
			created: 1,
			model: "cold-model",
			choices: [{ index: 0, delta, finish_reason: finishReason }],
		})}\n\n`;
	return [chunk({ role: "assistant", content: "Hello" }, null), chunk({}, "stop"), "data: [DONE]\n\n"].join("");
}

function responsesHello(): string {
	let sequence = 0;
	const event = (data: { type: string } & Record<string, unknown>) =>
		namedEvent({ ...data, sequence_number: sequence++ });
	const response = (status: string, usage: unknown) => ({
		id: "resp_cold",
		object: "response",
		created_at: 0,
		model: "cold-model",
		status,
		output: [],
		usage,
	});
	const item = { type: "message", id: "msg_cold", role: "assistant", status: "in_progress", content: [] };
	const usage = {
		input_tokens: 3,
		input_tokens_details: { cached_tokens: 0 },
		output_tokens: 1,
		output_tokens_details: { reasoning_tokens: 0 },
		total_tokens: 4,
	};
	return [
		event({ type: "response.created", response: response("in_progress", null) }),
		event({ type: "response.output_item.added", output_index: 0, item }),
		event({
			type: "response.output_text.delta",
			output_index: 0,
			item_id: "msg_cold",
			content_index: 0,
			delta: "Hello",
			logprobs: [],
		}),
		event({
			type: "response.output_item.done",
			output_index: 0,
			item: { ...item, status: "completed", content: [{ type: "output_text", text: "Hello", annotations: [] }] },
		}),
		event({ type: "response.completed", response: response("completed", usage) }),
	].join("");
}

function geminiHello(): string {
	const data = {
		candidates: [{ content: { role: "model", parts: [{ text: "Hello" }] }, finishReason: "STOP", index: 0 }],
		usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 },
		modelVersion: "cold-model",
		responseId: "cold",
	};
	return `data: ${JSON.stringify(data)}\r\n\r\n`;
}

/** The SSE body that answers "Hello" in `api`'s wire format. */
export function helloBody(api: FirstCallApi): string {
	if (api === "anthropic-messages") return anthropicHello();
	if (api === "google-generative-ai" || api === "google-vertex") return geminiHello();
	// Mistral streams chat.completion.chunk objects of the same shape.
	if (api === "openai-completions" || api === "mistral-conversations") return chatCompletionsHello();
	return responsesHello();
}

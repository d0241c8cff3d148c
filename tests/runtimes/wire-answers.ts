// The answer each API's server streams for the prompt of stream-cases.ts, in that API's wire
// format: three text deltas (one splits "Zürich" after a multi-byte character), then a
// get_weather tool call whose arguments arrive in two pieces, 12 input and 7 output tokens.
// expect-streamed-answer.ts holds what every runtime must make of it.
import { formatSse, type ScriptedResponse, splitBytes } from "@keel/ai/testing";
import { concatenate, encodeEventFrame } from "./event-stream-encoding.js";
import type { RuntimeApi } from "./stream-cases.js";

export const TEXT_PIECES = ["Let me check", " the weather in Zü", "rich 🌤."];
export const ARGUMENT_PIECES = ['{"city":', '"Zürich"}'];
export const TOOL_CALL_ID = "call_weather_1";
export const INPUT_TOKENS = 12;
export const OUTPUT_TOKENS = 7;

/** The request path each API posts to, below the server's root. */
export const REQUEST_PATHS: Record<RuntimeApi, string> = {
	"anthropic-messages": "/v1/messages",
	"openai-completions": "/v1/chat/completions",
	"openai-responses": "/v1/responses",
	"azure-openai-responses": "/openai/v1/responses?api-version=v1",
	"mistral-conversations": "/v1/chat/completions",
	"google-generative-ai": "/v1beta/models/gemini-runtime-test:streamGenerateContent?alt=sse",
	"google-vertex": "/v1/publishers/google/models/gemini-runtime-test:streamGenerateContent?alt=sse",
	"openai-codex-responses": "/backend-api/codex/responses",
	"bedrock-converse-stream": `/model/${encodeURIComponent("anthropic.claude-runtime-test-v1:0")}/converse-stream`,
};

/** The scripted response for the API, cut into small byte pieces so the body arrives in many reads. */
export function wireAnswer(api: RuntimeApi): ScriptedResponse {
	if (api === "bedrock-converse-stream") {
		const body = bedrockAnswer();
		const pieces: Uint8Array[] = [];
		for (let offset = 0; offset < body.length; offset += 64) pieces.push(body.subarray(offset, offset + 64));
		return { headers: { "content-type": "application/vnd.amazon.eventstream" }, body: pieces };
	}
	return { body: splitBytes(sseBody(api), 256) };
}

/**
 * Bedrock's ConverseStream answer: binary event-stream frames, one JSON event each.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamOutput.html
 */
function bedrockAnswer(): Uint8Array {
	return concatenate([
		encodeEventFrame("messageStart", { role: "assistant" }),
		...TEXT_PIECES.map((text) => encodeEventFrame("contentBlockDelta", { contentBlockIndex: 0, delta: { text } })),
		encodeEventFrame("contentBlockStop", { contentBlockIndex: 0 }),
		encodeEventFrame("contentBlockStart", {
			contentBlockIndex: 1,
			start: { toolUse: { toolUseId: TOOL_CALL_ID, name: "get_weather" } },
		}),
		...ARGUMENT_PIECES.map((input) =>
			encodeEventFrame("contentBlockDelta", { contentBlockIndex: 1, delta: { toolUse: { input } } }),
		),
		encodeEventFrame("contentBlockStop", { contentBlockIndex: 1 }),
		encodeEventFrame("messageStop", { stopReason: "tool_use" }),
		encodeEventFrame("metadata", {
			usage: { inputTokens: INPUT_TOKENS, outputTokens: OUTPUT_TOKENS, totalTokens: INPUT_TOKENS + OUTPUT_TOKENS },
			metrics: { latencyMs: 5 },
		}),
	]);
}

function sseBody(api: Exclude<RuntimeApi, "bedrock-converse-stream">): string {
	switch (api) {
		case "anthropic-messages":
			return anthropicAnswer();
		case "openai-completions":
		// Mistral streams chat.completion.chunk objects of the same shape.
		case "mistral-conversations":
			return chatCompletionsAnswer();
		case "openai-responses":
		case "azure-openai-responses":
		// Codex streams the Responses events.
		case "openai-codex-responses":
			return responsesAnswer();
		case "google-generative-ai":
		case "google-vertex":
			return geminiAnswer();
	}
}

/** @see https://docs.anthropic.com/en/docs/build-with-claude/streaming */
function anthropicAnswer(): string {
	const events: Record<string, unknown>[] = [
		{
			type: "message_start",
			message: {
				id: "msg_runtime",
				type: "message",
				role: "assistant",
				model: "claude-runtime-test",
				content: [],
				stop_reason: null,
				stop_sequence: null,
				usage: { input_tokens: INPUT_TOKENS, output_tokens: 1 },
			},
		},
		{ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
		...TEXT_PIECES.map((text) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })),
		{ type: "content_block_stop", index: 0 },
		{
			type: "content_block_start",
			index: 1,
			content_block: { type: "tool_use", id: TOOL_CALL_ID, name: "get_weather", input: {} },
		},
		...ARGUMENT_PIECES.map((partial_json) => ({
			type: "content_block_delta",
			index: 1,
			delta: { type: "input_json_delta", partial_json },
		})),
		{ type: "content_block_stop", index: 1 },
		{
			type: "message_delta",
			delta: { stop_reason: "tool_use", stop_sequence: null },
			usage: { output_tokens: OUTPUT_TOKENS },
		},
		{ type: "message_stop" },
	];
	return formatSse(events.map((data) => ({ event: data.type as string, data })));
}

/** @see https://platform.openai.com/docs/api-reference/chat-streaming */
function chatCompletionsAnswer(): string {
	const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
		id: "chatcmpl-runtime",
		object: "chat.completion.chunk",
		created: 1_763_000_000,
		model: "gpt-runtime-test",
		choices: [{ index: 0, delta, finish_reason: finishReason }],
	});
	const toolCall = (fields: Record<string, unknown>) => ({ tool_calls: [{ index: 0, ...fields }] });
	const chunks = [
		chunk({ role: "assistant", content: "" }),
		...TEXT_PIECES.map((content) => chunk({ content })),
		chunk(toolCall({ id: TOOL_CALL_ID, type: "function", function: { name: "get_weather", arguments: "" } })),
		...ARGUMENT_PIECES.map((piece) => chunk(toolCall({ function: { arguments: piece } }))),
		chunk({}, "tool_calls"),
		{
			...chunk({}),
			choices: [],
			usage: {
				prompt_tokens: INPUT_TOKENS,
				completion_tokens: OUTPUT_TOKENS,
				total_tokens: INPUT_TOKENS + OUTPUT_TOKENS,
			},
		},
	];
	return formatSse([...chunks.map((data) => ({ data })), { data: "[DONE]" }]);
}

/**
 * The Responses API's events; Azure OpenAI streams the same ones.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
function responsesAnswer(): string {
	const text = TEXT_PIECES.join("");
	const argumentsText = ARGUMENT_PIECES.join("");
	const part = { type: "output_text", text, annotations: [] };
	const message = { type: "message", id: "msg_runtime", role: "assistant" };
	const functionCall = { type: "function_call", id: "fc_runtime", call_id: TOOL_CALL_ID, name: "get_weather" };
	const response = (status: string, usage: Record<string, unknown> | null) => ({
		id: "resp_runtime",
		object: "response",
		created_at: 1_763_000_000,
		model: "gpt-runtime-test",
		status,
		output: [],
		error: null,
		incomplete_details: null,
		usage,
	});
	const textEvent = { output_index: 0, item_id: "msg_runtime", content_index: 0 };
	const events: Record<string, unknown>[] = [
		{ type: "response.created", response: response("in_progress", null) },
		{
			type: "response.output_item.added",
			output_index: 0,
			item: { ...message, status: "in_progress", content: [] },
		},
		{ type: "response.content_part.added", ...textEvent, part: { ...part, text: "" } },
		...TEXT_PIECES.map((delta) => ({ type: "response.output_text.delta", ...textEvent, delta, logprobs: [] })),
		{ type: "response.output_text.done", ...textEvent, text, logprobs: [] },
		{ type: "response.content_part.done", ...textEvent, part },
		{ type: "response.output_item.done", output_index: 0, item: { ...message, status: "completed", content: [part] } },
		{
			type: "response.output_item.added",
			output_index: 1,
			item: { ...functionCall, arguments: "", status: "in_progress" },
		},
		...ARGUMENT_PIECES.map((delta) => ({
			type: "response.function_call_arguments.delta",
			output_index: 1,
			item_id: "fc_runtime",
			delta,
		})),
		{
			type: "response.function_call_arguments.done",
			output_index: 1,
			item_id: "fc_runtime",
			name: "get_weather",
			arguments: argumentsText,
		},
		{
			type: "response.output_item.done",
			output_index: 1,
			item: { ...functionCall, arguments: argumentsText, status: "completed" },
		},
		{
			type: "response.completed",
			response: response("completed", {
				input_tokens: INPUT_TOKENS,
				input_tokens_details: { cached_tokens: 0 },
				output_tokens: OUTPUT_TOKENS,
				output_tokens_details: { reasoning_tokens: 0 },
				total_tokens: INPUT_TOKENS + OUTPUT_TOKENS,
			}),
		},
	];
	return formatSse(
		events.map((data, sequence_number) => ({ event: data.type as string, data: { ...data, sequence_number } })),
	);
}

/**
 * Gemini's streamed chunks (Vertex AI streams the same ones), separated by CRLF as Google sends
 * them. A function call arrives whole, its arguments as one object.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
function geminiAnswer(): string {
	const chunk = (parts: Record<string, unknown>[], extra: Record<string, unknown> = {}) => ({
		candidates: [{ content: { role: "model", parts }, index: 0, ...extra }],
		modelVersion: "gemini-runtime-test",
		responseId: "resp_runtime",
	});
	const chunks = [
		...TEXT_PIECES.map((text) => chunk([{ text }])),
		chunk([{ functionCall: { name: "get_weather", args: JSON.parse(ARGUMENT_PIECES.join("")) } }], {
			finishReason: "STOP",
		}),
	];
	const last = chunks[chunks.length - 1] as Record<string, unknown>;
	last.usageMetadata = {
		promptTokenCount: INPUT_TOKENS,
		candidatesTokenCount: OUTPUT_TOKENS,
		totalTokenCount: INPUT_TOKENS + OUTPUT_TOKENS,
	};
	return chunks.map((data) => `data: ${JSON.stringify(data)}\r\n\r\n`).join("");
}

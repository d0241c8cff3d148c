// Keel's events and messages as OpenAI Chat Completions responses: streamed chunks
// (`chat.completion.chunk`, ending with `data: [DONE]`), a whole `chat.completion`, the model list,
// and errors in OpenAI's `{ "error": { message, type, code } }` shape, which OpenAI's SDKs turn into
// their error classes.
// @see https://platform.openai.com/docs/api-reference/chat/streaming
// @see https://platform.openai.com/docs/api-reference/chat/object
import type { Api, AssistantMessage, AssistantMessageEvent, Model, StopReason, Usage } from "@keel/ai";
import { modelName } from "./chat-completion-request.js";

/** OpenAI's usage object: the prompt counts every input token, cached ones included. */
export function toOpenAIUsage(usage: Usage) {
	const promptTokens = usage.input + usage.cacheRead + usage.cacheWrite;
	return {
		prompt_tokens: promptTokens,
		completion_tokens: usage.output,
		total_tokens: usage.totalTokens || promptTokens + usage.output,
		prompt_tokens_details: { cached_tokens: usage.cacheRead },
	};
}

export function toFinishReason(reason: StopReason): "stop" | "length" | "tool_calls" {
	if (reason === "length") return "length";
	if (reason === "toolUse") return "tool_calls";
	return "stop";
}

/** The error type OpenAI uses for an HTTP status. */
function errorType(status: number): string {
	if (status === 401) return "authentication_error";
	if (status === 403) return "permission_error";
	if (status === 404) return "not_found_error";
	if (status === 429 || status === 503) return "rate_limit_error";
	if (status >= 400 && status < 500) return "invalid_request_error";
	return "server_error";
}

export function openAIErrorBody(status: number, message: string): string {
	return JSON.stringify({ error: { message, type: errorType(status), param: null, code: null } });
}

function responseId(): string {
	return `chatcmpl-${crypto.randomUUID().replaceAll("-", "")}`;
}

/**
 * Turns the upstream's events into SSE chunks. Text deltas become `content`, thinking deltas
 * `reasoning_content` (the field OpenAI-compatible servers use for reasoning), tool calls
 * `tool_calls` entries indexed in call order; `done` the finish reason (and the usage chunk when
 * asked for), `error` an `{ "error": … }` event, which OpenAI's SDKs raise as an APIError.
 */
export function createChatChunkEncoder(model: string, includeUsage: boolean): (event: AssistantMessageEvent) => string {
	const id = responseId();
	const created = Math.floor(Date.now() / 1000);
	const toolIndexes = new Map<number, number>();
	const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
		`data: ${JSON.stringify({
			id,
			object: "chat.completion.chunk",
			created,
			model,
			choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
		})}\n\n`;
	return (event) => {
		switch (event.type) {
			case "start":
				return chunk({ role: "assistant", content: "" });
			case "text_delta":
				return chunk({ content: event.delta });
			case "thinking_delta":
				return chunk({ reasoning_content: event.delta });
			case "toolcall_start": {
				const block = event.partial.content[event.contentIndex];
				const index = toolIndexes.size;
				toolIndexes.set(event.contentIndex, index);
				const call = block?.type === "toolCall" ? block : undefined;
				return chunk({
					tool_calls: [
						{ index, id: call?.id ?? "", type: "function", function: { name: call?.name ?? "", arguments: "" } },
					],
				});
			}
			case "toolcall_delta":
				return chunk({
					tool_calls: [{ index: toolIndexes.get(event.contentIndex) ?? 0, function: { arguments: event.delta } }],
				});
			case "done": {
				let text = chunk({}, toFinishReason(event.reason));
				if (includeUsage) {
					text += `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage: toOpenAIUsage(event.message.usage) })}\n\n`;
				}
				return `${text}data: [DONE]\n\n`;
			}
			case "error":
				return `data: ${JSON.stringify({
					error: {
						message: event.error.errorMessage ?? "The upstream call failed",
						type: event.reason === "aborted" ? "aborted" : "server_error",
						param: null,
						code: null,
					},
				})}\n\n`;
			default:
				// Starts and ends of blocks carry nothing a chunk has a field for.
				return "";
		}
	};
}

/** A whole `chat.completion` for a non-streaming request. */
export function toChatCompletion(message: AssistantMessage, model: string) {
	const text = message.content
		.filter((block) => block.type === "text")
		.map((block) => block.text)
		.join("");
	const thinking = message.content
		.filter((block) => block.type === "thinking")
		.map((block) => block.thinking)
		.join("");
	const toolCalls = message.content
		.filter((block) => block.type === "toolCall")
		.map((block) => ({
			id: block.id,
			type: "function",
			function: { name: block.name, arguments: JSON.stringify(block.arguments) },
		}));
	const reply: Record<string, unknown> = {
		role: "assistant",
		content: text === "" && toolCalls.length > 0 ? null : text,
	};
	if (thinking !== "") reply.reasoning_content = thinking;
	if (toolCalls.length > 0) reply.tool_calls = toolCalls;
	return {
		id: responseId(),
		object: "chat.completion",
		created: Math.floor(message.timestamp / 1000),
		model,
		choices: [{ index: 0, message: reply, finish_reason: toFinishReason(message.stopReason), logprobs: null }],
		usage: toOpenAIUsage(message.usage),
	};
}

/** `GET /v1/models`: the models a list-configured proxy serves, named `<provider>/<id>`. */
export function toModelList(models: readonly Model<Api>[]) {
	return {
		object: "list",
		data: models.map((model) => ({ id: modelName(model), object: "model", created: 0, owned_by: model.provider })),
	};
}

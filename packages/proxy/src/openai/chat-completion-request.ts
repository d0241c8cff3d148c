// An OpenAI Chat Completions request (`POST /v1/chat/completions`) turned into the proxy's own request
// (model reference, Keel context, forwardable options), which then goes through the same validation,
// allow-list and limits as `/api/stream`. Only the shape is translated here; every value is checked
// afterwards by validateProxyRequest, so this module names the OpenAI field when the shape is wrong.
// @see https://platform.openai.com/docs/api-reference/chat/create
import { ProxyRequestError } from "../request-validation.js";

/** What the rest of the pipeline needs from a chat completion request. */
export interface DecodedChatCompletionRequest {
	/** The body in the proxy's own format, not yet validated. */
	proxyRequest: { model: { provider: string; id: string }; context: unknown; options: Record<string, unknown> };
	/** The model name as the client sent it (`<provider>/<id>`), echoed in every response. */
	modelName: string;
	stream: boolean;
	/** `stream_options.include_usage`: a final chunk with the usage and no choices. */
	includeUsage: boolean;
	/**
	 * For each Keel message, the index of the OpenAI message it came from (system messages become
	 * the system prompt, so the two counts differ): errors found later name the client's message.
	 */
	sourceIndexes: number[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(field: string, problem: string): never {
	throw new ProxyRequestError(400, `Invalid chat completion request: "${field}" ${problem}`);
}

/** `<provider>/<id>`: the id may itself hold slashes (`openrouter/anthropic/claude-sonnet-4`). */
export function parseModelName(name: string): { provider: string; id: string } | undefined {
	const slash = name.indexOf("/");
	if (slash <= 0 || slash === name.length - 1) return undefined;
	return { provider: name.slice(0, slash), id: name.slice(slash + 1) };
}

/** The name a Keel model has on the OpenAI-compatible endpoint. */
export function modelName(model: { provider: string; id: string }): string {
	return `${model.provider}/${model.id}`;
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function decodeContentParts(content: unknown, field: string, allowImages: boolean): unknown[] {
	if (!Array.isArray(content)) invalid(field, "must be a string or an array of content parts");
	return content.map((part, index) => {
		const partField = `${field}[${index}]`;
		if (!isRecord(part)) invalid(partField, "must be an object");
		if (part.type === "text") return { type: "text", text: part.text };
		if (part.type === "image_url" && allowImages) {
			const url = isRecord(part.image_url) ? part.image_url.url : undefined;
			const match = typeof url === "string" ? DATA_URL.exec(url) : null;
			// The proxy never fetches a URL on a client's behalf: only inline images travel.
			if (!match) invalid(`${partField}.image_url.url`, "must be a data: URL with base64 data");
			return { type: "image", mimeType: match[1], data: match[2] };
		}
		return invalid(`${partField}.type`, `must be ${allowImages ? '"text" or "image_url"' : '"text"'}`);
	});
}

function textOf(content: unknown, field: string): string {
	if (typeof content === "string") return content;
	return decodeContentParts(content, field, false)
		.map((part) => (part as { text: unknown }).text)
		.join("");
}

function decodeToolCalls(toolCalls: unknown, field: string): unknown[] {
	if (!Array.isArray(toolCalls)) invalid(field, "must be an array");
	return toolCalls.map((call, index) => {
		const callField = `${field}[${index}]`;
		if (!isRecord(call) || !isRecord(call.function))
			invalid(callField, 'must be {"id", "type": "function", "function"}');
		const text = call.function.arguments;
		let parsed: unknown = {};
		if (typeof text === "string" && text.trim() !== "") {
			try {
				parsed = JSON.parse(text);
			} catch {
				invalid(`${callField}.function.arguments`, "must be a JSON object in a string");
			}
		}
		return { type: "toolCall", id: call.id, name: call.function.name, arguments: parsed };
	});
}

/**
 * The messages as Keel messages: system and developer messages become the system prompt, an
 * assistant's tool_calls tool-call blocks, and a tool message a toolResult named after the call it
 * answers. Assistant turns are labelled as coming from an OpenAI-compatible client: they carry no
 * provider signatures, so any provider can take them.
 */
function decodeMessages(
	messages: unknown,
	model: string,
	sourceIndexes: number[],
): { systemPrompt?: string; messages: unknown[] } {
	if (!Array.isArray(messages)) invalid("messages", "must be an array");
	const system: string[] = [];
	const decoded: unknown[] = [];
	const toolNames = new Map<string, unknown>();
	const timestamp = Date.now();
	messages.forEach((message, index) => {
		const field = `messages[${index}]`;
		if (!isRecord(message)) invalid(field, "must be an object");
		if (message.role !== "system" && message.role !== "developer") sourceIndexes.push(index);
		switch (message.role) {
			case "system":
			case "developer":
				system.push(textOf(message.content, `${field}.content`));
				return;
			case "user":
				decoded.push({
					role: "user",
					content:
						typeof message.content === "string"
							? message.content
							: decodeContentParts(message.content, `${field}.content`, true),
					timestamp,
				});
				return;
			case "assistant": {
				const content: unknown[] = [];
				if (message.content !== undefined && message.content !== null) {
					const text = textOf(message.content, `${field}.content`);
					if (text !== "") content.push({ type: "text", text });
				}
				if (message.tool_calls !== undefined && message.tool_calls !== null) {
					for (const call of decodeToolCalls(message.tool_calls, `${field}.tool_calls`)) {
						const toolCall = call as { id: unknown; name: unknown };
						if (typeof toolCall.id === "string") toolNames.set(toolCall.id, toolCall.name);
						content.push(call);
					}
				}
				decoded.push({
					role: "assistant",
					content,
					api: "openai-completions",
					provider: "openai-compatible-client",
					model,
					usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: zeroCost() },
					stopReason: content.some((block) => (block as { type: string }).type === "toolCall") ? "toolUse" : "stop",
					timestamp,
				});
				return;
			}
			case "tool": {
				const id = message.tool_call_id;
				if (typeof id !== "string") invalid(`${field}.tool_call_id`, "must be a string");
				if (!toolNames.has(id)) invalid(`${field}.tool_call_id`, `"${id.slice(0, 64)}" answers no earlier tool call`);
				decoded.push({
					role: "toolResult",
					toolCallId: id,
					toolName: toolNames.get(id),
					content: [{ type: "text", text: textOf(message.content, `${field}.content`) }],
					isError: false,
					timestamp,
				});
				return;
			}
			default:
				invalid(`${field}.role`, 'must be "system", "developer", "user", "assistant" or "tool"');
		}
	});
	return system.length > 0 ? { systemPrompt: system.join("\n\n"), messages: decoded } : { messages: decoded };
}

function zeroCost() {
	return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
}

function decodeTools(tools: unknown): unknown[] {
	if (!Array.isArray(tools)) invalid("tools", "must be an array");
	return tools.map((tool, index) => {
		if (!isRecord(tool) || tool.type !== "function" || !isRecord(tool.function)) {
			invalid(`tools[${index}]`, 'must be {"type": "function", "function": {name, description, parameters}}');
		}
		const { name, description, parameters, strict } = tool.function;
		const decoded: Record<string, unknown> = {
			name,
			description: description ?? "",
			parameters: parameters ?? { type: "object", properties: {} },
		};
		if (strict !== undefined && strict !== null) decoded.strict = strict;
		return decoded;
	});
}

const REASONING_EFFORTS: Record<string, string> = { minimal: "minimal", low: "low", medium: "medium", high: "high" };

/** The request's sampling and limit options, in the proxy's option names. */
function decodeOptions(body: Record<string, unknown>): Record<string, unknown> {
	const options: Record<string, unknown> = {};
	if (body.temperature !== undefined && body.temperature !== null) options.temperature = body.temperature;
	const maxTokens = body.max_completion_tokens ?? body.max_tokens;
	if (maxTokens !== undefined && maxTokens !== null) options.maxTokens = maxTokens;
	if (body.reasoning_effort !== undefined && body.reasoning_effort !== null) {
		const effort = REASONING_EFFORTS[String(body.reasoning_effort)];
		if (!effort) invalid("reasoning_effort", 'must be "minimal", "low", "medium" or "high"');
		options.reasoning = effort;
	}
	return options;
}

export function decodeChatCompletionRequest(body: unknown): DecodedChatCompletionRequest {
	if (!isRecord(body)) invalid("body", "must be a JSON object");
	if (typeof body.model !== "string") invalid("model", 'must be a string "<provider>/<model id>"');
	const reference = parseModelName(body.model);
	if (!reference)
		invalid("model", `must be "<provider>/<model id>" (see GET /v1/models), got "${body.model.slice(0, 100)}"`);
	if (body.n !== undefined && body.n !== null && body.n !== 1) invalid("n", "must be 1: the proxy returns one choice");
	const sourceIndexes: number[] = [];
	const context: Record<string, unknown> = decodeMessages(body.messages, body.model, sourceIndexes);
	if (body.tools !== undefined && body.tools !== null) context.tools = decodeTools(body.tools);
	const streamOptions = isRecord(body.stream_options) ? body.stream_options : {};
	return {
		proxyRequest: { model: reference, context, options: decodeOptions(body) },
		modelName: body.model,
		stream: body.stream === true,
		includeUsage: streamOptions.include_usage === true,
		sourceIndexes,
	};
}

/**
 * A refusal from the shared validation, which names fields in the proxy's own format, with the
 * client's message named first: `messages[3] (context.messages[2] once translated): …`.
 */
export function nameChatMessage(error: ProxyRequestError, sourceIndexes: readonly number[]): ProxyRequestError {
	const match = /"context\.messages\[(\d+)\]/.exec(error.message);
	const source = match ? sourceIndexes[Number(match[1])] : undefined;
	const detail = error.message.replace(/^Invalid proxy request: /, "");
	const prefix = source === undefined ? "" : `messages[${source}] (context.messages[${match![1]}] once translated): `;
	return new ProxyRequestError(error.status, `Invalid chat completion request: ${prefix}${detail}`);
}

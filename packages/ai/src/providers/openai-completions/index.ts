// @keel/ai/openai-completions: OpenAI Chat Completions and every vendor that speaks it (Groq,
// Cerebras, xAI, OpenRouter, z.ai, DeepSeek, Mistral-compatible gateways, Ollama, vLLM, LM Studio…).
import { findEnvKeys } from "../../env-api-keys.js";
import type { Context, Model, SimpleStreamOptions } from "../../types.js";
import type { AssistantMessageEventStream } from "../../utils/event-stream.js";
import { createProviderStream, NonRetryableError } from "../shared/provider-stream.js";
import { buildBaseOptions } from "../shared/simple-options.js";
import { resolveBaseUrl } from "./base-url.js";
import { resolveOpenAICompletionsCompat } from "./compat.js";
import { encodeOpenAICompletionsRequest } from "./encode.js";
import { classifyOpenAICompletionsError } from "./errors.js";
import type { OpenAICompletionsOptions } from "./options.js";
import { runOpenAICompletionsAttempt } from "./transport.js";
import type { ChatCompletionsRequest } from "./wire-types.js";

export { isSelfHostedOpenAICompatible, resolveOpenAICompletionsCompat } from "./compat.js";
export {
	mapOpenAICompletionsStopReason,
	mapOpenAICompletionsUsage,
	OpenAICompletionsStreamDecoder,
} from "./decode.js";
export { buildOpenAICompletionsHeaders, encodeOpenAICompletionsRequest } from "./encode.js";
export type { OpenAICompletionsOptions } from "./options.js";

/**
 * Streams one Chat Completions response (`stream: true`). Never throws: every failure is one
 * `error` event. Providers Keel knows no key variable for (local servers) need no key.
 */
export function streamOpenAICompletions(
	model: Model<"openai-completions">,
	context: Context,
	options?: OpenAICompletionsOptions,
): AssistantMessageEventStream {
	const resolvedOptions = options ?? {};
	let body: ChatCompletionsRequest | undefined;
	const compat = safely(() => resolveOpenAICompletionsCompat(model));
	return createProviderStream(
		model,
		resolvedOptions,
		async (attempt) => {
			if (compat instanceof Error) throw new NonRetryableError(compat.message);
			const baseUrl = resolveBaseUrl(model.baseUrl);
			if ("problem" in baseUrl) throw new NonRetryableError(baseUrl.problem);
			// Encoded once; retries send the same body.
			body ??= encodeChecked(model, context, resolvedOptions, compat);
			await runOpenAICompletionsAttempt(attempt, context, resolvedOptions, compat, body, baseUrl.url);
		},
		{
			requiresApiKey: findEnvKeys(model.provider).length > 0,
			classifyError: classifyOpenAICompletionsError,
		},
	);
}

/** The unified entry point: `reasoning` becomes the vendor's thinking switch; `toolChoice` passes through. */
export function streamSimpleOpenAICompletions(
	model: Model<"openai-completions">,
	context: Context,
	options?: SimpleStreamOptions & Pick<OpenAICompletionsOptions, "toolChoice">,
): AssistantMessageEventStream {
	return streamOpenAICompletions(model, context, {
		...buildBaseOptions(model, options),
		reasoningEffort: options?.reasoning,
		toolChoice: options?.toolChoice,
	});
}

function encodeChecked(
	model: Model<"openai-completions">,
	context: Context,
	options: OpenAICompletionsOptions,
	compat: ReturnType<typeof resolveOpenAICompletionsCompat>,
): ChatCompletionsRequest {
	const problem = findInputProblem(model, context);
	if (problem) throw new NonRetryableError(problem);
	try {
		return encodeOpenAICompletionsRequest(model, context, options, compat);
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		throw new NonRetryableError(`Could not build the Chat Completions request for "${model.id}": ${message}`);
	}
}

function findInputProblem(model: Model<"openai-completions">, context: Context): string | undefined {
	if (!model.id) return "The model has no id: set model.id to the vendor's model name";
	try {
		new URL(model.baseUrl);
	} catch {
		return `Model "${model.id}" has an invalid baseUrl ${JSON.stringify(model.baseUrl)}: expected an absolute URL such as http://127.0.0.1:11434/v1`;
	}
	if (!context || !Array.isArray(context.messages)) {
		return "context.messages must be an array of messages";
	}
	for (const [index, message] of context.messages.entries()) {
		const role = (message as { role?: unknown } | null)?.role;
		if (role !== "user" && role !== "assistant" && role !== "toolResult") {
			return `context.messages[${index}] has role ${JSON.stringify(role)}: expected "user", "assistant" or "toolResult"`;
		}
		const content = (message as { content?: unknown }).content;
		if (!Array.isArray(content) && !(role === "user" && typeof content === "string")) {
			return `context.messages[${index}] (${role}) has no content: expected ${role === "user" ? "a string or " : ""}an array of blocks`;
		}
	}
	return undefined;
}

function safely<T>(compute: () => T): T | Error {
	try {
		return compute();
	} catch (error) {
		return error instanceof Error ? error : new Error(String(error));
	}
}

// @keel/ai/openai-completions: OpenAI Chat Completions and every vendor that speaks it (Groq,
// Cerebras, xAI, OpenRouter, z.ai, DeepSeek, Mistral-compatible gateways, Ollama, vLLM, LM Studio…).
import { findEnvKeys } from "../../env-api-keys.js";
import type { Context, Model, SimpleStreamOptions } from "../../types.js";
import { formatThrownValue } from "../../utils/error-message.js";
import type { AssistantMessageEventStream } from "../../utils/event-stream.js";
import { NonRetryableError } from "../shared/provider-attempt.js";
import {
	type ProviderDefinition,
	streamSimpleWithDefinition,
	streamWithDefinition,
} from "../shared/provider-definition.js";
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

/** The unified options: `reasoning` becomes the vendor's thinking switch; `toolChoice` passes through. */
export function openAICompletionsOptionsFromSimple(
	model: Model<"openai-completions">,
	options: (SimpleStreamOptions & Pick<OpenAICompletionsOptions, "toolChoice">) | undefined,
): OpenAICompletionsOptions {
	return { ...buildBaseOptions(model, options), reasoningEffort: options?.reasoning, toolChoice: options?.toolChoice };
}

export const openAICompletionsProvider: ProviderDefinition<"openai-completions", OpenAICompletionsOptions> = {
	api: "openai-completions",
	simpleOptions: openAICompletionsOptionsFromSimple,
	// Providers Keel knows no key variable for (local servers) need no key.
	requiresApiKey: (model) => findEnvKeys(model.provider).length > 0,
	classifyError: classifyOpenAICompletionsError,
	runAttempt: async (attempt, context, options) => {
		const { model } = attempt;
		const compat = safely(() => resolveOpenAICompletionsCompat(model));
		if (compat instanceof Error) throw new NonRetryableError(compat.message);
		const baseUrl = resolveBaseUrl(model.baseUrl);
		if ("problem" in baseUrl) throw new NonRetryableError(baseUrl.problem);
		const body = encodeChecked(model, context, options, compat);
		await runOpenAICompletionsAttempt(attempt, context, options, compat, body, baseUrl.url);
	},
};

/**
 * Streams one Chat Completions response (`stream: true`). Never throws: every failure is one
 * `error` event.
 */
export function streamOpenAICompletions(
	model: Model<"openai-completions">,
	context: Context,
	options?: OpenAICompletionsOptions,
): AssistantMessageEventStream {
	return streamWithDefinition(openAICompletionsProvider, model, context, options);
}

/** The unified entry point: `reasoning` becomes the vendor's thinking switch; `toolChoice` passes through. */
export function streamSimpleOpenAICompletions(
	model: Model<"openai-completions">,
	context: Context,
	options?: SimpleStreamOptions & Pick<OpenAICompletionsOptions, "toolChoice">,
): AssistantMessageEventStream {
	return streamSimpleWithDefinition(openAICompletionsProvider, model, context, options);
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
		throw new NonRetryableError(
			`Could not build the Chat Completions request for "${model.id}": ${formatThrownValue(error)}`,
		);
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
		return error instanceof Error ? error : new Error(formatThrownValue(error));
	}
}

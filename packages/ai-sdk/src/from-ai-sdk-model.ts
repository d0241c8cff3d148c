import {
	APICallError,
	type LanguageModelV3,
	type LanguageModelV3CallOptions,
	type LanguageModelV3FinishReason,
	type LanguageModelV3StreamPart,
	type SharedV3ProviderOptions,
} from "@ai-sdk/provider";
import {
	type Api,
	type AssistantMessageBuilder,
	type AssistantMessageEventStream,
	type Context,
	classifyError,
	createProviderStream,
	type ErrorClassification,
	type Model,
	type ModelCost,
	parseRetryAfter,
	type SimpleStreamOptions,
} from "@keel/ai";
import { toAiSdkPrompt } from "./to-ai-sdk-prompt.js";

export interface FromAiSdkModelOptions {
	/** `providerOptions` for every call (the AI SDK provider's own settings, by provider name). */
	providerOptions?: SharedV3ProviderOptions;
}

/**
 * An AI SDK language model (specification v3) as a Keel stream function, usable as an Agent's
 * `streamFn` or with `createFallbackStream`. It keeps Keel's contract: the stream starts at once,
 * never throws, and ends with exactly one `done` or `error`; failures before any content are
 * retried like any Keel provider's (an `APICallError` says whether it may be). Cost is computed
 * from the Keel `model`'s prices. The model's key lives in the AI SDK provider, not in Keel.
 */
export function fromAiSdkModel(
	languageModel: LanguageModelV3,
	settings: FromAiSdkModelOptions = {},
): (model: Model<Api>, context: Context, options?: SimpleStreamOptions) => AssistantMessageEventStream {
	return (model, context, options) =>
		createProviderStream(
			model,
			options,
			async (attempt) => {
				const { prompt, tools } = toAiSdkPrompt(context, model);
				const call: LanguageModelV3CallOptions = { prompt, abortSignal: attempt.signal };
				if (tools !== undefined) call.tools = tools;
				if (attempt.options.temperature !== undefined) call.temperature = attempt.options.temperature;
				if (attempt.options.maxTokens !== undefined) call.maxOutputTokens = attempt.options.maxTokens;
				if (attempt.options.headers !== undefined) call.headers = attempt.options.headers;
				if (settings.providerOptions !== undefined) call.providerOptions = settings.providerOptions;
				const result = await languageModel.doStream(call);
				await readParts(result.stream, attempt.builder, attempt.touch);
			},
			{ requiresApiKey: false, classifyError: classifyAiSdkError, endpointName: languageModel.provider, context },
		);
}

/** Feeds the AI SDK's stream parts to the builder; throws on an error part or a stream without a finish. */
async function readParts(
	stream: ReadableStream<LanguageModelV3StreamPart>,
	builder: AssistantMessageBuilder,
	touch: () => void,
): Promise<void> {
	const texts = new Map<string, number>();
	const thoughts = new Map<string, number>();
	const toolCalls = new Map<string, number>();
	const reader = stream.getReader();
	try {
		for (;;) {
			const { done, value: part } = await reader.read();
			if (done) throw new Error("The model's stream ended without a finish");
			touch();
			switch (part.type) {
				case "text-start":
					texts.set(part.id, builder.startText());
					break;
				case "text-delta": {
					const index = texts.get(part.id) ?? builder.startText();
					texts.set(part.id, index);
					builder.appendText(index, part.delta);
					break;
				}
				case "text-end": {
					const index = texts.get(part.id);
					if (index !== undefined) builder.endText(index);
					break;
				}
				case "reasoning-start":
					thoughts.set(part.id, builder.startThinking());
					break;
				case "reasoning-delta": {
					const index = thoughts.get(part.id) ?? builder.startThinking();
					thoughts.set(part.id, index);
					builder.appendThinking(index, part.delta);
					break;
				}
				case "reasoning-end": {
					const index = thoughts.get(part.id);
					if (index !== undefined) builder.endThinking(index);
					break;
				}
				case "tool-input-start":
					toolCalls.set(part.id, builder.startToolCall(part.id, part.toolName));
					break;
				case "tool-input-delta": {
					const index = toolCalls.get(part.id);
					if (index !== undefined) builder.appendToolCallArguments(index, part.delta);
					break;
				}
				case "tool-call": {
					if (part.providerExecuted) break; // the provider ran it; there is nothing for Keel to run
					let index = toolCalls.get(part.toolCallId);
					if (index === undefined) index = builder.startToolCall(part.toolCallId, part.toolName);
					// The complete input is authoritative; streamed deltas, if any, already spelled it out.
					if (!builder.hasToolCallArguments(index)) builder.appendToolCallArguments(index, part.input);
					builder.endToolCall(index, { id: part.toolCallId, name: part.toolName });
					break;
				}
				case "response-metadata":
					builder.setResponseIdentity({ responseId: part.id, responseModel: part.modelId });
					break;
				case "error":
					throw part.error;
				case "finish":
					finish(builder, part.finishReason, part.usage);
					return;
				default:
					// stream-start, raw, tool-input-end, sources, files, provider-executed results: nothing to keep.
					break;
			}
		}
	} finally {
		reader.releaseLock();
	}
}

function finish(
	builder: AssistantMessageBuilder,
	finishReason: LanguageModelV3FinishReason,
	usage: Extract<LanguageModelV3StreamPart, { type: "finish" }>["usage"],
): void {
	const cacheRead = usage.inputTokens.cacheRead ?? 0;
	const cacheWrite = usage.inputTokens.cacheWrite ?? 0;
	const input = usage.inputTokens.noCache ?? Math.max(0, (usage.inputTokens.total ?? 0) - cacheRead - cacheWrite);
	builder.updateUsage({ input, output: usage.outputTokens.total ?? 0, cacheRead, cacheWrite });
	const raw = finishReason.raw;
	switch (finishReason.unified) {
		case "stop":
			builder.finish("stop", raw);
			return;
		case "length":
			builder.finish("length", raw);
			return;
		case "tool-calls":
			builder.finish("toolUse", raw);
			return;
		case "content-filter":
			builder.fail("error", "The provider's content filter stopped the answer", raw);
			return;
		case "error":
			builder.fail("error", "The model ended its answer with an error", raw);
			return;
		default:
			builder.finish("stop", raw);
	}
}

/** An `APICallError` knows whether a retry may help; anything else is read as Keel reads errors. */
function classifyAiSdkError(error: unknown): ErrorClassification {
	if (APICallError.isInstance(error)) {
		const classification: ErrorClassification = { message: error.message, retryable: error.isRetryable };
		if (error.statusCode !== undefined) classification.status = error.statusCode;
		const retryAfterMs = error.responseHeaders === undefined ? undefined : parseRetryAfter(error.responseHeaders);
		if (retryAfterMs !== undefined) classification.retryAfterMs = retryAfterMs;
		return classification;
	}
	return classifyError(error);
}

/**
 * A Keel model description for an AI SDK language model, for the Agent's `model` and for cost:
 * api "ai-sdk", the AI SDK's provider and model id, zero prices unless given (USD per million tokens).
 */
export function aiSdkModelInfo(
	languageModel: LanguageModelV3,
	overrides: Partial<Omit<Model<"ai-sdk">, "api" | "cost">> & { cost?: Partial<ModelCost> } = {},
): Model<"ai-sdk"> {
	return {
		id: languageModel.modelId,
		name: languageModel.modelId,
		provider: languageModel.provider,
		baseUrl: "",
		reasoning: false,
		input: ["text", "image"],
		contextWindow: 128_000,
		maxTokens: 16_384,
		...overrides,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...overrides.cost },
		api: "ai-sdk",
	};
}

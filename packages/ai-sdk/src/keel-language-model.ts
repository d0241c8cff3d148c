import type {
	LanguageModelV3,
	LanguageModelV3CallOptions,
	LanguageModelV3Content,
	LanguageModelV3GenerateResult,
	LanguageModelV3StreamPart,
	LanguageModelV3StreamResult,
	SharedV3Warning,
} from "@ai-sdk/provider";
import {
	type AssistantMessage,
	type AssistantMessageEventStream,
	type Context,
	type Model,
	type SimpleStreamOptions,
	streamSimple,
} from "@keel/ai";
import {
	responseMetadata,
	toAiSdkError,
	toAiSdkUsage,
	toFinishReason,
	toProviderMetadata,
	toStreamParts,
} from "./keel-stream-parts.js";
import { KEEL_METADATA_KEY, toKeelContext, toKeelTools } from "./to-keel-context.js";

/** Keel call options plus provider-specific keys (`toolChoice`, `reasoningEffort`, …). */
export type KeelCallOptions = SimpleStreamOptions & Record<string, unknown>;

/**
 * How a Keel model is called: `streamSimple` by default; any Keel stream function fits, such as one
 * from `createFallbackStream`. It may return a promise of the stream.
 */
export type KeelStreamFunction = (
	model: Model,
	context: Context,
	options?: KeelCallOptions,
) => AssistantMessageEventStream | Promise<AssistantMessageEventStream>;

export interface KeelLanguageModelSettings {
	/** Default: `streamSimple` from `@keel/ai` (Keel's registry, retries, reasoning levels). */
	streamFn?: KeelStreamFunction;
	/**
	 * Options for every call (key, retries, `reasoning`, timeouts, …). A call's
	 * `providerOptions.keel` is laid over them, then the AI SDK's own settings.
	 */
	options?: KeelCallOptions;
}

// The value each Keel API takes for "the model must call a tool". The others have no such switch.
const REQUIRED_TOOL_CHOICE: Record<string, unknown> = {
	"anthropic-messages": "any",
	"bedrock-converse-stream": "any",
	"google-generative-ai": "any",
	"google-vertex": "any",
	"mistral-conversations": "any",
	"openai-completions": "required",
};

/**
 * A Keel model as an AI SDK language model (specification v3, the one `ai` 6 takes), so that
 * `generateText`, `streamText`, tools and `useChat` run on it with Keel's retries, fallbacks, cost and
 * tracing. Cost arrives in `providerMetadata.keel.cost` (USD).
 * @see https://ai-sdk.dev/providers/community-providers/custom-providers
 */
export function keelLanguageModel(model: Model, settings: KeelLanguageModelSettings = {}): LanguageModelV3 {
	const streamFn: KeelStreamFunction = settings.streamFn ?? streamSimple;
	const start = async (callOptions: LanguageModelV3CallOptions) => {
		const warnings: SharedV3Warning[] = [];
		const context = toKeelContext(callOptions.prompt, model, toKeelTools(callOptions, warnings));
		const options = toKeelOptions(model, callOptions, settings.options, warnings);
		return { stream: await streamFn(model, context, options), warnings, context };
	};
	return {
		specificationVersion: "v3",
		provider: `keel.${model.provider}`,
		modelId: model.id,
		// Empty: the AI SDK downloads every URL and hands Keel the bytes.
		supportedUrls: {},
		async doGenerate(callOptions): Promise<LanguageModelV3GenerateResult> {
			const { stream, warnings } = await start(callOptions);
			const message = await stream.result();
			if (message.stopReason === "error" || message.stopReason === "aborted") throw toAiSdkError(message);
			return {
				content: toContent(message),
				finishReason: toFinishReason(message),
				usage: toAiSdkUsage(message.usage),
				providerMetadata: toProviderMetadata(message),
				response: responseMetadata(message),
				warnings,
			};
		},
		async doStream(callOptions): Promise<LanguageModelV3StreamResult> {
			const { stream, warnings } = await start(callOptions);
			const iterator = stream[Symbol.asyncIterator]();
			let started = false;
			const toolInputIds = new Map<number, string>();
			return {
				stream: new ReadableStream<LanguageModelV3StreamPart>({
					async pull(controller) {
						if (!started) {
							started = true;
							controller.enqueue({ type: "stream-start", warnings });
						}
						// Pull one Keel event per read, so a slow reader holds the model's stream back.
						for (;;) {
							const next = await iterator.next();
							if (next.done) {
								controller.close();
								return;
							}
							const parts = toStreamParts(next.value, toolInputIds);
							for (const part of parts) controller.enqueue(part);
							if (next.value.type === "done" || next.value.type === "error") {
								controller.close();
								return;
							}
							if (parts.length > 0) return;
						}
					},
					async cancel() {
						await iterator.return?.();
					},
				}),
			};
		},
	};
}

function toContent(message: AssistantMessage): LanguageModelV3Content[] {
	const content: LanguageModelV3Content[] = [];
	for (const block of message.content) {
		if (block.type === "text") content.push({ type: "text", text: block.text });
		else if (block.type === "thinking") {
			content.push(
				block.thinkingSignature === undefined
					? { type: "reasoning", text: block.thinking }
					: {
							type: "reasoning",
							text: block.thinking,
							providerMetadata: { [KEEL_METADATA_KEY]: { thinkingSignature: block.thinkingSignature } },
						},
			);
		} else {
			content.push({
				type: "tool-call",
				toolCallId: block.id,
				toolName: block.name,
				input: JSON.stringify(block.arguments),
			});
		}
	}
	return content;
}

function toKeelOptions(
	model: Model,
	call: LanguageModelV3CallOptions,
	defaults: KeelCallOptions | undefined,
	warnings: SharedV3Warning[],
): KeelCallOptions {
	const fromCall = call.providerOptions?.[KEEL_METADATA_KEY] as KeelCallOptions | undefined;
	const options: KeelCallOptions = { ...defaults, ...fromCall };
	if (call.temperature !== undefined) options.temperature = call.temperature;
	if (call.maxOutputTokens !== undefined) options.maxTokens = call.maxOutputTokens;
	if (call.abortSignal !== undefined) {
		options.signal =
			options.signal === undefined ? call.abortSignal : AbortSignal.any([options.signal, call.abortSignal]);
	}
	if (call.headers !== undefined) {
		const headers: Record<string, string> = { ...options.headers };
		for (const [name, value] of Object.entries(call.headers)) if (value !== undefined) headers[name] = value;
		options.headers = headers;
	}
	const choice = call.toolChoice?.type;
	if ((choice === "required" || choice === "tool") && call.tools !== undefined && call.tools.length > 0) {
		const required = REQUIRED_TOOL_CHOICE[model.api];
		if (required === undefined) warnings.push({ type: "unsupported", feature: `toolChoice ${choice} on ${model.api}` });
		else options.toolChoice = required;
	}
	const unsupported = ["topP", "topK", "stopSequences", "presencePenalty", "frequencyPenalty", "seed"] as const;
	for (const setting of unsupported) {
		if (call[setting] !== undefined) warnings.push({ type: "unsupported", feature: setting });
	}
	if (call.responseFormat?.type === "json") {
		warnings.push({
			type: "unsupported",
			feature: "responseFormat",
			details: "use @keel/ai's completeObject / streamObject for JSON output",
		});
	}
	return options;
}

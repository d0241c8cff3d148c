// How a model is asked for a JSON answer: through its API's own JSON-schema output where there is
// one, else through a tool the model is made to call, whose arguments are the answer.
import { supportsAnthropicStructuredOutputs } from "../providers/anthropic/structured-outputs.js";
import type { Api, Context, Model, ProviderStreamOptions, ResponseFormat, Tool } from "../types.js";

/** APIs whose encoders send `responseFormat` as the API's native JSON-schema output. */
const NATIVE_RESPONSE_FORMAT_APIS: ReadonlySet<string> = new Set([
	"openai-completions",
	"openai-responses",
	"azure-openai-responses",
	"openai-codex-responses",
	"mistral-conversations",
	"google-generative-ai",
	"google-vertex",
]);

export type OutputStrategy = "native" | "tool";

/** What one request looks like: the context and options to stream, and where the answer will be. */
export interface StructuredRequest {
	strategy: OutputStrategy;
	context: Context;
	options: ProviderStreamOptions;
}

/** "native" for APIs (and Anthropic models) with JSON-schema output, "tool" for the rest. */
export function chooseOutputStrategy(model: Model<Api>): OutputStrategy {
	if (NATIVE_RESPONSE_FORMAT_APIS.has(model.api)) return "native";
	if (model.api === "anthropic-messages" && supportsAnthropicStructuredOutputs(model)) return "native";
	return "tool";
}

/**
 * The request for one attempt. Native: the options carry `responseFormat`. Tool: the context gets a
 * tool named after the format whose parameters are the schema, and the options force a call to it
 * where the API lets them (Anthropic `tool_choice: {type: "tool"}`, Bedrock `toolChoice.tool`).
 * Claude refuses a forced tool choice while thinking, so there (and for APIs without a known
 * option) the system prompt asks for the call instead.
 */
export function buildStructuredRequest(
	model: Model<Api>,
	context: Context,
	options: ProviderStreamOptions,
	format: ResponseFormat,
): StructuredRequest {
	const strategy = chooseOutputStrategy(model);
	if (strategy === "native") return { strategy, context, options: { ...options, responseFormat: format } };

	const tool: Tool = {
		name: format.name,
		description: format.description ?? "Give your answer as the arguments of this tool.",
		parameters: format.schema as Tool["parameters"],
		...(format.strict ? { strict: true } : {}),
	};
	const toolChoice = forcedToolChoice(model, options, format.name);
	const instruction = `Answer by calling the tool "${format.name}" once, with your answer as its arguments.`;
	const systemPrompt =
		toolChoice === undefined
			? context.systemPrompt
				? `${context.systemPrompt}\n\n${instruction}`
				: instruction
			: context.systemPrompt;
	const toolContext: Context = { ...context, tools: [...(context.tools ?? []), tool] };
	if (systemPrompt !== undefined) toolContext.systemPrompt = systemPrompt;
	return { strategy, context: toolContext, options: toolChoice === undefined ? options : { ...options, toolChoice } };
}

function forcedToolChoice(model: Model<Api>, options: ProviderStreamOptions, name: string): unknown {
	const thinking = options.thinkingEnabled === true && model.reasoning;
	if (model.api === "anthropic-messages") return thinking ? undefined : { type: "tool", name };
	if (model.api === "bedrock-converse-stream") return thinking ? undefined : { tool: name };
	return undefined;
}

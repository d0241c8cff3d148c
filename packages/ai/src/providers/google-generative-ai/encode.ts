// The Gemini request body (generateContent / streamGenerateContent). Pure: no I/O, no clock.
// @see https://ai.google.dev/api/generate-content#request-body

import { NonRetryableError } from "../../call/provider-attempt.js";
import { transformMessages } from "../../message/transform-messages.js";
import { providerToolSchema } from "../../schema/provider-tool-schema.js";
import type { Api, Context, Model, Tool } from "../../types.js";
import { sanitizeSurrogates } from "../../utils/sanitize-unicode.js";
import { foldSystemMessages, hasSystemMessages } from "../../utils/system-messages.js";
import { encodeGeminiContents, normalizeGeminiToolCallId } from "./encode-messages.js";
import type { GoogleOptions } from "./options.js";
import { geminiSamplingFields } from "./sampling.js";
import { usesThinkingLevels } from "./thinking.js";
import type { GeminiFunctionDeclaration, GeminiGenerationConfig, GeminiRequestBody } from "./wire-types.js";

const TOOL_CHOICE_MODES = { auto: "AUTO", none: "NONE", any: "ANY" } as const;

function encodeTool(tool: Tool): GeminiFunctionDeclaration {
	if (tool.parameters === undefined)
		return { name: tool.name, description: tool.description, parametersJsonSchema: { type: "object" } };
	let schema: Record<string, unknown>;
	try {
		schema = providerToolSchema(tool, { api: "Gemini", strict: false });
	} catch (error) {
		throw new NonRetryableError((error as Error).message);
	}
	// parametersJsonSchema takes full JSON Schema; `parameters` only an OpenAPI subset.
	return { name: tool.name, description: tool.description, parametersJsonSchema: schema };
}

function encodeGenerationConfig(model: Model<Api>, options: GoogleOptions): GeminiGenerationConfig | undefined {
	const config: GeminiGenerationConfig = {};
	if (options.maxTokens !== undefined) config.maxOutputTokens = options.maxTokens;
	if (options.temperature !== undefined) config.temperature = options.temperature;
	Object.assign(config, geminiSamplingFields(model, options));
	const thinking = options.thinking;
	if (thinking?.enabled && model.reasoning) {
		config.thinkingConfig = { includeThoughts: true };
		if (thinking.level !== undefined && usesThinkingLevels(model)) config.thinkingConfig.thinkingLevel = thinking.level;
		else if (thinking.budgetTokens !== undefined) config.thinkingConfig.thinkingBudget = thinking.budgetTokens;
	}
	if (options.responseFormat) {
		// responseJsonSchema takes full JSON Schema (responseSchema only an OpenAPI subset) and needs
		// the JSON MIME type. @see https://ai.google.dev/api/generate-content#generationconfig
		config.responseMimeType = "application/json";
		config.responseJsonSchema = options.responseFormat.schema as Record<string, unknown>;
	}
	return Object.keys(config).length > 0 ? config : undefined;
}

const CACHE_NAME = /^[A-Za-z0-9_./-]+$/;

/**
 * `options.cachedContent` as a resource name: a bare id becomes `cachedContents/{id}`; a name that
 * already has a path (`cachedContents/…`, Vertex's `projects/…/cachedContents/…`) is kept.
 * @see https://ai.google.dev/api/caching
 */
function cachedContentName(value: unknown): string | undefined {
	if (value === undefined) return undefined;
	if (typeof value !== "string" || !CACHE_NAME.test(value) || value.startsWith("/") || value.endsWith("/")) {
		throw new NonRetryableError(
			`cachedContent must be the name of a cache you created, such as "cachedContents/abc123" (or its id "abc123"), got ${JSON.stringify(value)}`,
		);
	}
	return value.includes("/") ? value : `cachedContents/${value}`;
}

/** The request body for a context. Throws a NonRetryableError for input Gemini would reject less clearly. */
export function encodeGeminiRequest(
	model: Model<Api>,
	context: Context,
	options: GoogleOptions = {},
): GeminiRequestBody {
	if (options.toolChoice !== undefined && !Object.hasOwn(TOOL_CHOICE_MODES, options.toolChoice)) {
		throw new NonRetryableError(
			`toolChoice must be "auto", "none" or "any" for Gemini, got ${JSON.stringify(options.toolChoice)}`,
		);
	}
	const cachedContent = cachedContentName(options.cachedContent);
	if (cachedContent !== undefined && hasSystemMessages(context.messages)) {
		throw new NonRetryableError(
			`Gemini takes system instructions only in systemInstruction, which ${cachedContent} already holds, so the system messages in context.messages cannot be sent with cachedContent: put them into the cached content, or leave cachedContent out`,
		);
	}
	// Gemini has no system role in `contents`: every system message is replayed into
	// `systemInstruction` and its tool changes into `tools`.
	// @see https://ai.google.dev/api/generate-content#request-body
	const { systemPrompt, messages: conversation, tools } = foldSystemMessages(context);
	const messages = transformMessages(conversation, model, (id) => normalizeGeminiToolCallId(id, model));
	const body: GeminiRequestBody = { contents: encodeGeminiContents(messages, model) };
	if (cachedContent !== undefined) {
		// The cache holds the system instruction, tools and tool config: Gemini refuses a request that
		// sets them beside `cachedContent` ("CachedContent can not be used with GenerateContent request
		// setting system_instruction, tools or tool_config").
		body.cachedContent = cachedContent;
	} else if (systemPrompt && systemPrompt.trim() !== "") {
		body.systemInstruction = { parts: [{ text: sanitizeSurrogates(systemPrompt) }] };
	}
	if (cachedContent === undefined && tools && tools.length > 0) {
		body.tools = [{ functionDeclarations: tools.map(encodeTool) }];
		if (options.toolChoice) {
			body.toolConfig = { functionCallingConfig: { mode: TOOL_CHOICE_MODES[options.toolChoice] } };
		}
	}
	const generationConfig = encodeGenerationConfig(model, options);
	if (generationConfig) body.generationConfig = generationConfig;
	return body;
}

// The Gemini API's request and streamed response, as far as Keel reads and writes them. Vertex AI
// serves the same shapes. Own types rather than @google/genai's: the SDK is not a dependency.
// @see https://ai.google.dev/api/generate-content
import type { GeminiPartialArg } from "./partial-arguments.js";

export interface GeminiInlineData {
	mimeType: string;
	/** Base64. */
	data: string;
}

export interface GeminiFunctionCall {
	/** Absent on the later parts of a call whose arguments stream. */
	name?: string;
	args?: Record<string, unknown>;
	/** Set by some models (and always by Vertex's Claude and gpt-oss models); absent on most Gemini answers. */
	id?: string;
	/** Vertex AI with streamFunctionCallArguments: pieces of the arguments. */
	partialArgs?: GeminiPartialArg[];
	/** Vertex AI with streamFunctionCallArguments: true while more parts of this call follow. */
	willContinue?: boolean;
}

export interface GeminiFunctionResponse {
	name: string;
	response: Record<string, unknown>;
	id?: string;
	/** Images and PDFs returned by the function (Gemini 3 and later). */
	parts?: { inlineData: GeminiInlineData }[];
}

export interface GeminiPart {
	text?: string;
	/** True when the text is a thought summary. */
	thought?: boolean;
	/** Opaque signature of the model's reasoning, to be sent back with the same part. */
	thoughtSignature?: string;
	inlineData?: GeminiInlineData;
	/** A file the API fetches: a Files API URI, a `gs://` object (Vertex) or an https URL. */
	fileData?: { mimeType: string; fileUri: string };
	functionCall?: GeminiFunctionCall;
	functionResponse?: GeminiFunctionResponse;
}

export interface GeminiContent {
	role: "user" | "model";
	parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
	name: string;
	description?: string;
	parametersJsonSchema?: unknown;
}

export interface GeminiThinkingConfig {
	includeThoughts?: boolean;
	/** Tokens; -1 lets the model decide, 0 turns thinking off where the model allows it. */
	thinkingBudget?: number;
	/** Gemini 3 and later. */
	thinkingLevel?: string;
}

export interface GeminiGenerationConfig {
	maxOutputTokens?: number;
	temperature?: number;
	/** Sampling fields (topP, topK, seed, presencePenalty, frequencyPenalty) from samplingParams. */
	[sampling: string]: unknown;
	thinkingConfig?: GeminiThinkingConfig;
	/** "application/json" with `responseJsonSchema`: the answer is JSON matching the schema. */
	responseMimeType?: string;
	/** A JSON Schema (the alternative to the OpenAPI-subset `responseSchema`). */
	responseJsonSchema?: Record<string, unknown>;
}

export interface GeminiRequestBody {
	contents: GeminiContent[];
	systemInstruction?: { parts: { text: string }[] };
	tools?: { functionDeclarations: GeminiFunctionDeclaration[] }[];
	toolConfig?: {
		functionCallingConfig: {
			mode?: "AUTO" | "NONE" | "ANY";
			/** Vertex AI only: stream one call's arguments in pieces (FunctionCall.partialArgs). */
			streamFunctionCallArguments?: boolean;
		};
	};
	generationConfig?: GeminiGenerationConfig;
	/** A cache resource name (explicit caching): `cachedContents/{id}`, on Vertex the full resource path. */
	cachedContent?: string;
}

export interface GeminiUsageMetadata {
	promptTokenCount?: number;
	cachedContentTokenCount?: number;
	candidatesTokenCount?: number;
	thoughtsTokenCount?: number;
	toolUsePromptTokenCount?: number;
	totalTokenCount?: number;
}

export interface GeminiCandidate {
	content?: { role?: string; parts?: GeminiPart[] };
	finishReason?: string;
	finishMessage?: string;
	index?: number;
}

/** One streamed chunk: `data:` of one server-sent event with `alt=sse`. */
export interface GeminiResponseChunk {
	candidates?: GeminiCandidate[];
	promptFeedback?: { blockReason?: string; blockReasonMessage?: string };
	usageMetadata?: GeminiUsageMetadata;
	modelVersion?: string;
	responseId?: string;
}

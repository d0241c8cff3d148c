// Literal models and Gemini wire chunks for the google-generative-ai and google-vertex tests.
// @see https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse
import type {
	GeminiPart,
	GeminiResponseChunk,
	GeminiUsageMetadata,
} from "../../../src/providers/google-generative-ai/wire-types.js";
import type { Model } from "../../../src/types.js";
import { testModel } from "../../helpers/models.js";

export function geminiModel(overrides: Partial<Model<"google-generative-ai">> = {}): Model<"google-generative-ai"> {
	return testModel(
		{
			id: "gemini-2.5-flash",
			name: "Gemini 2.5 Flash",
			api: "google-generative-ai",
			provider: "google",
			baseUrl: "https://generativelanguage.googleapis.com/v1beta",
			reasoning: true,
			maxTokens: 65_536,
		},
		overrides,
	);
}

export function vertexModel(overrides: Partial<Model<"google-vertex">> = {}): Model<"google-vertex"> {
	return testModel(
		{
			id: "gemini-2.5-flash",
			name: "Gemini 2.5 Flash (Vertex)",
			api: "google-vertex",
			provider: "google-vertex",
			baseUrl: "https://{location}-aiplatform.googleapis.com",
			reasoning: true,
			maxTokens: 65_536,
		},
		overrides,
	);
}

/** The body Gemini streams with `alt=sse`: one `data:` line per chunk, events separated by CRLF. */
export function geminiSse(chunks: unknown[]): string {
	return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join("");
}

export function partsChunk(parts: GeminiPart[], extra: Partial<GeminiResponseChunk> = {}): GeminiResponseChunk {
	return {
		candidates: [{ content: { role: "model", parts }, index: 0 }],
		responseId: "resp-1",
		modelVersion: "gemini-2.5-flash",
		...extra,
	};
}

export function finishChunk(
	finishReason = "STOP",
	usage: GeminiUsageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
	parts: GeminiPart[] = [],
): GeminiResponseChunk {
	return {
		candidates: [{ content: { role: "model", parts }, finishReason, index: 0 }],
		usageMetadata: usage,
		responseId: "resp-1",
		modelVersion: "gemini-2.5-flash",
	};
}

/** A whole text answer streamed in these pieces. */
export function textAnswer(pieces: string[], finishReason = "STOP"): string {
	return geminiSse([...pieces.map((text) => partsChunk([{ text }])), finishChunk(finishReason)]);
}

/** One function call answer (Gemini sends the arguments whole). */
export function functionCallAnswer(
	name: string,
	args: Record<string, unknown>,
	extra: Partial<GeminiPart> = {},
): string {
	return geminiSse([partsChunk([{ functionCall: { name, args }, ...extra }]), finishChunk("STOP")]);
}

/**
 * A function call whose `args` JSON text is given as is: arguments nested too deep for
 * JSON.stringify still reach the client exactly as a server would write them.
 */
export function rawFunctionCallAnswer(name: string, argumentsJson: string): string {
	const call = `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":${JSON.stringify(name)},"args":${argumentsJson}}}]},"index":0}]}`;
	return `data: ${call}\r\n\r\n${geminiSse([finishChunk("STOP")])}`;
}

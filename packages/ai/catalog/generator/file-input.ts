// PDF and audio input the providers document for whole model families, added to what the sources
// say: the offline snapshot and the toolkits' lists often predate a family's PDF support, and a
// row without the flag makes Keel refuse a PDF the API would take. Only first-party endpoints of
// each family are covered; anything else keeps what its sources say.
import type { Api, Model, ModelInput } from "../../src/types.js";

interface FamilyRule {
	/** Why: the provider's public page that says the family takes this input. */
	source: string;
	providers: readonly string[];
	/** Matches the model id. */
	id: RegExp;
	/** Only rows that already take images (the documented PDF support goes with vision). */
	needsImage?: boolean;
	adds: readonly ModelInput[];
}

const FAMILY_RULES: readonly FamilyRule[] = [
	{
		// "PDF support is available on all active models" (the Messages API `document` block).
		source: "https://docs.claude.com/en/docs/build-with-claude/pdf-support",
		providers: ["anthropic", "google-vertex", "amazon-bedrock"],
		id: /claude/,
		needsImage: true,
		adds: ["pdf"],
	},
	{
		// Gemini reads PDFs (document processing) and audio (audio understanding) as inline data.
		source: "https://ai.google.dev/gemini-api/docs/document-processing, https://ai.google.dev/gemini-api/docs/audio",
		providers: ["google", "google-vertex"],
		id: /^gemini-(?!.*(?:embedding|image|tts|live))/,
		adds: ["pdf", "audio"],
	},
	{
		// "Models with vision capabilities ... can accept PDF files as input."
		source: "https://platform.openai.com/docs/guides/pdf-files",
		providers: ["openai", "azure-openai-responses"],
		id: /^(?:gpt-4o|gpt-4\.1|gpt-5|o1|o3|o4)/,
		needsImage: true,
		adds: ["pdf"],
	},
	{
		// Document understanding: a PDF as a `document_url` chunk to the vision chat models.
		source: "https://docs.mistral.ai/capabilities/OCR/document_understanding",
		providers: ["mistral"],
		id: /^mistral-(?:small|medium|large)/,
		needsImage: true,
		adds: ["pdf"],
	},
	{
		// Voxtral models take audio in chat messages (`input_audio`).
		source: "https://docs.mistral.ai/capabilities/audio/",
		providers: ["mistral"],
		id: /^voxtral/,
		adds: ["audio"],
	},
];

/** The row's input with the kinds its family's rules add, in `Model.input` order. */
export function withFamilyFileInput(model: Model<Api>): ModelInput[] {
	const kinds = new Set<ModelInput>(model.input);
	for (const rule of FAMILY_RULES) {
		if (!rule.providers.includes(model.provider) || !rule.id.test(model.id)) continue;
		if (rule.needsImage && !kinds.has("image")) continue;
		for (const kind of rule.adds) kinds.add(kind);
	}
	return (["text", "image", "pdf", "audio"] as const).filter((kind) => kinds.has(kind));
}

// How catalogue rows get their PDF and audio flags: the sources' modality lists, then the families
// whose providers document PDF or audio input for every model.
import { describe, expect, it } from "vitest";
import { withFamilyFileInput } from "../catalog/generator/file-input.js";
import { getModel } from "../src/index.js";
import { inputKindsFromModalities } from "../src/models/input-kinds.js";
import type { Api, Model, ModelInput } from "../src/types.js";

function row(provider: string, id: string, input: ModelInput[]): Model<Api> {
	return {
		id,
		name: id,
		api: "openai-completions",
		provider,
		baseUrl: "",
		reasoning: false,
		input,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 1,
		maxTokens: 1,
	};
}

describe("catalogue PDF and audio input", () => {
	it("reads models.dev's pdf and audio and OpenRouter's file modality, ignoring kinds Keel does not know", () => {
		expect(inputKindsFromModalities(["audio", "text", "video", "pdf", "image"])).toEqual([
			"text",
			"image",
			"pdf",
			"audio",
		]);
		expect(inputKindsFromModalities(["text", "file"])).toEqual(["text", "pdf"]);
		expect(inputKindsFromModalities(undefined)).toEqual(["text"]);
	});

	it("adds PDF to first-party Claude and OpenAI vision rows and PDF and audio to Gemini, and nothing elsewhere", () => {
		expect(withFamilyFileInput(row("anthropic", "claude-sonnet-4-5", ["text", "image"]))).toEqual([
			"text",
			"image",
			"pdf",
		]);
		expect(withFamilyFileInput(row("openai", "gpt-4o-mini", ["text", "image"]))).toEqual(["text", "image", "pdf"]);
		expect(withFamilyFileInput(row("google", "gemini-2.5-flash", ["text", "image"]))).toEqual([
			"text",
			"image",
			"pdf",
			"audio",
		]);
		expect(withFamilyFileInput(row("groq", "claude-like", ["text", "image"]))).toEqual(["text", "image"]);
		expect(withFamilyFileInput(row("openai", "gpt-3.5-turbo", ["text"]))).toEqual(["text"]);
	});

	it("the generated catalogue carries the flags", () => {
		expect(getModel("anthropic", "claude-sonnet-4-5")?.input).toContain("pdf");
		expect(getModel("google", "gemini-2.5-flash")?.input).toEqual(["text", "image", "pdf", "audio"]);
		expect(getModel("openai", "gpt-4o-mini")?.input).toContain("pdf");
	});
});

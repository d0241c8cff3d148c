// A catalogue's list of input modalities as Keel's `Model.input`. models.dev names "image", "pdf"
// and "audio" (https://models.dev, `modalities.input`); OpenRouter names PDFs and other documents
// "file" (https://openrouter.ai/docs/api-reference/list-available-models, `input_modalities`).
import type { ModelInput } from "../types.js";

/** The kinds Keel knows, in the order `Model.input` lists them; "text" is always first. */
export function inputKindsFromModalities(modalities: unknown): ModelInput[] {
	const named = new Set(Array.isArray(modalities) ? modalities.filter((kind) => typeof kind === "string") : []);
	const input: ModelInput[] = ["text"];
	if (named.has("image")) input.push("image");
	if (named.has("pdf") || named.has("file")) input.push("pdf");
	if (named.has("audio")) input.push("audio");
	return input;
}

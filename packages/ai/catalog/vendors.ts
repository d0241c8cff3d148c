// Pay-per-token vendors missing from the models.dev snapshot, and flagship rows for the aggregators
// (OpenRouter, Vercel AI Gateway, Cloudflare) that the snapshot predates. The live path (--live)
// fetches the aggregators' full lists; these rows keep the offline catalogue current.
import { type CuratedModel, FREE, price } from "./curated-types.js";

const miniMaxPricing = "https://platform.minimax.io/docs/guides/pricing";

function miniMax(provider: "minimax" | "minimax-cn", id: string, name: string): CuratedModel {
	return {
		provider,
		id,
		name,
		reasoning: true,
		input: ["text"],
		// minimax-cn bills in CNY; the USD list price of the international platform is used for both.
		cost: price(0.3, 1.2, 0.03, 0.375),
		contextWindow: 204_800,
		maxTokens: 131_072,
		source: miniMaxPricing,
	};
}

const openRouterModels = "https://openrouter.ai/models";
const vercelGatewayModels = "https://vercel.com/ai-gateway/models";
const cloudflareGateway = "https://developers.cloudflare.com/ai-gateway/usage/chat-completion/";

interface Flagship {
	name: string;
	reasoning: boolean;
	input: ("text" | "image")[];
	cost: CuratedModel["cost"];
	contextWindow: number;
	maxTokens: number;
}

// List prices of the upstream vendors (sources in first-party.ts); aggregators pass them through.
const flagships: Record<string, Flagship> = {
	claudeSonnet45: {
		name: "Claude Sonnet 4.5",
		reasoning: true,
		input: ["text", "image"],
		cost: price(3, 15, 0.3, 3.75),
		contextWindow: 200_000,
		maxTokens: 64_000,
	},
	claudeOpus45: {
		name: "Claude Opus 4.5",
		reasoning: true,
		input: ["text", "image"],
		cost: price(5, 25, 0.5, 6.25),
		contextWindow: 200_000,
		maxTokens: 64_000,
	},
	claudeHaiku45: {
		name: "Claude Haiku 4.5",
		reasoning: true,
		input: ["text", "image"],
		cost: price(1, 5, 0.1, 1.25),
		contextWindow: 200_000,
		maxTokens: 64_000,
	},
	gpt51: {
		name: "GPT-5.1",
		reasoning: true,
		input: ["text", "image"],
		cost: price(1.25, 10, 0.125),
		contextWindow: 400_000,
		maxTokens: 128_000,
	},
	gemini3Pro: {
		name: "Gemini 3 Pro Preview",
		reasoning: true,
		input: ["text", "image"],
		cost: price(2, 12, 0.2),
		contextWindow: 1_048_576,
		maxTokens: 65_536,
	},
	glm46: {
		name: "GLM-4.6",
		reasoning: true,
		input: ["text"],
		cost: price(0.6, 2.2, 0.11),
		contextWindow: 204_800,
		maxTokens: 131_072,
	},
	kimiK2Thinking: {
		name: "Kimi K2 Thinking",
		reasoning: true,
		input: ["text"],
		cost: price(0.6, 2.5, 0.15),
		contextWindow: 262_144,
		maxTokens: 262_144,
	},
};

function row(provider: string, id: string, flagship: Flagship, source: string): CuratedModel {
	return { provider, id, ...flagship, source };
}

export const VENDOR_MODELS: readonly CuratedModel[] = [
	miniMax("minimax", "MiniMax-M2", "MiniMax M2"),
	miniMax("minimax", "MiniMax-M2.1", "MiniMax M2.1"),
	miniMax("minimax-cn", "MiniMax-M2", "MiniMax M2"),
	miniMax("minimax-cn", "MiniMax-M2.1", "MiniMax M2.1"),

	{
		provider: "xiaomi",
		id: "mimo-v2-flash",
		name: "MiMo-V2-Flash",
		reasoning: true,
		input: ["text"],
		cost: price(0.1, 0.3, 0.01),
		contextWindow: 262_144,
		maxTokens: 65_536,
		source: "https://platform.xiaomimimo.com/#/docs/pricing",
	},

	// OpenCode Go is a flat subscription; the per-token cost is therefore 0.
	{ ...row("opencode-go", "glm-4.7", flagships.glm46, "https://opencode.ai/docs/go/"), name: "GLM-4.7", cost: FREE },
	{
		...miniMax("minimax", "minimax-m2.1", "MiniMax M2.1"),
		provider: "opencode-go",
		cost: FREE,
		source: "https://opencode.ai/docs/go/",
	},

	// Workers AI's gpt-oss, Llama 4 Scout and Llama 3.3 rows come from the sources, which follow
	// Cloudflare's model pages (https://developers.cloudflare.com/workers-ai/models/).

	row("cloudflare-ai-gateway", "anthropic/claude-sonnet-4-5", flagships.claudeSonnet45, cloudflareGateway),
	row("cloudflare-ai-gateway", "openai/gpt-5.1", flagships.gpt51, cloudflareGateway),
	row("cloudflare-ai-gateway", "google-ai-studio/gemini-3-pro-preview", flagships.gemini3Pro, cloudflareGateway),

	// openrouter/auto and anthropic/claude-sonnet-4.5 (1M context) come from the sources.
	row(
		"openrouter",
		"anthropic/claude-opus-4.5",
		flagships.claudeOpus45,
		`${openRouterModels}/anthropic/claude-opus-4.5`,
	),
	row(
		"openrouter",
		"anthropic/claude-haiku-4.5",
		flagships.claudeHaiku45,
		`${openRouterModels}/anthropic/claude-haiku-4.5`,
	),
	row("openrouter", "openai/gpt-5.1", flagships.gpt51, `${openRouterModels}/openai/gpt-5.1`),
	row(
		"openrouter",
		"google/gemini-3-pro-preview",
		flagships.gemini3Pro,
		`${openRouterModels}/google/gemini-3-pro-preview`,
	),
	row(
		"openrouter",
		"moonshotai/kimi-k2-thinking",
		flagships.kimiK2Thinking,
		`${openRouterModels}/moonshotai/kimi-k2-thinking`,
	),

	row("vercel-ai-gateway", "anthropic/claude-opus-4.5", flagships.claudeOpus45, vercelGatewayModels),
	row("vercel-ai-gateway", "anthropic/claude-haiku-4.5", flagships.claudeHaiku45, vercelGatewayModels),
	row("vercel-ai-gateway", "openai/gpt-5.1", flagships.gpt51, vercelGatewayModels),
	{
		...row("vercel-ai-gateway", "google/gemini-3-pro-preview", flagships.gemini3Pro, vercelGatewayModels),
		// Google's limits for Gemini 3 Pro; an older source rounds them to 1,000,000 and 64,000.
		overrides: {
			contextWindow: "https://ai.google.dev/gemini-api/docs/models#gemini-3-pro",
			maxTokens: "https://ai.google.dev/gemini-api/docs/models#gemini-3-pro",
		},
	},
];

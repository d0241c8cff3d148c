// Per-model thinking-level maps and reasoning-effort maps, by model family. A key mapped to null is a
// level the model rejects; a string is the value the provider takes for it. Levels not listed keep the
// defaults (off … high supported, xhigh not). Patterns match the id after any vendor prefix
// ("openai/gpt-5.2" on OpenRouter is the same family as "gpt-5.2").
import type { MistralConversationsCompat, OpenAICompletionsCompat, ThinkingLevelMap } from "../../src/types.js";

interface FamilyRule {
	pattern: RegExp;
	map: ThinkingLevelMap;
	/** Why, with a public source. */
	note: string;
}

const familyRules: readonly FamilyRule[] = [
	{
		pattern: /^gpt-5\.1-codex-mini/,
		map: { off: null, minimal: null, low: null },
		note: "gpt-5.1-codex-mini takes medium and high only (platform.openai.com/docs/models/gpt-5.1-codex-mini)",
	},
	{
		pattern: /^gpt-5\.1-codex-max/,
		map: { off: null, minimal: null, xhigh: "xhigh" },
		note: "codex-max adds xhigh (openai.com/index/gpt-5-1-codex-max)",
	},
	{
		pattern: /^gpt-5(\.1)?-codex/,
		map: { off: null, minimal: null },
		note: "codex models take low, medium, high (platform.openai.com/docs/guides/reasoning)",
	},
	{
		pattern: /^gpt-5\.([2-9]|\d\d)/,
		map: { off: "none", minimal: null, xhigh: "xhigh" },
		note: "GPT-5.2 and later take none, low, medium, high, xhigh (platform.openai.com/docs/guides/latest-model)",
	},
	{
		pattern: /^gpt-5\.1/,
		map: { off: "none", minimal: null },
		note: "GPT-5.1 replaced minimal with none (platform.openai.com/docs/guides/latest-model)",
	},
	{
		pattern: /^gpt-5(-mini|-nano)?(-\d{4}-\d{2}-\d{2})?$/,
		map: { off: "minimal" },
		note: "GPT-5 cannot turn reasoning off; minimal is the closest (platform.openai.com/docs/guides/reasoning)",
	},
	{
		pattern: /^(o1|o3|o4)(-|$)/,
		map: { off: null, minimal: null },
		note: "o-series models always reason and take low, medium, high",
	},
	{
		pattern: /^claude-opus-4[-.]6/,
		map: { xhigh: "max", max: "max" },
		note: "Opus 4.6 adds the max effort, its top; xhigh sends it too (docs.anthropic.com/en/docs/build-with-claude/effort)",
	},
	{
		pattern: /^gemini-3(\.\d+)?-pro/,
		map: { off: null, minimal: "LOW", low: "LOW", medium: "HIGH", high: "HIGH" },
		note: "Gemini 3 Pro has thinking levels LOW and HIGH and cannot turn thinking off (ai.google.dev/gemini-api/docs/thinking)",
	},
	{
		pattern: /^gemini-3(\.\d+)?-flash/,
		map: { off: null, minimal: "MINIMAL", low: "LOW", medium: "MEDIUM", high: "HIGH" },
		note: "Gemini 3 Flash has four thinking levels (ai.google.dev/gemini-api/docs/thinking)",
	},
	{
		pattern: /^gemini-2\.5-pro/,
		map: { off: null },
		note: "Gemini 2.5 Pro cannot turn thinking off (ai.google.dev/gemini-api/docs/thinking)",
	},
	{
		pattern: /^magistral/,
		map: { off: null },
		note: "Magistral models always reason; a level only selects their reasoning prompt (docs.mistral.ai/capabilities/reasoning)",
	},
	{
		pattern: /^(deepseek-reasoner|deepseek-r1|qwq|.*-thinking)/i,
		map: { off: null },
		note: "reasoning-only models: thinking cannot be turned off",
	},
];

// Bedrock ids carry a region and a vendor prefix: "us.anthropic.claude-opus-4-6-v1:0".
const BEDROCK_PREFIX =
	/^((us|eu|apac|global|us-gov|jp|au|ca|in)\.)?(anthropic|meta|amazon|cohere|deepseek|mistral|openai|qwen|google|minimax|moonshot|moonshotai)\./;

/** The id without a vendor prefix ("anthropic/claude-opus-4.6" → "claude-opus-4.6"), lower-cased. */
export function familyId(id: string): string {
	return id
		.slice(id.lastIndexOf("/") + 1)
		.toLowerCase()
		.replace(BEDROCK_PREFIX, "");
}

/**
 * Whether a map a source gives may stay on this row. Claude's effort names ("max") are not
 * OpenAI-style efforts, so through a Chat Completions router (OpenRouter) a Claude model keeps the
 * default levels; other vendors' maps would be misread as Claude efforts on the Messages API.
 */
export function sourceThinkingMapApplies(id: string, api: string): boolean {
	const family = familyId(id);
	if (api === "openai-completions" && family.startsWith("claude")) return false;
	if (api === "anthropic-messages" && !family.startsWith("claude")) return false;
	return true;
}

/** The thinking-level map for a reasoning model, or undefined when the defaults apply. */
export function thinkingLevelMapFor(id: string, reasoning: boolean, api?: string): ThinkingLevelMap | undefined {
	if (!reasoning) return undefined;
	const family = familyId(id);
	// Through the Anthropic Messages API (the Vercel gateway), effort names in a map mean Claude's
	// adaptive thinking; other vendors' maps would be misread there.
	if (api === "anthropic-messages" && !family.startsWith("claude")) return undefined;
	if (api === "openai-completions" && family.startsWith("claude")) return undefined;
	// Mistral Small 4 and Medium 3.5 take reasoning_effort "high" or "none" only
	// (docs.mistral.ai/capabilities/reasoning/adjustable); on other APIs the same ids mean other things.
	if (api === "mistral-conversations" && /^mistral-(small|medium)/.test(family)) {
		return { off: "none", minimal: "high", low: "high", medium: "high", high: "high" };
	}
	const rule = familyRules.find((candidate) => candidate.pattern.test(family));
	return rule ? { ...rule.map } : undefined;
}

/** Extra openai-completions flags for specific models of a provider. */
export function modelCompatFor(provider: string, id: string): OpenAICompletionsCompat | undefined {
	// Groq's Qwen 3 takes reasoning_effort "none" or "default" only (console.groq.com/docs/reasoning).
	if (provider === "groq" && /^qwen\/qwen3/.test(id)) {
		return {
			reasoningEffortMap: { minimal: "default", low: "default", medium: "default", high: "default", xhigh: "default" },
		};
	}
	return undefined;
}

/**
 * How a reasoning model on Mistral's API takes its reasoning switch: Magistral models (always
 * reasoning) take `prompt_mode: "reasoning"`; the others take `reasoning_effort`
 * (https://docs.mistral.ai/capabilities/reasoning/). Undefined for a model without reasoning.
 */
export function mistralCompatFor(id: string, reasoning: boolean): MistralConversationsCompat | undefined {
	if (!reasoning) return undefined;
	return { reasoningFormat: /^magistral/.test(familyId(id)) ? "prompt-mode" : "reasoning-effort" };
}

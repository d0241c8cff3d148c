// Retirement dates, from each provider's own deprecation page. The generator drops a row whose
// retirement date is before the catalogue's date (the newest source's publication date), and marks
// a row that retires later as `deprecated`, so a call warns. Dates apply to the providers listed:
// partner platforms (Bedrock, Vertex AI, Azure) keep their own schedules and get their own entries.
import type { ModelRetirement } from "./curated-types.js";

const anthropicDeprecations = "https://docs.anthropic.com/en/docs/about-claude/model-deprecations";
const anthropicReleaseNotes = "https://platform.claude.com/docs/en/release-notes/overview";
const openAiDeprecations = "https://platform.openai.com/docs/deprecations";
const azureLegacyModels = "https://learn.microsoft.com/azure/ai-foundry/openai/concepts/legacy-models";
const geminiChangelog = "https://ai.google.dev/gemini-api/docs/changelog";
const vertexModelVersions = "https://cloud.google.com/vertex-ai/generative-ai/docs/learn/model-versions";
const xaiMay15Retirement = "https://docs.x.ai/docs/migration/may-15-retirement";
const mistralModels = "https://docs.mistral.ai/getting-started/models/";

export const MODEL_RETIREMENTS: readonly ModelRetirement[] = [
	// Anthropic: dates for the Claude API (Anthropic-operated platforms).
	{
		providers: ["anthropic"],
		ids: ["claude-2.0", "claude-2.1", "claude-3-sonnet-20240229"],
		retiresOn: "2025-07-21",
		source: anthropicDeprecations,
	},
	{
		providers: ["anthropic"],
		ids: ["claude-3-5-sonnet-20240620", "claude-3-5-sonnet-20241022", "claude-3-5-sonnet-latest"],
		retiresOn: "2025-10-22",
		source: anthropicDeprecations,
	},
	{
		providers: ["anthropic"],
		ids: ["claude-3-opus-20240229", "claude-3-opus-latest"],
		retiresOn: "2026-01-05",
		source: anthropicDeprecations,
	},
	{
		providers: ["anthropic"],
		ids: [
			"claude-3-7-sonnet-20250219",
			"claude-3-7-sonnet-latest",
			"claude-3-5-haiku-20241022",
			"claude-3-5-haiku-latest",
		],
		retiresOn: "2026-02-19",
		source: anthropicDeprecations,
	},
	{
		providers: ["anthropic"],
		ids: ["claude-sonnet-4-20250514", "claude-sonnet-4-0", "claude-opus-4-20250514", "claude-opus-4-0"],
		retiresOn: "2026-06-15",
		source: anthropicReleaseNotes,
	},

	// OpenAI: dates for the OpenAI API.
	{
		providers: ["openai"],
		ids: ["gpt-4.5-preview"],
		retiresOn: "2025-07-14",
		replacement: "gpt-4.1",
		source: openAiDeprecations,
	},
	{
		providers: ["openai"],
		ids: ["o1-preview"],
		retiresOn: "2025-07-28",
		replacement: "o1",
		source: openAiDeprecations,
	},
	{
		providers: ["openai"],
		ids: ["o1-mini"],
		retiresOn: "2025-10-27",
		replacement: "o3-mini",
		source: openAiDeprecations,
	},
	{
		providers: ["openai"],
		ids: [
			"gpt-3.5-turbo",
			"gpt-3.5-turbo-0125",
			"gpt-4",
			"gpt-4-0613",
			"gpt-4-turbo",
			"gpt-4-turbo-2024-04-09",
			"gpt-4o-2024-05-13",
			"o1",
			"o1-2024-12-17",
			"o1-pro",
			"o3-mini",
			"o4-mini",
			"gpt-4.1-nano",
		],
		retiresOn: "2026-10-23",
		source: openAiDeprecations,
	},
	{
		providers: ["openai"],
		ids: ["gpt-5", "gpt-5-2025-08-07"],
		retiresOn: "2026-12-11",
		replacement: "gpt-6.1-sol",
		source: openAiDeprecations,
	},
	{
		providers: ["openai"],
		ids: ["gpt-5-mini", "gpt-5-mini-2025-08-07"],
		retiresOn: "2026-12-11",
		replacement: "gpt-6.1-terra",
		source: openAiDeprecations,
	},
	{
		providers: ["openai"],
		ids: ["gpt-5-nano", "gpt-5-nano-2025-08-07"],
		retiresOn: "2026-12-11",
		source: openAiDeprecations,
	},
	// Azure OpenAI retires on its own schedule.
	{
		providers: ["azure-openai-responses"],
		ids: ["gpt-4.5-preview"],
		retiresOn: "2025-07-14",
		replacement: "gpt-4.1",
		source: azureLegacyModels,
	},
	{
		providers: ["azure-openai-responses"],
		ids: ["o1-preview"],
		retiresOn: "2025-07-28",
		replacement: "o1",
		source: azureLegacyModels,
	},

	// Google: the Gemini API and Vertex AI have separate schedules.
	{
		providers: ["google", "google-vertex"],
		ids: ["gemini-1.5-pro", "gemini-1.5-flash", "gemini-1.5-flash-8b"],
		retiresOn: "2025-09-24",
		source: vertexModelVersions,
	},
	{
		providers: ["google"],
		ids: ["gemini-2.0-flash", "gemini-2.0-flash-001", "gemini-2.0-flash-lite", "gemini-2.0-flash-lite-001"],
		retiresOn: "2026-06-01",
		source: geminiChangelog,
	},
	{
		providers: ["google"],
		ids: ["gemini-2.5-flash-preview-09-2025"],
		retiresOn: "2026-02-17",
		source: geminiChangelog,
	},
	{
		providers: ["google-vertex"],
		ids: ["gemini-2.0-flash", "gemini-2.0-flash-001"],
		retiresOn: "2026-02-05",
		source: vertexModelVersions,
	},
	{
		providers: ["google-vertex"],
		ids: ["gemini-2.0-flash-lite", "gemini-2.0-flash-lite-001"],
		retiresOn: "2026-02-25",
		source: vertexModelVersions,
	},

	// xAI
	{
		providers: ["xai"],
		ids: [
			"grok-4-1-fast-reasoning",
			"grok-4-1-fast-non-reasoning",
			"grok-4-fast-reasoning",
			"grok-4-fast-non-reasoning",
			"grok-4-0709",
			"grok-code-fast-1",
			"grok-3",
		],
		retiresOn: "2026-05-15",
		replacement: "grok-4.3",
		source: xaiMay15Retirement,
	},

	// xAI's models page calls the beta models deprecated and no longer lists them; it gives no date.
	{
		providers: ["xai"],
		ids: ["grok-beta", "grok-vision-beta"],
		withdrawn: true,
		source: "https://docs.x.ai/docs/models",
	},

	// Mistral: the legacy table of the models overview.
	{
		providers: ["mistral"],
		ids: ["codestral-2501"],
		retiresOn: "2025-11-30",
		replacement: "codestral-2508",
		source: mistralModels,
	},
	{ providers: ["mistral"], ids: ["pixtral-12b-2409"], retiresOn: "2025-12-31", source: mistralModels },
];

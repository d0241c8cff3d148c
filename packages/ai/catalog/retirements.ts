// Retirement dates, from each provider's own deprecation page. The generator drops a row whose
// retirement date is before the catalogue's date (the newest source's publication date), and marks
// a row that retires later as `deprecated`, so a call warns. Dates apply to the providers listed:
// partner platforms (Bedrock, Vertex AI, Azure) keep their own schedules and get their own entries.
// Where the provider's page text could not be read, an entry says which secondary source its date
// rests on; such a date is kept until the page itself confirms or corrects it.
import type { ModelRetirement } from "./curated-types.js";

const anthropicDeprecations = "https://platform.claude.com/docs/en/about-claude/model-deprecations";
const anthropicModelStatus = `${anthropicDeprecations}#model-status`;
const anthropicReleaseNotes = "https://platform.claude.com/docs/en/release-notes/overview";
const openAiDeprecations = "https://developers.openai.com/api/docs/deprecations";
const azureLegacyModels = "https://learn.microsoft.com/azure/ai-foundry/openai/concepts/legacy-models";
const geminiChangelog = "https://ai.google.dev/gemini-api/docs/changelog";
const vertexModelVersions = "https://cloud.google.com/vertex-ai/generative-ai/docs/learn/model-versions";
const xaiMay15Retirement = "https://docs.x.ai/docs/migration/may-15-retirement";
/** Mistral's model cards give each model's deprecation and retirement dates and its API names. */
const mistralModelCard = (slug: string) => `https://docs.mistral.ai/models/model-cards/${slug}`;

export const MODEL_RETIREMENTS: readonly ModelRetirement[] = [
	// Anthropic: dates for the Claude API (Anthropic-operated platforms). Where the deprecations
	// page's own text was not read, Anthropic's TypeScript SDK gives the same dates: its
	// DEPRECATED_MODELS table (src/resources/messages/messages.ts) warns with each model's
	// end-of-life date until the model is retired.
	{
		providers: ["anthropic"],
		ids: ["claude-2.0", "claude-2.1", "claude-3-sonnet-20240229"],
		retiresOn: "2025-07-21",
		source: anthropicDeprecations,
	},
	// The SDK's table: October 22, 2025 (trackers that give 2025-10-28 saw the day the SDK dropped
	// the entries). The page's own text was not read.
	{
		providers: ["anthropic"],
		ids: ["claude-3-5-sonnet-20240620", "claude-3-5-sonnet-20241022", "claude-3-5-sonnet-latest"],
		retiresOn: "2025-10-22",
		source: anthropicModelStatus,
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
		source: anthropicModelStatus,
	},
	// The SDK's table (June 15th, 2026, the `-0` aliases included); the release notes' own text
	// was not read.
	{
		providers: ["anthropic"],
		ids: ["claude-sonnet-4-20250514", "claude-sonnet-4-0", "claude-opus-4-20250514", "claude-opus-4-0"],
		retiresOn: "2026-06-15",
		source: anthropicReleaseNotes,
	},
	// The SDK's table: August 5th, 2026; the page's own text was not read.
	{
		providers: ["anthropic"],
		ids: ["claude-opus-4-1-20250805", "claude-opus-4-1"],
		retiresOn: "2026-08-05",
		source: anthropicModelStatus,
	},
	// The model's own page: deprecated, retires on 2026-11-30, replaced by Claude Sonnet 5.5. The
	// page names the dated id; `claude-sonnet-4-5` is the alias of that snapshot.
	{
		providers: ["anthropic"],
		ids: ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5"],
		retiresOn: "2026-11-30",
		replacement: "claude-sonnet-5-5",
		source: "https://platform.claude.com/docs/en/models/sonnet-4-5/overview",
	},

	// OpenAI: dates for the OpenAI API. OpenAI's API reference marks each retiring model id
	// "Deprecated. Announced shutdown date: …" (developers.openai.com/api/reference, and the same
	// text in the SDKs generated from it: openai-ruby's ChatModel and ResponsesModel enums); every
	// date below was read there unless its entry says otherwise.
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
		source: `${openAiDeprecations}#2026-04-22-legacy-gpt-model-snapshots`,
	},
	// The same announcement: specialised variants shut down earlier, on 2026-07-23. The API reference
	// no longer lists gpt-5.1-codex-mini and gpt-5.2-codex; their date is the announcement's table,
	// read in a copy of the deprecations page's history.
	{
		providers: ["openai"],
		ids: [
			"gpt-5-chat-latest",
			"gpt-5-codex",
			"gpt-5.1-chat-latest",
			"gpt-5.1-codex",
			"gpt-5.1-codex-max",
			"gpt-5.1-codex-mini",
			"gpt-5.2-codex",
			"o3-deep-research",
			"o4-mini-deep-research",
		],
		retiresOn: "2026-07-23",
		source: `${openAiDeprecations}#2026-04-22-legacy-gpt-model-snapshots`,
	},
	{
		providers: ["openai"],
		ids: ["gpt-5.2-chat-latest", "gpt-5.3-chat-latest"],
		retiresOn: "2026-08-10",
		replacement: "gpt-5.5",
		source: `${openAiDeprecations}#2026-05-08-gpt-52-chat-latest-and-gpt-53-chat-latest-model-snapshots`,
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
	// The same announcement as GPT-5's; the replacement is not in the text read.
	{
		providers: ["openai"],
		ids: ["gpt-5-pro", "gpt-5-pro-2025-10-06", "o3", "o3-2025-04-16", "o3-pro", "o3-pro-2025-06-10"],
		retiresOn: "2026-12-11",
		source: openAiDeprecations,
	},
	{ providers: ["openai"], ids: ["codex-mini-latest"], retiresOn: "2026-02-12", source: openAiDeprecations },
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

	// Mistral: each model card's retirement date and API names. A card also lists the `-latest`
	// aliases it held (devstral-latest, devstral-medium-latest, magistral-medium-latest,
	// pixtral-large-latest); those stay, because Mistral's lifecycle page says an alias moves to the
	// newest generally available model, and no card says what these four point to after retirement.
	// The replacement is the catalogue id of the model the card names; none where it names Mistral
	// Medium 3.5, whose card's API name (`mistral-medium-3-5`) matches no catalogue row.
	...(
		[
			["codestral-25-01", ["codestral-2501"], "2025-11-30", "codestral-2508"],
			["pixtral-12b-24-09", ["pixtral-12b-2409"], "2025-12-31", "ministral-14b-2512"],
			["mistral-7b-0-3", ["open-mistral-7b"], "2025-03-30", "ministral-8b-2512"],
			["mixtral-8x7b-0-1", ["open-mixtral-8x7b"], "2025-03-30", "mistral-small-2603"],
			["mixtral-8x22b-0-1-0-3", ["open-mixtral-8x22b"], "2025-03-30", "mistral-small-2603"],
			["devstral-small-1-0-25-05", ["devstral-small-2505"], "2025-11-30", undefined],
			["devstral-small-1-1-25-07", ["devstral-small-2507"], "2026-05-31", "mistral-small-2603"],
			["devstral-small-2-25-12", ["labs-devstral-small-2512"], "2026-03-31", undefined],
			["devstral-medium-1-0-25-07", ["devstral-medium-2507"], "2026-05-31", undefined],
			["devstral-2-25-12", ["devstral-2512"], "2026-07-31", undefined],
			["mistral-large-2-1-24-11", ["mistral-large-2411"], "2026-05-31", undefined],
			["mistral-medium-3-25-05", ["mistral-medium-2505"], "2026-08-31", undefined],
			["mistral-medium-3-1-25-08", ["mistral-medium-2508"], "2026-08-31", undefined],
			["mistral-small-3-2-25-06", ["mistral-small-2506"], "2026-07-31", "mistral-small-2603"],
			["mistral-nemo-12b-24-07", ["open-mistral-nemo"], "2026-07-31", "ministral-8b-2512"],
		] as const
	).map(
		([slug, ids, retiresOn, replacement]): ModelRetirement => ({
			providers: ["mistral"],
			ids,
			retiresOn,
			...(replacement ? { replacement } : {}),
			source: mistralModelCard(slug),
		}),
	),
];

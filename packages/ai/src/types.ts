import type { TSchema } from "@sinclair/typebox";
import type { ToolParameters } from "./schema/tool-parameters.js";

// ---------------------------------------------------------------------------
// APIs and providers: open string unions, so custom ids type-check.
// ---------------------------------------------------------------------------

export type KnownApi =
	| "anthropic-messages"
	| "openai-completions"
	| "openai-responses"
	| "azure-openai-responses"
	| "openai-codex-responses"
	| "google-generative-ai"
	| "google-gemini-cli"
	| "google-vertex"
	| "mistral-conversations"
	| "bedrock-converse-stream"
	| "faux";

// `string & {}` keeps autocompletion for the known ids while accepting any string.
export type Api = KnownApi | (string & {});

export type KnownProvider =
	| "anthropic"
	| "openai"
	| "azure-openai-responses"
	| "openai-codex"
	| "google"
	| "google-gemini-cli"
	| "google-antigravity"
	| "google-vertex"
	| "amazon-bedrock"
	| "mistral"
	| "groq"
	| "cerebras"
	| "xai"
	| "openrouter"
	| "vercel-ai-gateway"
	| "zai"
	| "minimax"
	| "minimax-cn"
	| "huggingface"
	| "opencode"
	| "opencode-go"
	| "kimi-coding"
	| "github-copilot"
	| "deepseek"
	| "fireworks"
	| "moonshotai"
	| "moonshotai-cn"
	| "cloudflare-workers-ai"
	| "cloudflare-ai-gateway"
	| "xiaomi"
	| "xiaomi-token-plan-ams"
	| "xiaomi-token-plan-cn"
	| "xiaomi-token-plan-sgp"
	| "together"
	| "baseten"
	| "nvidia"
	| "meta"
	| "qwen-token-plan"
	| "qwen-token-plan-cn"
	| "qwen-token-plan-individual"
	| "qwen-token-plan-individual-cn"
	| "zai-coding-cn"
	| "ant-ling";

export type Provider = KnownProvider | (string & {});

/**
 * Unified reasoning level for streamSimple. Undefined means thinking is off. "xhigh" and "max" exist
 * only on models whose `thinkingLevelMap` declares them; elsewhere they move to the nearest level the
 * model has (models/thinking-levels.ts).
 */
export type ThinkingLevel = "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/** Token budgets for providers that take a budget; xhigh and max use the high budget. */
export interface ThinkingBudgets {
	minimal?: number;
	low?: number;
	medium?: number;
	high?: number;
}

export type CacheRetention = "none" | "short" | "long";

export type Transport = "sse" | "websocket" | "websocket-cached" | "auto";

// ---------------------------------------------------------------------------
// Content blocks
// ---------------------------------------------------------------------------

/** The JSON stored in `TextContent.textSignature` by OpenAI Responses. */
export interface TextSignatureV1 {
	v: 1;
	id: string;
	phase?: "commentary" | "final_answer";
}

export interface TextContent {
	type: "text";
	text: string;
	/** Provider-specific opaque data (OpenAI Responses item JSON, Google thought signature). */
	textSignature?: string;
}

export interface ThinkingContent {
	type: "thinking";
	thinking: string;
	/** Signature or opaque encrypted reasoning needed to replay this block to the same model. */
	thinkingSignature?: string;
	/** The model's reasoning was redacted; the encrypted payload is in `thinkingSignature`. */
	redacted?: true;
}

export interface ImageContent {
	type: "image";
	/** Base64 data, without a `data:` prefix. */
	data: string;
	mimeType: string;
}

/**
 * A document given to the model: a PDF, or a text file (text/plain, text/markdown, text/csv,
 * text/html, application/json, …). Exactly one of `data` and `url` is set. Models whose `input`
 * includes "pdf" read PDFs; every model reads text files (APIs without a text document block get
 * the decoded text). See docs/files.md for what each API takes.
 */
export interface FileContent {
	type: "file";
	/** The media type, e.g. "application/pdf" or "text/plain". */
	mimeType: string;
	/** Base64 bytes, without a `data:` prefix. */
	data?: string;
	/**
	 * Where the API fetches the file itself: an https URL, or a provider file reference such as a
	 * Gemini Files API URI (`https://generativelanguage.googleapis.com/v1beta/files/…`) or `gs://…`.
	 */
	url?: string;
	/** Shown to the model; some APIs require one (a default is made from the media type). */
	filename?: string;
}

/** Sound given to the model. Models whose `input` includes "audio" read it. */
export interface AudioContent {
	type: "audio";
	/** The media type, e.g. "audio/wav", "audio/mpeg", "audio/flac", "audio/ogg". */
	mimeType: string;
	/** Base64 bytes, without a `data:` prefix. */
	data: string;
}

/** What a user message may hold besides text and images. */
export type UserContent = TextContent | ImageContent | FileContent | AudioContent;

/**
 * What a tool result may hold: text, images and files (a tool that fetches a PDF returns it as a
 * file block). Each API carries files in tool results its own way; see docs/files.md.
 */
export type ToolResultContent = TextContent | ImageContent | FileContent;

export interface ToolCall {
	type: "toolCall";
	id: string;
	name: string;
	arguments: Record<string, unknown>;
	/** Google thought signature, or OpenRouter encrypted reasoning details (JSON). */
	thoughtSignature?: string;
}

export interface UsageCost {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	total: number;
}

export interface Usage {
	/** Input tokens that were not served from the cache. */
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	totalTokens: number;
	/** USD. */
	cost: UsageCost;
}

export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

// ---------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------

/**
 * Instructions or a tool-set change at one point of the transcript. `Context.systemPrompt` stays the
 * base prompt; a system message changes it from where it stands: `content` adds instructions,
 * `sections` replace named prompt sections (`null` removes one), `toolsAdded` / `toolsRemoved`
 * change `Context.tools`. Replaying the system messages in order gives the current prompt and tools.
 * Each API places them as it can (see the provider pages): APIs with a system role in the
 * conversation send each one where it stands, the others fold them into their system prompt.
 */
export interface SystemMessage {
	role: "system";
	/** Instruction text; empty when the message only changes sections or tools. */
	content: string | TextContent[];
	/**
	 * Named prompt sections, rendered after `content` in the order first declared. A later message
	 * replaces a section by name, and `null` removes it. Keep each section self-delimiting (a tag or
	 * a heading) so the model can relate an update to the original.
	 */
	sections?: Record<string, string | null>;
	/** Full definitions of the tools that become available here (replacing any of the same name). */
	toolsAdded?: Tool[];
	/** Tools that stop being available here. */
	toolsRemoved?: ToolReference[];
	/** Epoch milliseconds. */
	timestamp: number;
}

export interface UserMessage {
	role: "user";
	content: string | UserContent[];
	/** Epoch milliseconds. */
	timestamp: number;
}

export interface AssistantMessageDiagnostic {
	type: string;
	timestamp: number;
	error?: { name?: string; message: string; stack?: string; code?: string | number };
	details?: Record<string, unknown>;
}

export interface AssistantMessage {
	role: "assistant";
	content: (TextContent | ThinkingContent | ToolCall)[];
	api: Api;
	provider: Provider;
	model: string;
	/** The model id the provider reports, when it differs from the requested one. */
	responseModel?: string;
	responseId?: string;
	usage: Usage;
	stopReason: StopReason;
	/** The provider's own stop reason, kept when it is not one we know (never crashes). */
	rawStopReason?: string;
	errorMessage?: string;
	diagnostics?: AssistantMessageDiagnostic[];
	timestamp: number;
}

export interface ToolResultMessage<TDetails = unknown> {
	role: "toolResult";
	toolCallId: string;
	toolName: string;
	content: ToolResultContent[];
	details?: TDetails;
	/**
	 * Tokens and cost the tool itself spent (a tool that calls a model, an agent run as a tool). Not
	 * sent to the model and not the conversation's own usage: sum both to know what a run cost.
	 */
	usage?: Usage;
	isError: boolean;
	timestamp: number;
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

// ---------------------------------------------------------------------------
// Tools and context
// ---------------------------------------------------------------------------

export interface Tool<TParameters extends ToolParameters = ToolParameters> {
	name: string;
	description: string;
	/**
	 * A TypeBox schema, a Standard Schema (Zod 4, Valibot, ArkType, …) or a plain JSON Schema object.
	 * Sent to providers as JSON Schema (a Standard Schema converted by its own library) and used to
	 * validate the model's arguments (AJV for TypeBox and JSON Schema, the library's own validator
	 * for a Standard Schema). See docs/schemas.md.
	 */
	parameters: TParameters;
	/**
	 * Asks the API to hold the model's arguments to the schema exactly (OpenAI Chat Completions and
	 * Responses `strict`, Mistral `strict`, Anthropic `strict`). The schema must then be one the API's
	 * strict mode accepts: every object closed (`additionalProperties: false`) with every property
	 * required. Default false; APIs without the option ignore it.
	 */
	strict?: boolean;
}

/** Names a tool without its definition (a removal in `SystemMessage.toolsRemoved`). */
export interface ToolReference {
	name: string;
}

export interface Context {
	systemPrompt?: string;
	messages: Message[];
	tools?: Tool[];
}

// ---------------------------------------------------------------------------
// Streaming events
// ---------------------------------------------------------------------------

export type AssistantMessageEvent =
	| { type: "start"; partial: AssistantMessage }
	| { type: "text_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "text_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "thinking_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "thinking_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "thinking_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "toolcall_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "toolcall_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall; partial: AssistantMessage }
	| { type: "done"; reason: Extract<StopReason, "stop" | "length" | "toolUse">; message: AssistantMessage }
	| { type: "error"; reason: Extract<StopReason, "error" | "aborted">; error: AssistantMessage };

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

export interface ResponseInfo {
	status: number;
	headers: Record<string, string>;
}

/**
 * One server-sent event exactly as the provider sent it, before Keel parsed its data: the `event:`
 * name when the server gave one, and the `data:` lines joined by "\n" (comment lines such as
 * `: keep-alive` are not events). `data: [DONE]` and keep-alive `ping` events are included.
 */
export interface RawStreamEvent {
	readonly event?: string;
	readonly data: string;
}

/**
 * Sampling parameters by their wire names (`top_p`, `top_k`, `min_p`, `repetition_penalty`,
 * `frequency_penalty`, `presence_penalty`, `seed`, …). See StreamOptions.samplingParams.
 */
export type SamplingParams = Record<string, unknown>;

/** Sampling parameters per thinking level ("off" included). */
export type SamplingParamsByThinkingLevel = Partial<Record<"off" | ThinkingLevel, SamplingParams>>;

export interface StreamOptions {
	temperature?: number;
	/**
	 * Sampling parameters beyond temperature, merged over `Model.samplingParams` (and, through
	 * streamSimple, the model's `samplingParamsByThinkingLevel`) per key. OpenAI-compatible APIs
	 * (Chat Completions, Responses, Azure) and Mistral take the keys into the request body as given,
	 * after the named fields, so a key here overrides them (custom servers such as vLLM or llama.cpp
	 * receive what Keel does not model). Anthropic takes `temperature`, `top_p`, `top_k`; Gemini
	 * takes them in `generationConfig` (top_p as topP); Bedrock takes temperature and top_p in
	 * `inferenceConfig` and other keys in `additionalModelRequestFields`. The Codex endpoint takes
	 * none. A key the model does not take by its catalogue flags is left out (Claude Opus 4.7 and
	 * later take no sampling parameters).
	 */
	samplingParams?: SamplingParams;
	maxTokens?: number;
	signal?: AbortSignal;
	/** Overrides the environment lookup. */
	apiKey?: string;
	/**
	 * What a missing key's error tells the user to do besides setting the environment variable;
	 * default `pass options.apiKey`. An Agent or a command line names its own way in here.
	 */
	missingKeyRemedy?: string;
	transport?: Transport;
	/** Default "short"; `KEEL_CACHE_RETENTION=long` (or `PI_CACHE_RETENTION`) changes the default. */
	cacheRetention?: CacheRetention;
	sessionId?: string;
	/** Called with the request body before it is sent; a non-undefined return replaces it. */
	onPayload?: (payload: unknown, model: Model<Api>) => unknown | undefined | Promise<unknown | undefined>;
	/** Called once with the HTTP status and headers of the response. */
	onResponse?: (response: ResponseInfo, model: Model<Api>) => void | Promise<void>;
	/**
	 * Called with every server-sent event of a successful answer, in order, before Keel parses it
	 * (providers on the shared HTTP transport: Anthropic Messages, OpenAI Chat Completions and
	 * Responses, Azure OpenAI Responses, Gemini, Vertex AI). For logging and for `recordCall` in `@keel/ai/testing`,
	 * which turns a strange stream into a test. A returned promise is awaited before the event is
	 * parsed. Like `onPayload`, a throw (or rejection) ends the call with its message and no retry.
	 * Unset, it costs nothing per event.
	 */
	onRawEvent?: (event: RawStreamEvent, model: Model<Api>) => void | Promise<void>;
	/** Merged last: they override provider and model defaults. */
	headers?: Record<string, string>;
	/**
	 * Bound on the whole call (request, retries and streaming), in ms. Default 60 minutes, so every
	 * call ends; raise it for longer answers (0 or Infinity: no bound).
	 */
	timeoutMs?: number;
	/**
	 * Ends a stream that makes no progress for this long, in ms: no bytes at all, or only keep-alive
	 * traffic (comments, pings, ignored events, part of a line) for 4 times this long since the last
	 * progress. Default 2 minutes; 0 disables it.
	 */
	idleTimeoutMs?: number;
	/** Retries before the first content event. Default 2. */
	maxRetries?: number;
	/**
	 * Cap on one retry delay in ms: a longer retry-after from the server ends the call at once (saying
	 * so), Keel's own backoff is shortened to it. Default 60000; 0 means no cap.
	 */
	maxRetryDelayMs?: number;
	metadata?: Record<string, unknown>;
}

/**
 * Asks for an answer that is one JSON value matching `schema`, through the API's own JSON-schema
 * output: Chat Completions and Mistral `response_format`, Responses `text.format`, Gemini
 * `responseJsonSchema`, Anthropic `output_config.format` (models with structured outputs). The
 * answer arrives as text. `completeObject` / `streamObject` set it and validate the result.
 */
export interface ResponseFormat {
	type: "json_schema";
	/** The schema's name (letters, digits, `_` and `-`, as OpenAI requires). */
	name: string;
	description?: string;
	/** A JSON Schema (a TypeBox schema is one; `buildResponseFormat` converts a Standard Schema); its root is an object. */
	schema: TSchema | Record<string, unknown>;
	/** Constrained decoding that matches the schema exactly, where the API offers it. Default false. */
	strict?: boolean;
}

/** StreamOptions plus provider-specific keys, so `stream()` accepts them without a cast. */
export type ProviderStreamOptions = StreamOptions & Record<string, unknown>;

export interface SimpleStreamOptions extends StreamOptions {
	reasoning?: ThinkingLevel;
	thinkingBudgets?: ThinkingBudgets;
}

// StreamFunction, the contract every provider implements, is in stream-function.ts: it returns the
// event stream class, which is built on these types.

// ---------------------------------------------------------------------------
// Model
// ---------------------------------------------------------------------------

export interface OpenRouterRouting {
	order?: string[];
	only?: string[];
	ignore?: string[];
	allow_fallbacks?: boolean;
	require_parameters?: boolean;
	data_collection?: "allow" | "deny";
	zdr?: boolean;
	quantizations?: string[];
	sort?: string;
	max_price?: Record<string, number>;
	[key: string]: unknown;
}

export interface VercelGatewayRouting {
	only?: string[];
	order?: string[];
}

/**
 * How a Chat Completions server counts the tokens of its `usage` object. Keel's usage is always
 * `input` (prompt tokens not read from the cache), `output` (everything generated, reasoning
 * included), `cacheRead`, `cacheWrite`; this says how to get there from the vendor's numbers.
 */
export interface OpenAICompletionsUsageCounting {
	/**
	 * True when `completion_tokens` already counts `completion_tokens_details.reasoning_tokens`
	 * (OpenAI and most vendors). False for xAI, which counts reasoning beside it: its
	 * `total_tokens` is prompt + completion + reasoning, and Keel adds the reasoning to `output`.
	 */
	reasoningInCompletionTokens: boolean;
	/**
	 * Where the server reports the prompt tokens it read from its cache, a part of `prompt_tokens`:
	 * OpenAI's `prompt_tokens_details.cached_tokens` (also Groq, xAI, OpenRouter, Mistral, vLLM),
	 * DeepSeek's `prompt_cache_hit_tokens`, Moonshot's top-level `cached_tokens`, Mistral's
	 * `num_cached_tokens`. Read first; the other fields are read when it is absent.
	 */
	cachedTokensField:
		| "prompt_tokens_details.cached_tokens"
		| "prompt_cache_hit_tokens"
		| "cached_tokens"
		| "num_cached_tokens";
	/**
	 * True when `prompt_tokens` and `completion_tokens` already count the `audio_tokens` of their
	 * details (every vendor known). False adds them to `input` and `output`.
	 */
	audioInPromptAndCompletionTokens: boolean;
}

export interface OpenAICompletionsCompat {
	/** How the vendor counts reasoning, cached and audio tokens; each field overrides the detected one. */
	usageCounting?: Partial<OpenAICompletionsUsageCounting>;
	supportsStore?: boolean;
	supportsDeveloperRole?: boolean;
	/**
	 * Takes `system` (or `developer`) messages after the conversation started, where they stand.
	 * False folds every system message into the leading one. Default: true, false for self-hosted
	 * servers (many chat templates accept a system message only at the start).
	 */
	supportsMidConversationSystemMessages?: boolean;
	supportsReasoningEffort?: boolean;
	reasoningEffortMap?: Partial<Record<ThinkingLevel, string>>;
	supportsUsageInStreaming?: boolean;
	maxTokensField?: "max_completion_tokens" | "max_tokens";
	requiresToolResultName?: boolean;
	requiresAssistantAfterToolResult?: boolean;
	requiresThinkingAsText?: boolean;
	requiresReasoningContentOnAssistantMessages?: boolean;
	thinkingFormat?: "openai" | "zai" | "qwen" | "qwen-chat-template" | "openrouter" | "deepseek";
	supportsStrictMode?: boolean;
	zaiToolStream?: boolean;
	cacheControlFormat?: "anthropic";
	sendSessionAffinityHeaders?: boolean;
	supportsLongCacheRetention?: boolean;
	openRouterRouting?: OpenRouterRouting;
	vercelGatewayRouting?: VercelGatewayRouting;
}

export interface OpenAIResponsesCompat {
	sendSessionIdHeader?: boolean;
	supportsLongCacheRetention?: boolean;
}

export interface AnthropicMessagesCompat {
	supportsEagerToolInputStreaming?: boolean;
	/**
	 * Takes `output_config.format` (JSON outputs) and `strict` tools. Default: Claude 4.5 and later
	 * model ids, which Anthropic documents as supporting structured outputs.
	 */
	supportsStructuredOutputs?: boolean;
	supportsLongCacheRetention?: boolean;
	/** Takes `temperature`. Default: false for Claude Opus 4.7 and later, which reject it with HTTP 400. */
	supportsTemperature?: boolean;
	/**
	 * Returns thinking blocks empty unless asked for `display: "summarized"` (Claude Opus 4.7 and
	 * later, Sonnet 5, Fable 5); Keel then asks for it unless `thinkingDisplay` says otherwise.
	 */
	omitsThinkingByDefault?: boolean;
	/**
	 * Takes `{role: "system"}` entries in `messages` (Claude Opus 4.8 on the Claude API). Without it,
	 * system messages inside the conversation are sent as marked text in the user turn.
	 */
	supportsMidConversationSystemMessages?: boolean;
}

/** How a model served by Mistral's chat completions API is driven. */
export interface MistralConversationsCompat {
	/**
	 * How a reasoning model's thinking is requested. "prompt-mode": Magistral models, which always
	 * reason, take `prompt_mode: "reasoning"` (their reasoning system prompt). "reasoning-effort":
	 * models with adjustable reasoning take `reasoning_effort`, its values from `thinkingLevelMap`.
	 * Default: "prompt-mode" for ids starting with "magistral", else "reasoning-effort".
	 */
	reasoningFormat?: "prompt-mode" | "reasoning-effort";
}

/**
 * What a model behind Bedrock's Converse API supports. Catalogue rows carry all four, from AWS's
 * documented model features (catalog/generator/bedrock-compat.ts); a model defined elsewhere gets
 * defaults from its id (Claude and Nova ids are recognised), so one whose id says nothing (an
 * application inference profile ARN) sets them explicitly. Image input follows the model's `input`.
 */
export interface BedrockConverseCompat {
	/** Accepts `toolConfig` and toolUse/toolResult blocks. Default true. */
	supportsToolUse?: boolean;
	/** Accepts `system` blocks; without it the system prompt opens the first user message. Default true. */
	supportsSystemPrompt?: boolean;
	/** Accepts `cachePoint` blocks. Default: Claude 3.5 Haiku, 3.7 Sonnet, Claude 4 and later, Nova. */
	supportsPromptCache?: boolean;
	/** Takes Claude's thinking fields and replays signed `reasoningContent`. Default: Claude model ids. */
	claudeThinking?: boolean;
}

export type ModelCompat<TApi extends Api> = TApi extends "openai-completions"
	? OpenAICompletionsCompat
	: TApi extends "openai-responses" | "azure-openai-responses" | "openai-codex-responses"
		? OpenAIResponsesCompat
		: TApi extends "anthropic-messages"
			? AnthropicMessagesCompat
			: TApi extends "mistral-conversations"
				? MistralConversationsCompat
				: TApi extends "bedrock-converse-stream"
					? BedrockConverseCompat
					: Record<string, unknown>;

/** Keys off…max; a string is the provider's value for that level, null means unsupported. */
export type ThinkingLevelMap = Partial<Record<"off" | ThinkingLevel, string | null>>;

export interface ModelCost {
	/** USD per million tokens. */
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	/**
	 * Long-context prices, where the provider publishes them: a request whose prompt (input plus
	 * cache reads and writes) is above `inputTokensAbove` tokens is billed at that tier's prices.
	 */
	tiers?: ModelCostTier[];
}

/** The prices of one long-context tier, USD per million tokens. */
export interface ModelCostTier {
	inputTokensAbove: number;
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
}

/** One kind of input a model reads (see `Model.input`). */
export type ModelInput = "text" | "image" | "pdf" | "audio";

export interface Model<TApi extends Api = Api> {
	id: string;
	name: string;
	api: TApi;
	provider: Provider;
	baseUrl: string;
	reasoning: boolean;
	/**
	 * What the model reads: "text" always; "image" image blocks; "pdf" PDF file blocks; "audio"
	 * audio blocks. Text files are read by every model.
	 */
	input: ModelInput[];
	cost: ModelCost;
	contextWindow: number;
	maxTokens: number;
	headers?: Record<string, string>;
	compat?: ModelCompat<TApi>;
	thinkingLevelMap?: ThinkingLevelMap;
	/** Default sampling parameters for this model; a request's `samplingParams` override them per key. */
	samplingParams?: SamplingParams;
	/** Sampling parameters for the thinking level the model really gets (after clamping), over `samplingParams`. */
	samplingParamsByThinkingLevel?: SamplingParamsByThinkingLevel;
	/**
	 * Set when the provider has announced the model's retirement: calls still work until `retiresOn`,
	 * and each call warns (once per process on the console, and as a diagnostic on the final message).
	 */
	deprecated?: ModelDeprecation;
}

/** A provider's announced retirement of a model, from its own deprecation page. */
export interface ModelDeprecation {
	/** The day requests start to fail, YYYY-MM-DD. */
	retiresOn: string;
	/** The model id the provider recommends instead, when it names one. */
	replacement?: string;
	/** The provider's deprecation page. */
	source: string;
}

// Models for endpoints the catalogue does not know: Ollama, vLLM, LM Studio, llama.cpp, or any
// OpenAI-compatible URL. Three lines get a working model:
//   const model = defineModel({ id: "qwen3:8b", baseUrl: LOCAL_SERVER_URLS.ollama });
//   const reply = await complete(model, { messages: [...] });
// The provider defaults to "custom", which has no environment key, so the openai-completions
// provider sends the request without one instead of failing (local servers need none).
import type {
	Api,
	Model,
	ModelCompat,
	ModelCost,
	ModelInput,
	OpenAICompletionsCompat,
	Provider,
	SamplingParams,
	SamplingParamsByThinkingLevel,
	ThinkingLevelMap,
} from "../types.js";

const MODEL_INPUTS: readonly string[] = ["text", "image", "pdf", "audio"] satisfies ModelInput[];

/** Where the common local servers listen by default, each with its OpenAI-compatible path. */
export const LOCAL_SERVER_URLS = {
	ollama: "http://127.0.0.1:11434/v1",
	lmStudio: "http://127.0.0.1:1234/v1",
	vllm: "http://127.0.0.1:8000/v1",
	llamaCpp: "http://127.0.0.1:8080/v1",
} as const;

export interface ModelDefinition<TApi extends Api = "openai-completions"> {
	/** The model name the server expects, e.g. "qwen3:8b" (Ollama) or "meta-llama/Llama-3.1-8B-Instruct" (vLLM). */
	id: string;
	/** The API root, e.g. http://127.0.0.1:11434/v1. */
	baseUrl: string;
	/** Default "openai-completions". Any api registered with registerApiProvider works. */
	api?: TApi;
	/** Default "custom". Set a catalogue provider's id to use its environment key. */
	provider?: Provider;
	/** Default: the id. */
	name?: string;
	/** Default false. */
	reasoning?: boolean;
	/** Default ["text"]. */
	input?: ModelInput[];
	/** USD per million tokens; default 0 for every part (local inference costs nothing per token). */
	cost?: Partial<ModelCost>;
	/** Default 128000. */
	contextWindow?: number;
	/** Default 16384, or the context window when that is smaller. */
	maxTokens?: number;
	headers?: Record<string, string>;
	/** Merged over the local-server defaults (for openai-completions). */
	compat?: ModelCompat<TApi>;
	thinkingLevelMap?: ThinkingLevelMap;
	/** Default sampling parameters (top_p, top_k, …); a request's samplingParams override them. */
	samplingParams?: SamplingParams;
	/** Sampling parameters per thinking level, over `samplingParams`. */
	samplingParamsByThinkingLevel?: SamplingParamsByThinkingLevel;
}

export const DEFAULT_CONTEXT_WINDOW = 128_000;
export const DEFAULT_MAX_TOKENS = 16_384;

/**
 * What local OpenAI-compatible servers accept: no `store`, no `developer` role, `max_tokens` (which
 * llama.cpp, Ollama, LM Studio and vLLM all read), no `strict` on tools (llama.cpp's grammar
 * conversion rejects it), no `reasoning_effort` unless the model reasons.
 */
function localServerCompat(reasoning: boolean): OpenAICompletionsCompat {
	return {
		supportsStore: false,
		supportsDeveloperRole: false,
		supportsReasoningEffort: reasoning,
		supportsStrictMode: false,
		maxTokensField: "max_tokens",
	};
}

function fail(definition: { id?: unknown }, problem: string): never {
	const label = typeof definition.id === "string" && definition.id.trim() ? ` "${definition.id}"` : "";
	throw new Error(`defineModel${label}: ${problem}`);
}

function checkCount(definition: { id?: unknown }, field: string, value: number | undefined): void {
	if (value === undefined) return;
	if (!Number.isFinite(value) || value <= 0 || !Number.isInteger(value)) {
		fail(definition, `${field} must be a positive whole number of tokens, got ${value}.`);
	}
}

function checkDefinition(definition: ModelDefinition<Api>): void {
	if (typeof definition !== "object" || definition === null) fail({}, "expected an object { id, baseUrl, … }.");
	if (typeof definition.id !== "string" || definition.id.trim() === "") {
		fail(definition, 'id is required: the model name the server expects, e.g. "qwen3:8b".');
	}
	if (typeof definition.baseUrl !== "string" || definition.baseUrl.trim() === "") {
		fail(definition, `baseUrl is required, e.g. "${LOCAL_SERVER_URLS.ollama}" for Ollama.`);
	}
	let url: URL;
	try {
		url = new URL(definition.baseUrl);
	} catch {
		fail(definition, `baseUrl "${definition.baseUrl}" is not a URL; expected e.g. "${LOCAL_SERVER_URLS.ollama}".`);
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") {
		fail(definition, `baseUrl must use http or https, got "${url.protocol}".`);
	}
	checkCount(definition, "contextWindow", definition.contextWindow);
	checkCount(definition, "maxTokens", definition.maxTokens);
	if (
		definition.contextWindow !== undefined &&
		definition.maxTokens !== undefined &&
		definition.maxTokens > definition.contextWindow
	) {
		fail(definition, `maxTokens (${definition.maxTokens}) is larger than contextWindow (${definition.contextWindow}).`);
	}
	for (const [part, rate] of Object.entries(definition.cost ?? {})) {
		if (part === "tiers") continue;
		if (typeof rate === "number" && (!Number.isFinite(rate) || rate < 0)) {
			fail(definition, `cost.${part} must be a number ≥ 0 (USD per million tokens), got ${rate}.`);
		}
	}
	for (const kind of definition.input ?? []) {
		if (!MODEL_INPUTS.includes(kind)) {
			fail(definition, `input may hold ${MODEL_INPUTS.map((name) => `"${name}"`).join(", ")}, got "${kind}".`);
		}
	}
}

/** A model for a custom or local endpoint, with defaults suited to local servers. Throws on bad input. */
export function defineModel<TApi extends Api = "openai-completions">(definition: ModelDefinition<TApi>): Model<TApi> {
	checkDefinition(definition as ModelDefinition<Api>);
	const api = (definition.api ?? "openai-completions") as TApi;
	const reasoning = definition.reasoning ?? false;
	const contextWindow = definition.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
	const input = definition.input ? [...new Set(definition.input)] : ["text" as const];
	const model: Model<TApi> = {
		id: definition.id.trim(),
		name: definition.name ?? definition.id.trim(),
		api,
		provider: definition.provider ?? "custom",
		// The SDKs join paths onto the base URL; a trailing slash would double it.
		baseUrl: definition.baseUrl.trim().replace(/\/+$/, ""),
		reasoning,
		input: input.includes("text") ? input : ["text", ...input],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...definition.cost },
		contextWindow,
		maxTokens: definition.maxTokens ?? Math.min(DEFAULT_MAX_TOKENS, contextWindow),
	};
	if (definition.headers) model.headers = { ...definition.headers };
	if (api === "openai-completions") {
		model.compat = { ...localServerCompat(reasoning), ...definition.compat } as ModelCompat<TApi>;
	} else if (definition.compat) {
		model.compat = { ...definition.compat };
	}
	if (definition.thinkingLevelMap) model.thinkingLevelMap = { ...definition.thinkingLevelMap };
	if (definition.samplingParams) model.samplingParams = { ...definition.samplingParams };
	if (definition.samplingParamsByThinkingLevel) {
		model.samplingParamsByThinkingLevel = { ...definition.samplingParamsByThinkingLevel };
	}
	return model;
}

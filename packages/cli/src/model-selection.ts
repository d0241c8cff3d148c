// Which model a command talks to, from `-m provider/id`, `--base-url` and `--api`, or their
// environment variables KEEL_MODEL, KEEL_BASE_URL and KEEL_API (so a shell, or a test, points every
// command at one server).
import {
	type Api,
	clampThinkingLevel,
	defineModel,
	findModel,
	getApiProvider,
	getApiProviders,
	getModels,
	getProviders,
	type Model,
	type ThinkingLevel,
	type ThinkingLevelOrOff,
} from "@keel/ai";
import { UsageError } from "./command.js";
import { readKeelConfig } from "./config/keel-config.js";

export interface ModelFlags {
	model?: string;
	baseUrl?: string;
	api?: string;
}

export const MODEL_OPTIONS = {
	model: { type: "string", short: "m" },
	"base-url": { type: "string" },
	api: { type: "string" },
	key: { type: "string" },
	reasoning: { type: "string" },
} as const;

export const MODEL_OPTIONS_HELP = `  -m, --model provider/id  the model (keel models lists them) or an alias (keel aliases);
                           default $KEEL_MODEL, then the default model (keel models default)
      --base-url URL       any OpenAI-compatible server (Ollama, vLLM, LM Studio, a proxy); -m is
                           then the model name the server expects. Default $KEEL_BASE_URL
      --api name           the wire API of --base-url: openai-completions (default),
                           openai-responses or anthropic-messages. Default $KEEL_API
      --key key            the API key; default $KEEL_API_KEY, then the stored key (keel login),
                           then the provider's environment variable. A --base-url server
                           without either is called with no key
      --reasoning level    off, minimal, low, medium, high, xhigh or max (the nearest level
                           the model supports is used)`;

/** The model named by the flags (or their environment variables). Throws a UsageError that says what exists. */
export function selectModel(
	commandName: string,
	flags: ModelFlags,
	env: Record<string, string | undefined>,
): Model<Api> {
	const config = readKeelConfig(env);
	const named = nonEmpty(flags.model) ?? nonEmpty(env.KEEL_MODEL) ?? nonEmpty(config.defaultModel);
	// An alias stands for the model it names (keel aliases set fast anthropic/claude-haiku-4-5).
	const spec = named !== undefined ? (config.aliases[named] ?? named) : undefined;
	const baseUrl = nonEmpty(flags.baseUrl) ?? nonEmpty(env.KEEL_BASE_URL);
	const api = nonEmpty(flags.api) ?? nonEmpty(env.KEEL_API);
	if (spec === undefined) {
		throw new UsageError(
			baseUrl === undefined
				? "no model chosen: pass -m provider/id (`keel models` lists them), set KEEL_MODEL, or store a default with `keel models default <provider/id>`"
				: "--base-url needs -m with the model name the server expects, e.g. -m qwen3:8b",
			commandName,
		);
	}
	if (api !== undefined && getApiProvider(api as Api) === undefined) {
		const known = getApiProviders()
			.map((provider) => provider.api)
			.sort()
			.join(", ");
		throw new UsageError(`unknown API "${api}" for --api (or KEEL_API): use one of ${known}`, commandName);
	}
	if (baseUrl !== undefined) {
		// Only an explicit provider/id takes a catalogue row to another URL (a proxy of that provider);
		// a bare name is what the server calls its model (Ollama's "qwen3:8b").
		const fromCatalogue = spec.includes("/") ? findProviderModel(spec) : undefined;
		if (fromCatalogue && api === undefined) return { ...fromCatalogue, baseUrl: baseUrl.replace(/\/+$/, "") };
		try {
			return defineModel({ id: spec, baseUrl, api: (api ?? "openai-completions") as Api });
		} catch (error) {
			throw new UsageError(error instanceof Error ? error.message : String(error), commandName);
		}
	}
	if (api !== undefined) throw new UsageError("--api applies to a --base-url server only", commandName);
	const model = findCatalogueModel(spec);
	if (model) return model;
	throw new UsageError(unknownModelMessage(spec), commandName);
}

/** "provider/id": the id may hold slashes, as OpenRouter's do. */
function findProviderModel(spec: string): Model<Api> | undefined {
	const slash = spec.indexOf("/");
	return slash > 0 ? findModel(spec.slice(0, slash), spec.slice(slash + 1)) : undefined;
}

/** "provider/id", or a bare id that exactly one provider serves. */
function findCatalogueModel(spec: string): Model<Api> | undefined {
	const model = findProviderModel(spec);
	if (model) return model;
	const matches = modelsWithId(spec);
	return matches.length === 1 ? matches[0] : undefined;
}

function modelsWithId(id: string): Model<Api>[] {
	return (getProviders() as string[]).flatMap((provider) => {
		const model = findModel(provider, id);
		return model ? [model] : [];
	});
}

function unknownModelMessage(spec: string): string {
	const sameId = modelsWithId(spec);
	if (sameId.length > 1) {
		const names = sameId.map((model) => `${model.provider}/${model.id}`).join(", ");
		return `"${spec}" is served by several providers; choose one with -m: ${names}`;
	}
	const slash = spec.indexOf("/");
	const provider = slash > 0 ? spec.slice(0, slash) : undefined;
	if (provider !== undefined && (getProviders() as string[]).includes(provider)) {
		const near = (getModels(provider as never) as Model<Api>[])
			.map((model) => model.id)
			.filter((id) => id.includes(spec.slice(slash + 1).split(/[-.:]/)[0] ?? ""))
			.slice(0, 8);
		const hint = near.length > 0 ? ` Similar: ${near.join(", ")}.` : "";
		return `unknown model "${spec}".${hint} Run \`keel models ${provider}\` to list them`;
	}
	return `unknown model "${spec}": use provider/id (\`keel models --search <text>\` finds it), an alias (\`keel aliases\` lists them), or --base-url for a server Keel does not list`;
}

const LEVELS: readonly ThinkingLevelOrOff[] = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

/** Parses `--reasoning`; returns the level sent (undefined = off) and a note when it had to be clamped. */
export function selectReasoning(
	commandName: string,
	model: Model<Api>,
	value: string | undefined,
): { level: ThinkingLevel | undefined; note?: string } {
	if (value === undefined) return { level: undefined };
	if (!LEVELS.includes(value as ThinkingLevelOrOff)) {
		throw new UsageError(`--reasoning expects one of ${LEVELS.join(", ")}, got "${value}"`, commandName);
	}
	const level = clampThinkingLevel(model, value as ThinkingLevelOrOff);
	const note =
		level === value
			? undefined
			: `${model.provider}/${model.id} does not support reasoning "${value}"; using "${level}"`;
	return { level: level === "off" ? undefined : level, note };
}

function nonEmpty(value: string | undefined): string | undefined {
	return value === undefined || value.trim() === "" ? undefined : value.trim();
}

// Validation of the proxy's request body. The body comes from a browser, so nothing in it is
// trusted: every field is checked, unknown options are dropped, and a bad field is a 400 that says
// which field and why.
import {
	type Context,
	type ContextLimits,
	MessageValidationError,
	type SimpleStreamOptions,
	validateContext,
} from "@keel/ai";
import {
	clampLimit,
	DEFAULT_LIMIT_RANGES,
	LIMIT_OPTION_NAMES,
	type LimitOptionName,
	type ProxyLimitRanges,
} from "./limit-ranges.js";
import { filterBetaHeaders, filterForwardableHeaders, type ProxyForwardedOptions } from "./protocol.js";

/** A request the proxy refuses, with the HTTP status to send. */
export class ProxyRequestError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
		this.name = "ProxyRequestError";
	}
}

/** What the server's configuration lets a browser ask for. */
export interface RequestPolicy {
	/** Which header names may be forwarded; default `isForwardableHeader`. */
	isHeaderAllowed?: (name: string) => boolean;
	/** The range each limit is clamped into; default `DEFAULT_LIMIT_RANGES`. */
	limitRanges?: ProxyLimitRanges;
	/** Per beta header (lower case), the feature names a browser may turn on; default none. */
	allowedBetaFeatures?: Readonly<Record<string, readonly string[]>>;
	/** Nesting depth and count limits on the context; default @keel/ai's `DEFAULT_CONTEXT_LIMITS`. */
	contextLimits?: ContextLimits;
}

export interface ValidatedProxyRequest {
	model: { provider: string; id: string };
	context: Context;
	options: ProxyForwardedOptions;
}

const thinkingLevels = new Set(["minimal", "low", "medium", "high", "xhigh", "max"]);
const cacheRetentions = new Set(["none", "short", "long"]);
const transports = new Set(["sse", "websocket", "websocket-cached", "auto"]);

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(message: string): never {
	throw new ProxyRequestError(400, `Invalid proxy request: ${message}`);
}

/** Checks the parsed JSON body and returns it typed, with only the forwardable options kept. */
export function validateProxyRequest(body: unknown, policy: RequestPolicy = {}): ValidatedProxyRequest {
	if (!isRecord(body)) invalid("the body must be a JSON object with model, context and options");
	const model = body.model;
	if (!isRecord(model) || typeof model.provider !== "string" || typeof model.id !== "string") {
		invalid('"model" must be {"provider": string, "id": string}');
	}
	return {
		model: { provider: model.provider, id: model.id },
		context: validateRequestContext(body.context, policy.contextLimits),
		options: validateOptions(body.options ?? {}, policy),
	};
}

/**
 * The whole context, with @keel/ai's validator (the one sessions use for stored messages): every
 * message and content block field by field, unknown block types refused, tools, and limits on
 * nesting depth and counts. Nothing reaches the stream function unless all of it holds.
 */
function validateRequestContext(context: unknown, limits: ContextLimits | undefined): Context {
	try {
		return validateContext(context, limits, "context");
	} catch (error) {
		if (error instanceof MessageValidationError) invalid(`"${error.field}" ${error.problem}`);
		throw error;
	}
}

function optionalNumber(
	options: Record<string, unknown>,
	name: string,
	check: (value: number) => boolean,
	expected: string,
): number | undefined {
	const value = options[name];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "number" || !Number.isFinite(value) || !check(value)) {
		invalid(`"options.${name}" must be ${expected}, got ${JSON.stringify(value)}`);
	}
	return value;
}

function limitValue(options: Record<string, unknown>, name: LimitOptionName): number | undefined {
	const value = options[name];
	if (value === undefined || value === null) return undefined;
	// JSON has no Infinity, but 1e400 parses to it: like 0 it means "no limit", and is clamped too.
	if (typeof value !== "number" || Number.isNaN(value) || value < 0) {
		invalid(`"options.${name}" must be a number of milliseconds >= 0, got ${JSON.stringify(value)}`);
	}
	return value;
}

function optionalChoice<TValue extends string>(
	options: Record<string, unknown>,
	name: string,
	choices: Set<string>,
): TValue | undefined {
	const value = options[name];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "string" || !choices.has(value)) {
		invalid(`"options.${name}" must be one of ${[...choices].join(", ")}, got ${JSON.stringify(value)}`);
	}
	return value as TValue;
}

const MAX_SAMPLING_PARAMS = 32;
const SAMPLING_KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/**
 * Sampling parameters as numbers under plain names: OpenAI-compatible APIs put the keys into the
 * request body as given, so anything else (an object, a key such as "model" or "messages"
 * replacing a field of the body) could change what the server's key is spent on.
 */
function validateSamplingParams(value: unknown): Record<string, number> | undefined {
	if (value === undefined || value === null) return undefined;
	if (!isRecord(value)) invalid('"options.samplingParams" must be an object of numbers');
	const entries = Object.entries(value);
	if (entries.length > MAX_SAMPLING_PARAMS)
		invalid(`"options.samplingParams" may have at most ${MAX_SAMPLING_PARAMS} keys`);
	const params: Record<string, number> = {};
	for (const [key, number] of entries) {
		if (!SAMPLING_KEY.test(key) || RESERVED_BODY_FIELDS.has(key)) {
			invalid(`"options.samplingParams" may not set ${JSON.stringify(key)}`);
		}
		if (typeof number !== "number" || !Number.isFinite(number)) {
			invalid(`"options.samplingParams.${key}" must be a number`);
		}
		params[key] = number;
	}
	return params;
}

// Request-body fields a sampling key must not replace (model choice, conversation, output size,
// tools, streaming and storage), on Chat Completions, Responses and Mistral.
const RESERVED_BODY_FIELDS = new Set([
	"model",
	"messages",
	"input",
	"instructions",
	"stream",
	"stream_options",
	"store",
	"tools",
	"tool_choice",
	"max_tokens",
	"max_completion_tokens",
	"max_output_tokens",
	"n",
	"reasoning",
	"reasoning_effort",
	"previous_response_id",
	"prompt_cache_key",
	"metadata",
	"user",
	"service_tier",
]);

function validateOptions(options: unknown, policy: RequestPolicy): ProxyForwardedOptions & SimpleStreamOptions {
	if (!isRecord(options)) invalid('"options" must be an object');
	const validated: ProxyForwardedOptions = {};
	const temperature = optionalNumber(options, "temperature", (value) => value >= 0 && value <= 2, "between 0 and 2");
	if (temperature !== undefined) validated.temperature = temperature;
	const samplingParams = validateSamplingParams(options.samplingParams);
	if (samplingParams) validated.samplingParams = samplingParams;
	const maxTokens = optionalNumber(
		options,
		"maxTokens",
		(value) => Number.isInteger(value) && value > 0,
		"a positive integer",
	);
	if (maxTokens !== undefined) validated.maxTokens = maxTokens;
	const reasoning = optionalChoice<NonNullable<ProxyForwardedOptions["reasoning"]>>(
		options,
		"reasoning",
		thinkingLevels,
	);
	if (reasoning !== undefined) validated.reasoning = reasoning;
	const cacheRetention = optionalChoice<NonNullable<ProxyForwardedOptions["cacheRetention"]>>(
		options,
		"cacheRetention",
		cacheRetentions,
	);
	if (cacheRetention !== undefined) validated.cacheRetention = cacheRetention;
	const transport = optionalChoice<NonNullable<ProxyForwardedOptions["transport"]>>(options, "transport", transports);
	if (transport !== undefined) validated.transport = transport;
	if (options.sessionId !== undefined && options.sessionId !== null) {
		if (typeof options.sessionId !== "string") invalid('"options.sessionId" must be a string');
		validated.sessionId = options.sessionId;
	}
	if (options.thinkingBudgets !== undefined && options.thinkingBudgets !== null) {
		if (!isRecord(options.thinkingBudgets)) invalid('"options.thinkingBudgets" must be an object');
		const budgets: Record<string, number> = {};
		for (const level of ["minimal", "low", "medium", "high"]) {
			const budget = optionalNumber(
				options.thinkingBudgets,
				level,
				(value) => Number.isInteger(value) && value >= 0,
				"an integer >= 0",
			);
			if (budget !== undefined) budgets[level] = budget;
		}
		validated.thinkingBudgets = budgets;
	}
	if (options.metadata !== undefined && options.metadata !== null) {
		if (!isRecord(options.metadata)) invalid('"options.metadata" must be an object');
		validated.metadata = options.metadata;
	}
	if (options.headers !== undefined && options.headers !== null) {
		if (!isRecord(options.headers)) invalid('"options.headers" must be an object of strings');
		// Credential and framing headers are dropped silently: the client filters them too, so only a
		// hand-made request sends them, and dropping is the safe answer either way.
		const forwardable = filterForwardableHeaders(options.headers as Record<string, string>, policy.isHeaderAllowed);
		// Beta headers turn on features billed to the server's key: only those the server allows.
		const headers = filterBetaHeaders(forwardable, policy.allowedBetaFeatures ?? {});
		if (headers) validated.headers = headers;
	}
	// A browser must not switch off or stretch the server's watchdogs: each limit is clamped into the
	// range the server configured. 0 means "no limit" in @keel/ai, so it becomes the range's maximum.
	const ranges = policy.limitRanges ?? DEFAULT_LIMIT_RANGES;
	for (const name of LIMIT_OPTION_NAMES) {
		const value = limitValue(options, name);
		if (value !== undefined) validated[name] = clampLimit(value, ranges[name]);
	}
	return validated;
}

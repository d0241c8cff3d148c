// Validation of the proxy's request body. The body comes from a browser, so nothing in it is
// trusted: every field is checked, unknown options are dropped, and a bad field is a 400 that says
// which field and why.
import type { Context, SimpleStreamOptions } from "@keel/ai";
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
}

export interface ValidatedProxyRequest {
	model: { provider: string; id: string };
	context: Context;
	options: ProxyForwardedOptions;
}

const thinkingLevels = new Set(["minimal", "low", "medium", "high", "xhigh"]);
const cacheRetentions = new Set(["none", "short", "long"]);
const transports = new Set(["sse", "websocket", "websocket-cached", "auto"]);
const roles = new Set(["user", "assistant", "toolResult"]);

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
		context: validateContext(body.context),
		options: validateOptions(body.options ?? {}, policy),
	};
}

function validateContext(context: unknown): Context {
	if (!isRecord(context)) invalid('"context" must be an object with a messages array');
	if (context.systemPrompt !== undefined && typeof context.systemPrompt !== "string") {
		invalid('"context.systemPrompt" must be a string');
	}
	if (!Array.isArray(context.messages)) invalid('"context.messages" must be an array');
	context.messages.forEach((message: unknown, index: number) => {
		if (!isRecord(message) || typeof message.role !== "string" || !roles.has(message.role)) {
			invalid(`"context.messages[${index}].role" must be "user", "assistant" or "toolResult"`);
		}
		const content = message.content;
		const contentIsValid =
			message.role === "user" ? typeof content === "string" || Array.isArray(content) : Array.isArray(content);
		if (!contentIsValid)
			invalid(`"context.messages[${index}].content" has the wrong type for a ${message.role} message`);
	});
	if (context.tools !== undefined) {
		if (!Array.isArray(context.tools)) invalid('"context.tools" must be an array');
		context.tools.forEach((tool: unknown, index: number) => {
			if (!isRecord(tool) || typeof tool.name !== "string" || !isRecord(tool.parameters)) {
				invalid(`"context.tools[${index}]" must have a string name and an object parameters schema`);
			}
			if (tool.description !== undefined && typeof tool.description !== "string") {
				invalid(`"context.tools[${index}].description" must be a string`);
			}
		});
	}
	// Only the three known fields travel on; anything else a client adds is dropped.
	const validated: Context = { messages: context.messages as Context["messages"] };
	if (context.systemPrompt !== undefined) validated.systemPrompt = context.systemPrompt as string;
	if (context.tools !== undefined) validated.tools = context.tools as Context["tools"];
	return validated;
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

function validateOptions(options: unknown, policy: RequestPolicy): ProxyForwardedOptions & SimpleStreamOptions {
	if (!isRecord(options)) invalid('"options" must be an object');
	const validated: ProxyForwardedOptions = {};
	const temperature = optionalNumber(options, "temperature", (value) => value >= 0 && value <= 2, "between 0 and 2");
	if (temperature !== undefined) validated.temperature = temperature;
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

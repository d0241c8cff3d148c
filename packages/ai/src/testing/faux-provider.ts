// An in-memory provider for tests: scripted responses streamed through the same harness as the
// real providers (createProviderStream + AssistantMessageBuilder), so abort, error and event-order
// behaviour is the real contract. No network, no timers unless pacing is asked for, no randomness.

import { type ApiProvider, registerApiProvider, unregisterApiProviders } from "../api-registry.js";
import { createProviderStream, type ProviderAttempt } from "../call/provider-stream.js";
import { toJsonSchema } from "../schema/to-json-schema.js";
import type { Api, Context, Message, Model, SimpleStreamOptions, StopReason, StreamOptions, Tool } from "../types.js";
import { formatThrownValue } from "../utils/error-message.js";
import type { AssistantMessageEventStream } from "../utils/event-stream.js";

// --- scripts -----------------------------------------------------------------------------------

export interface FauxTextBlock {
	type: "text";
	text: string;
}

export interface FauxThinkingBlock {
	type: "thinking";
	thinking: string;
	thinkingSignature?: string;
}

export interface FauxToolCallBlock {
	type: "toolCall";
	/** Default: `faux_call_<call number>_<block index>`, so ids are stable across runs. */
	id?: string;
	name: string;
	arguments: Record<string, unknown>;
}

export type FauxContentBlock = FauxTextBlock | FauxThinkingBlock | FauxToolCallBlock;

/** One scripted answer. An `AssistantMessage` is a valid script too. */
export interface FauxAssistantScript {
	content: FauxContentBlock[];
	/** Default: "toolUse" when the content holds tool calls, else "stop". */
	stopReason?: StopReason;
	/** For stopReason "error" or "aborted"; the content is streamed first, then the error. */
	errorMessage?: string;
}

export interface FauxRequest {
	model: Model<Api>;
	/** A snapshot: later changes to the caller's messages array do not show here. */
	context: Context;
	options: StreamOptions | SimpleStreamOptions | undefined;
	/** Which entry point was called. */
	entry: "stream" | "streamSimple";
}

/** A script, a bare string (one text block), or a function that builds the script from the request. */
export type FauxResponse =
	| FauxAssistantScript
	| string
	| ((
			context: Context,
			options: StreamOptions | SimpleStreamOptions | undefined,
			callIndex: number,
	  ) => FauxAssistantScript | string | Promise<FauxAssistantScript | string>);

export function fauxText(text: string): FauxTextBlock {
	return { type: "text", text };
}

export function fauxThinking(thinking: string, signature?: string): FauxThinkingBlock {
	return signature === undefined
		? { type: "thinking", thinking }
		: { type: "thinking", thinking, thinkingSignature: signature };
}

export function fauxToolCall(name: string, args: Record<string, unknown> = {}, id?: string): FauxToolCallBlock {
	return id === undefined
		? { type: "toolCall", name, arguments: args }
		: { type: "toolCall", id, name, arguments: args };
}

/** A script from blocks (or one block, or a string; "" is no content); `stopReason: "error"` needs no other field. */
export function fauxAssistantMessage(
	content: FauxContentBlock[] | FauxContentBlock | string,
	options: { stopReason?: StopReason; errorMessage?: string } = {},
): FauxAssistantScript {
	// An empty string means no content at all (an error before any output), not an empty text block.
	const fromString = (text: string) => (text === "" ? [] : [fauxText(text)]);
	const blocks = typeof content === "string" ? fromString(content) : Array.isArray(content) ? content : [content];
	return { content: blocks, ...options };
}

// --- registration ------------------------------------------------------------------------------

export type FauxModelDefinition = { id: string } & Partial<Omit<Model<Api>, "id" | "api">>;

export interface FauxProviderOptions<TApi extends string = "faux"> {
	/** The api id to register. Default "faux". */
	api?: TApi;
	/** The provider name on models and messages. Default "faux". */
	provider?: string;
	/** Models `getModel` knows. Default one model, "faux-model". Cost is zero unless given. */
	models?: FauxModelDefinition[];
	/** Characters per streamed delta. Default 4 (about one token). */
	chunkCharacters?: number;
	/** Paces delivery with timers at this many (estimated) tokens per second. Default: as fast as possible. */
	tokensPerSecond?: number;
	/** Responses to queue at once. */
	responses?: FauxResponse[];
}

export interface FauxProviderState {
	/** Calls received (stream and streamSimple), including those that found no response queued. */
	callCount: number;
	requests: FauxRequest[];
}

export interface FauxProviderRegistration<TApi extends string = "faux"> {
	readonly api: TApi;
	readonly provider: string;
	readonly state: FauxProviderState;
	/** A model of this registration: the first one, or the one with this id (throws for an unknown id). */
	getModel(id?: string): Model<TApi>;
	/** Replaces the queue. */
	setResponses(responses: FauxResponse[]): void;
	appendResponses(responses: FauxResponse[]): void;
	getPendingResponseCount(): number;
	/** Removes this registration from the API registry (a later registration of the same api is kept). */
	unregister(): void;
}

export const NO_MORE_FAUX_RESPONSES = "No more faux responses queued";

let registrationCounter = 0;

/** Registers an in-memory provider for `api` (default "faux") and returns its controls. */
export function registerFauxProvider<TApi extends string = "faux">(
	options: FauxProviderOptions<TApi> = {},
): FauxProviderRegistration<TApi> {
	const { streams, controls } = createFauxStreams(options);
	const sourceId = `faux:${controls.api}:${++registrationCounter}`;
	registerApiProvider({ api: controls.api, ...streams }, sourceId);
	return { ...controls, unregister: () => unregisterApiProviders(sourceId) };
}

/** The faux provider's stream functions and controls, registered nowhere (for a `Models` collection). */
export function createFauxStreams<TApi extends string = "faux">(
	options: FauxProviderOptions<TApi> = {},
): {
	streams: Pick<ApiProvider<TApi>, "stream" | "streamSimple">;
	controls: Omit<FauxProviderRegistration<TApi>, "unregister"> & { readonly models: Model<TApi>[] };
} {
	// Without options.api, TApi is its default "faux", so the cast states what the default makes true.
	const api = options.api ?? ("faux" as TApi);
	const provider = options.provider ?? "faux";
	const chunkCharacters = options.chunkCharacters ?? 4;
	if (!Number.isInteger(chunkCharacters) || chunkCharacters < 1) {
		throw new Error(`registerFauxProvider: chunkCharacters must be a positive integer, got ${chunkCharacters}`);
	}
	const tokensPerSecond = options.tokensPerSecond;
	if (tokensPerSecond !== undefined && !(tokensPerSecond > 0)) {
		throw new Error(`registerFauxProvider: tokensPerSecond must be positive, got ${tokensPerSecond}`);
	}
	const definitions = options.models ?? [{ id: "faux-model" }];
	if (definitions.length === 0) throw new Error("registerFauxProvider: models must not be empty");
	const models = definitions.map((definition) => buildModel(api, provider, definition));

	const queue: FauxResponse[] = [...(options.responses ?? [])];
	const state: FauxProviderState = { callCount: 0, requests: [] };
	const cachedPrompts = new Map<string, string>();
	const playback: Playback = { chunkCharacters, tokensPerSecond, cachedPrompts };

	const start = (
		entry: FauxRequest["entry"],
		model: Model<Api>,
		context: Context,
		requestOptions: StreamOptions | SimpleStreamOptions | undefined,
	): AssistantMessageEventStream => {
		// The response is taken now, in call order, so concurrent calls get deterministic answers.
		const callIndex = state.callCount++;
		state.requests.push({ model, context: snapshot(context), options: requestOptions, entry });
		const response = queue.shift();
		return createProviderStream(
			model,
			requestOptions,
			(attempt) => play(attempt, response, context, requestOptions, callIndex, playback),
			{ requiresApiKey: false, context },
		);
	};

	const streams = {
		stream: (model: Model<TApi>, context: Context, requestOptions?: StreamOptions) =>
			start("stream", model, context, requestOptions),
		streamSimple: (model: Model<TApi>, context: Context, requestOptions?: SimpleStreamOptions) =>
			start("streamSimple", model, context, requestOptions),
	};

	const controls: Omit<FauxProviderRegistration<TApi>, "unregister"> & { readonly models: Model<TApi>[] } = {
		api,
		models,
		provider,
		state,
		getModel(id) {
			if (id === undefined) return models[0];
			const found = models.find((model) => model.id === id);
			if (!found) {
				const known = models.map((model) => `"${model.id}"`).join(", ");
				throw new Error(`Unknown faux model "${id}": this registration has ${known}; add it to options.models`);
			}
			return found;
		},
		setResponses(responses) {
			queue.length = 0;
			queue.push(...responses);
		},
		appendResponses(responses) {
			queue.push(...responses);
		},
		getPendingResponseCount: () => queue.length,
	};
	return { streams, controls };
}

function buildModel<TApi extends string>(api: TApi, provider: string, definition: FauxModelDefinition): Model<TApi> {
	return {
		name: definition.id,
		provider,
		baseUrl: "faux://local",
		reasoning: true,
		input: ["text", "image"],
		contextWindow: 128_000,
		maxTokens: 16_384,
		...definition,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...definition.cost },
		api,
	} as Model<TApi>; // `compat` is typed per api; a faux model's compat is whatever the test gave.
}

function snapshot(context: Context): Context {
	const copy: Context = { ...context, messages: [...context.messages] };
	if (context.tools) copy.tools = [...context.tools];
	return copy;
}

// --- playback ----------------------------------------------------------------------------------

interface Playback {
	chunkCharacters: number;
	tokensPerSecond: number | undefined;
	/** Per sessionId, the prompt text of the previous request, for simulated prompt caching. */
	cachedPrompts: Map<string, string>;
}

async function play(
	attempt: ProviderAttempt<Api>,
	response: FauxResponse | undefined,
	context: Context,
	options: StreamOptions | SimpleStreamOptions | undefined,
	callIndex: number,
	playback: Playback,
): Promise<void> {
	const { builder, signal } = attempt;
	if (response === undefined) {
		builder.fail("error", NO_MORE_FAUX_RESPONSES);
		return;
	}
	let resolved: FauxAssistantScript | string;
	try {
		resolved = typeof response === "function" ? await response(context, options, callIndex) : response;
	} catch (error) {
		// A throwing script is a test bug: report it once, never retry it.
		builder.fail("error", `Faux response ${callIndex + 1} threw: ${formatThrownValue(error)}`);
		return;
	}
	const script = typeof resolved === "string" ? fauxAssistantMessage(resolved) : resolved;
	if (!script || !Array.isArray(script.content)) {
		builder.fail("error", `Faux response ${callIndex + 1} is not a script: expected { content: [...] } or a string`);
		return;
	}
	builder.setResponseIdentity({ responseId: `faux_response_${callIndex + 1}` });
	const usage = estimateUsage(context, options, playback.cachedPrompts);
	builder.updateUsage(usage);

	let outputCharacters = 0;
	// Waits between chunks: the consumer sees each delta before the next one exists, so an abort
	// on any event leaves exactly the content streamed so far.
	const pace = async (characters: number) => {
		outputCharacters += characters;
		builder.updateUsage({ output: estimateTokens(outputCharacters) });
		attempt.touch();
		await pause(playback.tokensPerSecond, characters, signal);
		if (signal.aborted) throw new Error("aborted");
	};

	for (const [blockIndex, block] of script.content.entries()) {
		if (block.type === "text") {
			const index = builder.startText();
			for (const chunk of chunkText(block.text, playback.chunkCharacters)) {
				builder.appendText(index, chunk);
				await pace(chunk.length);
			}
			builder.endText(index);
		} else if (block.type === "thinking") {
			const index = builder.startThinking();
			for (const chunk of chunkText(block.thinking, playback.chunkCharacters)) {
				builder.appendThinking(index, chunk);
				await pace(chunk.length);
			}
			builder.endThinking(index, block.thinkingSignature);
		} else if (block.type === "toolCall") {
			const index = builder.startToolCall(block.id ?? `faux_call_${callIndex + 1}_${blockIndex}`, block.name);
			for (const chunk of chunkText(JSON.stringify(block.arguments ?? {}), playback.chunkCharacters)) {
				builder.appendToolCallArguments(index, chunk);
				await pace(chunk.length);
			}
			builder.endToolCall(index);
		} else {
			builder.fail("error", `Faux response ${callIndex + 1} has an unknown block type: ${JSON.stringify(block)}`);
			return;
		}
	}

	const stopReason = script.stopReason ?? "stop";
	if (stopReason === "error" || stopReason === "aborted") {
		const fallback = stopReason === "error" ? "Faux response error" : "Request was aborted";
		builder.fail(stopReason, script.errorMessage ?? fallback);
	} else {
		builder.finish(stopReason);
	}
}

/** Splits text into pieces of about `size` UTF-16 units, never between the halves of a surrogate pair. */
export function chunkText(text: string, size: number): string[] {
	const chunks: string[] = [];
	let offset = 0;
	while (offset < text.length) {
		let end = Math.min(text.length, offset + size);
		const last = text.charCodeAt(end - 1);
		if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
		chunks.push(text.slice(offset, end));
		offset = end;
	}
	return chunks;
}

// setImmediate is Node's; a browser bundle (the proxy example) falls back to a zero timer.
const nextMacrotask: (callback: () => void) => void =
	typeof setImmediate === "function" ? (callback) => setImmediate(callback) : (callback) => setTimeout(callback, 0);

/** Waits before the next chunk; resolves early on abort. */
function pause(tokensPerSecond: number | undefined, characters: number, signal: AbortSignal): Promise<void> {
	if (signal.aborted) return Promise.resolve();
	const ms = tokensPerSecond ? (estimateTokens(characters) / tokensPerSecond) * 1000 : 0;
	return new Promise((resolve) => {
		const finish = () => {
			signal.removeEventListener("abort", finish);
			if (timer !== undefined) clearTimeout(timer);
			resolve();
		};
		// Without pacing, setImmediate still lets the consumer see this chunk before the next one.
		const timer = ms > 0 ? setTimeout(finish, ms) : undefined;
		if (timer === undefined) nextMacrotask(finish);
		signal.addEventListener("abort", finish, { once: true });
	});
}

// --- usage -------------------------------------------------------------------------------------

/** About 4 characters per token, rounded up. */
export function estimateTokens(characters: number): number {
	return Math.ceil(characters / 4);
}

// An image counts as this many characters (1000 tokens): a flat rate, since its bytes are not text.
const IMAGE_CHARACTERS = 4000;

/** The request as text, for token estimates and the simulated cache prefix. */
function promptText(context: Context): string {
	let text = context.systemPrompt ?? "";
	for (const tool of context.tools ?? []) text += tool.name + tool.description + JSON.stringify(toolSchemaText(tool));
	for (const message of context.messages) text += messageText(message);
	return text;
}

/** The tool's JSON Schema (a Zod or ArkType schema object is no JSON); the raw parameters when it has none. */
function toolSchemaText(tool: Tool): unknown {
	try {
		return toJsonSchema(tool.parameters);
	} catch {
		return tool.name;
	}
}

function messageText(message: Message): string {
	if (typeof message.content === "string") return message.content;
	let text = "";
	for (const block of message.content) {
		if (block.type === "text") text += block.text;
		else if (block.type === "image") text += "\u0000".repeat(IMAGE_CHARACTERS);
		else if (block.type === "thinking") text += block.thinking;
		else if (block.type === "toolCall") text += block.name + JSON.stringify(block.arguments);
	}
	return text;
}

/**
 * Input tokens from the context. With a sessionId (and cacheRetention not "none"), the prefix
 * shared with the session's previous request counts as a cache read and the rest as a cache
 * write, the way a prompt cache behaves; input is then 0.
 */
function estimateUsage(
	context: Context,
	options: StreamOptions | undefined,
	cachedPrompts: Map<string, string>,
): { input: number; cacheRead: number; cacheWrite: number; output: number } {
	const prompt = promptText(context);
	const sessionId = options?.sessionId;
	if (!sessionId || options?.cacheRetention === "none") {
		return { input: estimateTokens(prompt.length), cacheRead: 0, cacheWrite: 0, output: 0 };
	}
	const previous = cachedPrompts.get(sessionId) ?? "";
	cachedPrompts.set(sessionId, prompt);
	const shared = commonPrefixLength(previous, prompt);
	const cacheRead = estimateTokens(shared);
	const total = estimateTokens(prompt.length);
	return { input: 0, cacheRead, cacheWrite: Math.max(0, total - cacheRead), output: 0 };
}

function commonPrefixLength(first: string, second: string): number {
	const limit = Math.min(first.length, second.length);
	let index = 0;
	while (index < limit && first.charCodeAt(index) === second.charCodeAt(index)) index++;
	return index;
}

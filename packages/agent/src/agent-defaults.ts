// The Agent's defaults: the placeholder model, the stream function that explains it, and the
// default conversion of the transcript to LLM messages.
import {
	type AssistantMessageEventStream,
	createAssistantMessageEventStream,
	createErrorMessage,
	type Message,
	type Model,
	streamSimple,
} from "@keel/ai";
import type { AgentMessage, StreamFn } from "./types.js";

/**
 * The model of an Agent created without one. A call with it never reaches a network: it ends with
 * an error message that says how to set a model.
 */
export const UNKNOWN_MODEL: Model = Object.freeze({
	id: "unknown",
	name: "No model set",
	api: "unknown",
	provider: "unknown",
	baseUrl: "",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 0,
	maxTokens: 0,
}) as Model;

export const NO_MODEL_TEXT =
	"No model set: pass initialState.model to new Agent(), or set agent.state.model " +
	'(for example getModel("anthropic", "claude-sonnet-4-6")) before prompting.';

export function isUnknownModel(model: Model): boolean {
	return model === UNKNOWN_MODEL || (model.api === "unknown" && model.provider === "unknown");
}

/** What a missing key's error tells an Agent's user to do (an Agent has no `options.apiKey`). */
export const AGENT_MISSING_KEY_REMEDY = "give the Agent a getApiKey callback (new Agent({ getApiKey }))";

let installedStreamFn: StreamFn | undefined;

/**
 * Sets the stream function that Agents and loops use when they were given none (undefined restores
 * `streamSimple`). It is process-wide: a server with several tenants passes `streamFn` per Agent
 * instead (for example a `Models` collection's `streamSimple`).
 */
export function setDefaultStreamFn(streamFn: StreamFn | undefined): void {
	if (streamFn !== undefined && typeof streamFn !== "function") {
		throw new TypeError(`setDefaultStreamFn: expected a function or undefined, got ${typeof streamFn}`);
	}
	installedStreamFn = streamFn;
}

/** The stream function used when none is given: the one set by setDefaultStreamFn, else `streamSimple`. */
export function getDefaultStreamFn(): StreamFn {
	return installedStreamFn ?? streamSimple;
}

/**
 * The installed default (read at each call, so setting it later still applies), except that the
 * placeholder model gets a clear error event and a missing key's error names the Agent's own way
 * to give one.
 */
export const defaultStreamFn: StreamFn = (model, context, options) => {
	if (isUnknownModel(model)) return noModelStream(model);
	return (installedStreamFn ?? streamSimple)(model, context, {
		missingKeyRemedy: AGENT_MISSING_KEY_REMEDY,
		...options,
	});
};

function noModelStream(model: Model): AssistantMessageEventStream {
	const stream = createAssistantMessageEventStream();
	const message = createErrorMessage(model, "error", NO_MODEL_TEXT);
	stream.push({ type: "error", reason: "error", error: message });
	stream.end();
	return stream;
}

/** Keeps the messages an LLM understands; application messages stay out of the request. */
export function defaultConvertToLlm(messages: AgentMessage[]): Message[] {
	// Runs before every LLM call over the whole transcript. The common case (nothing to drop) is one
	// scan and one slice, which copies in bulk: against `filter`, which appends one element at a
	// time, it saves about 5 µs per turn once a transcript holds several hundred messages.
	for (let index = 0; index < messages.length; index++) {
		if (!isLlmMessage(messages[index])) return messages.filter(isLlmMessage);
	}
	return messages.slice() as Message[];
}

function isLlmMessage(message: AgentMessage): message is Message {
	const role = (message as { role?: unknown }).role;
	return role === "system" || role === "user" || role === "assistant" || role === "toolResult";
}

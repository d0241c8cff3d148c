// Calls the loop's configuration callbacks (transformContext, convertToLlm, getApiKey, the queues,
// the tool hooks): a throw is named after the callback, and an abort stops the wait for one that
// ignores it. The loop's one failure handler turns what these throw into the run's error message.
import { formatThrownValue } from "@keel/ai";
import type { AgentMessage } from "./types.js";

/**
 * Runs a user callback; its error says which callback failed ("transformContext failed: …").
 * A synchronous callback stays synchronous: no promise is made on the per-turn path.
 */
export function callCallback<T>(name: string, callback: () => T | Promise<T>, signal?: AbortSignal): T | Promise<T> {
	let result: T | Promise<T>;
	try {
		result = callback();
	} catch (error) {
		throw callbackError(name, error);
	}
	if (!isPromiseLike(result)) return result;
	const named = Promise.resolve(result).catch((error: unknown) => {
		throw callbackError(name, error);
	});
	return signal ? untilAborted(named, signal, name) : named;
}

/** Settles like `promise`, or rejects as soon as `signal` aborts (the promise is then left to run). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, waitingFor: string): Promise<T> {
	const abortError = () => new Error(`Aborted while waiting for ${waitingFor}`);
	if (signal.aborted) {
		promise.catch(() => {});
		return Promise.reject(abortError());
	}
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(abortError());
		signal.addEventListener("abort", onAbort, { once: true });
		promise.then(
			(value) => {
				signal.removeEventListener("abort", onAbort);
				resolve(value);
			},
			(error: unknown) => {
				signal.removeEventListener("abort", onAbort);
				reject(error);
			},
		);
	});
}

function callbackError(name: string, error: unknown): Error {
	return new Error(`${name} failed: ${formatThrownValue(error)}`, { cause: error });
}

/** True for a promise or any other thenable. */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
	return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** Polls a steering or follow-up source; anything but an array (or nothing) is a clear error. */
export function pollMessages(
	name: string,
	source: (() => AgentMessage[] | Promise<AgentMessage[]>) | undefined,
	signal?: AbortSignal,
): AgentMessage[] | Promise<AgentMessage[]> {
	if (!source) return [];
	const messages = callCallback(name, source, signal);
	return isPromiseLike(messages) ? messages.then((value) => checkMessages(name, value)) : checkMessages(name, messages);
}

function checkMessages(name: string, messages: AgentMessage[] | undefined | null): AgentMessage[] {
	if (messages === undefined || messages === null) return [];
	if (!Array.isArray(messages)) throw new Error(`${name} must return an array of messages, got ${typeof messages}`);
	return messages;
}

import { errorText } from "./error-text.js";
import type { AgentMessage } from "./types.js";

/**
 * Runs a user callback and names it in the error, so the error message says what failed.
 * A synchronous callback stays synchronous: no promise is created on the per-turn path.
 * With a signal, an abort stops the wait for a callback that ignores it.
 */
export function step<T>(name: string, callback: () => T | Promise<T>, signal?: AbortSignal): T | Promise<T> {
	let result: T | Promise<T>;
	try {
		result = callback();
	} catch (error) {
		throw namedError(name, error);
	}
	if (isPromiseLike(result)) {
		const named = Promise.resolve(result).catch((error: unknown) => {
			throw namedError(name, error);
		});
		return signal ? untilAborted(named, signal, name) : named;
	}
	return result;
}

/** Settles like `promise`, or rejects as soon as `signal` aborts (the promise is then left to run). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, waitingFor: string): Promise<T> {
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

function namedError(name: string, error: unknown): Error {
	return new Error(`${name} failed: ${errorText(error)}`, { cause: error });
}

/**
 * True for a promise (or any thenable). The per-turn path awaits only these: `await` on a plain value
 * still costs a microtask and a promise, which adds up over the dozen events of a turn.
 */
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
	const messages = step(name, source, signal);
	return isPromiseLike(messages) ? messages.then((value) => checkMessages(name, value)) : checkMessages(name, messages);
}

function checkMessages(name: string, messages: AgentMessage[] | undefined | null): AgentMessage[] {
	if (messages === undefined || messages === null) return [];
	if (!Array.isArray(messages)) throw new Error(`${name} must return an array of messages, got ${typeof messages}`);
	return messages;
}

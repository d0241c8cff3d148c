// Calling and awaiting the user's code: the loop's callbacks (transformContext, convertToLlm,
// getApiKey, the queues, the tool hooks), the stream function and the tools. A callback's throw is
// named after it, and an abort stops the wait for code that ignores it. The loop's one failure
// handler (failRun in agent-loop.ts) turns what these throw into the run's error message.
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

// --- waits an abort can cut short -------------------------------------------------------------

/** What `AbortWatch.race` resolves to once the signal has aborted (and any grace period has passed). */
export const ABORTED = Symbol("aborted");

/**
 * `race(promise)` settles like `promise`, or with ABORTED once `signal` aborted and `graceMs` more
 * passed. One listener for the whole wait, however many promises it races: a stream of thousands of
 * deltas raced with `Promise.race` against one shared abort promise would leave a reaction on that
 * promise per delta until the run ends. The watch is itself the listener (`handleEvent`), so no
 * closure is made per wait. Against `Promise.race` it saves about 4 µs per turn of a run with a
 * signal (scripts/bench/agent-loop.bench.ts, "loop overhead with an AbortSignal"). Call `dispose()`
 * when done: it removes the listener and any grace timer.
 */
export class AbortWatch {
	private wake?: (value: typeof ABORTED) => void;
	private timer?: ReturnType<typeof setTimeout>;
	private fired = false;

	constructor(
		private readonly signal: AbortSignal,
		private readonly graceMs: number,
	) {
		if (signal.aborted) this.handleEvent();
		else signal.addEventListener("abort", this, { once: true });
	}

	/** Called by the signal on abort. */
	handleEvent(): void {
		if (this.graceMs <= 0) this.fire();
		else if (this.timer === undefined) this.timer = setTimeout(() => this.fire(), this.graceMs);
	}

	/** Settles like `promise`, or with ABORTED when the watch fires first. */
	race<T>(promise: T | PromiseLike<T>): Promise<T | typeof ABORTED> {
		if (this.fired) {
			// Settles the caller's promise anyway, so a late rejection is never reported as unhandled.
			Promise.resolve(promise).catch(() => {});
			return Promise.resolve(ABORTED);
		}
		return new Promise<T | typeof ABORTED>((resolve, reject) => {
			this.wake = resolve;
			Promise.resolve(promise).then(resolve, reject);
		});
	}

	dispose(): void {
		if (this.timer !== undefined) clearTimeout(this.timer);
		this.wake = undefined;
		this.signal.removeEventListener("abort", this);
	}

	private fire(): void {
		this.fired = true;
		this.wake?.(ABORTED);
		this.wake = undefined;
	}
}

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

/** What an `AbortWatch` resolves to once the signal has aborted (and any grace period has passed). */
export const ABORTED = Symbol("aborted");

/**
 * Lets a wait be cut short by an abort: `race(promise)` settles like `promise`, or with ABORTED once
 * `signal` aborted and `graceMs` more passed. One listener for the whole wait, however many promises it
 * races; the watch itself is the listener (`handleEvent`), so no closure is made per wait. Call
 * `dispose()` when done: it removes the listener and any grace timer.
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

	/**
	 * Settles like `promise`, or with ABORTED when the watch fires first. A plain promise plus one
	 * settle function is cheaper than `Promise.race`, and nothing accumulates on a shared promise.
	 */
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

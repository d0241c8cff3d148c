import { errorText } from "./error-text.js";
import type { AgentMessage } from "./types.js";

/**
 * Runs a user callback and names it in the error, so the error message says what failed.
 * A synchronous callback stays synchronous: no promise is created on the per-turn path.
 */
export function step<T>(name: string, callback: () => T | Promise<T>): T | Promise<T> {
	let result: T | Promise<T>;
	try {
		result = callback();
	} catch (error) {
		throw namedError(name, error);
	}
	if (isPromiseLike(result)) {
		return Promise.resolve(result).catch((error: unknown) => {
			throw namedError(name, error);
		});
	}
	return result;
}

function namedError(name: string, error: unknown): Error {
	return new Error(`${name} failed: ${errorText(error)}`, { cause: error });
}

function isPromiseLike<T>(value: T | Promise<T>): value is Promise<T> {
	return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** Polls a steering or follow-up source; anything but an array (or nothing) is a clear error. */
export async function pollMessages(
	name: string,
	source: (() => AgentMessage[] | Promise<AgentMessage[]>) | undefined,
): Promise<AgentMessage[]> {
	if (!source) return [];
	const messages = await step(name, source);
	if (messages === undefined || messages === null) return [];
	if (!Array.isArray(messages)) throw new Error(`${name} must return an array of messages, got ${typeof messages}`);
	return messages;
}

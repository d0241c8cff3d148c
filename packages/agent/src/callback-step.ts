import { errorText } from "./error-text.js";
import type { AgentMessage } from "./types.js";

/** Runs a user callback and names it in the error, so the error message says what failed. */
export async function step<T>(name: string, callback: () => T | Promise<T>): Promise<T> {
	try {
		return await callback();
	} catch (error) {
		throw new Error(`${name} failed: ${errorText(error)}`, { cause: error });
	}
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

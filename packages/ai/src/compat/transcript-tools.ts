// Where a request's tools go when the transcript changes them over time: the top-level tool list, or
// in place at the system messages that change them, depending on what the wire format can express.
import type { SystemMessage, Tool } from "../types.js";
import { getCurrentTools, getInitialSystemMessage, type TranscriptMessages } from "./transcript.js";

/**
 * What a wire format can say about tools after the first request: `"none"` (only the top-level
 * list), `"additions"` (tools added at a later message, never removed or redefined), `"changes"`
 * (every declaration in place, a later one replacing an earlier one of the same name).
 */
export type TranscriptToolSupport = "none" | "additions" | "changes";

/** The top-level tool list, and how many leading system messages' tool changes it already holds. */
export interface TranscriptTools {
	requestTools: Tool[];
	foldedSystemMessages: number;
}

/**
 * The index of the last system message that removes a tool or declares a name seen before (even
 * one removed in between), or -1.
 */
function lastNonAdditiveChange(systemMessages: readonly SystemMessage[]): number {
	const declared = new Set<string>();
	let last = -1;
	systemMessages.forEach((message, index) => {
		if ((message.toolsRemoved?.length ?? 0) > 0) last = index;
		for (const tool of message.toolsAdded ?? []) {
			if (declared.has(tool.name)) last = index;
			declared.add(tool.name);
		}
	});
	return last;
}

/**
 * Splits the tools between the top-level list and in-place changes. `"none"`: the list is the
 * current tool set. `"changes"`: the list is empty and every system message declares its own.
 * `"additions"`: the list is the tool state after the last removal or redefinition (at least the
 * leading system message's), and later additions stay in place.
 */
export function resolveTranscriptTools(messages: TranscriptMessages, support: TranscriptToolSupport): TranscriptTools {
	const systemMessages = messages.filter((message): message is SystemMessage => message.role === "system");
	if (support === "none") {
		return { requestTools: getCurrentTools(systemMessages), foldedSystemMessages: systemMessages.length };
	}
	if (support === "changes") return { requestTools: [], foldedSystemMessages: 0 };
	const folded = Math.max(getInitialSystemMessage(messages) ? 1 : 0, lastNonAdditiveChange(systemMessages) + 1);
	return { requestTools: getCurrentTools(systemMessages.slice(0, folded)), foldedSystemMessages: folded };
}

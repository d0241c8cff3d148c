// Child stores for agents run as tools (agentAsTool's `childStore`): each call's child keeps its
// transcript in a sidechain of the parent's session — a session of its own in the same transcript
// store, whose header names the parent session, the assistant message that made the call and the
// call's id. The parent's context never holds the child's messages (they are in another session),
// and the child's transcript reads back on its own.
import type { ChildAgentCall, ChildAgentStore, ChildStoreFactory } from "../agent-as-tool-types.js";
import type { Session } from "./session.js";
import { type BindSessionOptions, bindSession } from "./session-binding.js";
import type { SessionInfo, TranscriptStore } from "./session-types.js";
import { toolCallsOf } from "./tool-result-pairing.js";

export interface SidechainStoreOptions {
	/** How each child's session is bound (compaction, tools); default bindSession's defaults. */
	bind?: BindSessionOptions;
	/** The title of each child's session; default `<tool name>: <call id>`. */
	title?: (call: ChildAgentCall) => string;
}

/**
 * The `childStore` of an agent tool whose parent Agent is bound to `parent`: each call starts a
 * sidechain of `parent` linked to the call (`parentMessageId`, `parentToolCallId`), binds the child
 * Agent to it, and closes it once the child is idle. The parent Agent must be bound to `parent`
 * (`bindSession(parent)`), so the message making the call is stored before the call runs.
 */
export function sidechainStores(parent: Session, options: SidechainStoreOptions = {}): ChildStoreFactory {
	if (typeof (parent as Partial<Session> | null)?.startSidechain !== "function") {
		throw new TypeError("sidechainStores() takes the parent's Session (the one its Agent is bound to)");
	}
	if (options.title !== undefined && typeof options.title !== "function") {
		throw new TypeError("sidechainStores(): title must be a function of the call");
	}
	return async (call): Promise<ChildAgentStore> => {
		const messageId = findCallingMessage(parent, call.toolCallId);
		if (messageId === undefined) {
			throw new Error(
				`tool call "${call.toolCallId}" is not on the current branch of session ${parent.id}: bind the parent Agent to that session (new Agent({ store: bindSession(session) }))`,
			);
		}
		const title = options.title ? options.title(call) : `${call.toolName}: ${call.toolCallId}`;
		const child = await parent.startSidechain(messageId, { title, parentToolCallId: call.toolCallId });
		return { store: bindSession(child, options.bind), sessionId: child.id, close: () => child.close() };
	};
}

/** The id of the assistant message of the current branch that holds the call, searched from the end. */
function findCallingMessage(session: Session, toolCallId: string): string | undefined {
	const branch = session.branch();
	for (let index = branch.length - 1; index >= 0; index--) {
		const record = branch[index];
		if (toolCallsOf(record.message).some((toolCall) => toolCall.id === toolCallId)) return record.id;
	}
	return undefined;
}

/**
 * The sidechains of a session (the sessions whose header names it as parent), newest first; a call's
 * own is the one whose `sessionId` its result's details name.
 */
export async function listSidechains(store: TranscriptStore, parentSessionId: string): Promise<SessionInfo[]> {
	if (typeof parentSessionId !== "string" || parentSessionId === "") {
		throw new TypeError("listSidechains() takes the parent session's id, a non-empty string");
	}
	const sessions = await store.list();
	return sessions.filter((info) => info.parentSessionId === parentSessionId);
}

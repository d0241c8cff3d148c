// A Session behind the Agent's one storage interface (AgentStore): `new Agent({ store:
// bindSession(session) })`. Every finished message is appended before the Agent's listeners hear of
// it, queued messages are recorded until delivered, a paused run's approval records are kept,
// the request settings are stored for a resume, and compaction (automatic, on request, and once
// after a context overflow) runs here. The Agent imports none of this.
import { type AssistantMessage, isContextOverflow } from "@keel/ai";
import type { AgentQueueChange, AgentSettings, AgentStore, AgentStoreRun, AgentStoreStart } from "../agent-store.js";
import type { AgentEvent, AgentMessage, AgentTool, PausedToolCall, PausedToolRun } from "../types.js";
import { AgentCompaction, type AgentCompactionOptions } from "./agent-compaction.js";
import { createToolApprovalRecorder } from "./approval-records.js";
import { type CompactionResult, type CompactOptions, compact } from "./compaction.js";
import type { Session } from "./session.js";
import { sessionConvertToLlm } from "./session-convert-to-llm.js";
import type { StoredAgentSettings } from "./session-types.js";
import { restoreAgentSettings, sameStoredAgentSettings, toStoredAgentSettings } from "./stored-agent-settings.js";
import { INTERRUPTED_TOOL_TEXT, syntheticToolResult } from "./tool-result-pairing.js";

/** What happens to tool calls a crash left without a result (see resume.ts). */
export type InterruptedToolCallPolicy = "error-results" | "rerun";

export interface BindSessionOptions {
	/** Automatic compaction (on by default), or false to turn it off. */
	compaction?: AgentCompactionOptions | false;
	/**
	 * The tools the session's stored tool names pick from (implementations cannot be stored). Without
	 * it, the Agent's tools are only what its `initialState` gives.
	 */
	tools?: AgentTool[];
	/**
	 * A paused run to resume instead of the one the session's branch ends with (a run paused outside
	 * a Session); the branch must end with its assistant message.
	 */
	pausedRun?: PausedToolRun;
	/**
	 * An approved call of a paused run that has no result (the process died while it ran, or after
	 * the decision was stored): "error-results" (default) answers it with INTERRUPTED_TOOL_TEXT,
	 * "rerun" runs it again when the run resumes. Other interrupted calls always get error results
	 * here; `resumeAgent` can re-run those.
	 */
	interruptedToolCalls?: InterruptedToolCallPolicy;
}

/** The store `bindSession` returns: an AgentStore, with the session it keeps. */
export interface SessionAgentStore extends AgentStore {
	readonly session: Session;
}

/** Puts a session behind the Agent's storage interface; see the file comment. */
export function bindSession(session: Session, options: BindSessionOptions = {}): SessionAgentStore {
	const policy = options.interruptedToolCalls ?? "error-results";
	if (policy !== "error-results" && policy !== "rerun") {
		throw new TypeError(
			`bindSession(): interruptedToolCalls must be "error-results" or "rerun", got ${JSON.stringify(policy)}`,
		);
	}
	const writer = session.approvalRecordWriter;
	let recordApproval = createToolApprovalRecorder(writer);
	let compaction: AgentCompaction | undefined;
	let lastSettings: StoredAgentSettings | undefined;
	let showContext = () => {};

	const store: SessionAgentStore = {
		session,
		sessionId: session.id,
		convertToLlm: sessionConvertToLlm,

		open(onContextChanged): AgentStoreStart {
			showContext = onContextChanged;
			if (options.compaction !== false) {
				compaction = new AgentCompaction(session, options.compaction ?? {}, onContextChanged);
				store.prepareContext = compaction.prepareContext.bind(compaction);
			}
			let paused = options.pausedRun ?? session.pausedToolRun();
			if (!paused) {
				for (const toolCall of session.unansweredToolCalls()) {
					// Written in order before anything the Agent appends; a failure shows on the next append.
					session.append(syntheticToolResult(toolCall, INTERRUPTED_TOOL_TEXT)).catch(() => {});
				}
			} else if (policy === "error-results") {
				paused = answerInterruptedApprovedCalls(paused);
			}
			recordApproval = createToolApprovalRecorder(writer, { pausedRun: paused });
			lastSettings = session.state.agent;
			const start: AgentStoreStart = {
				messages: session.modelContext(),
				queued: session.pendingQueueItems(),
				settings: restoreAgentSettings(lastSettings, options.tools, session.id),
			};
			if (paused) start.pausedRun = paused;
			return start;
		},

		view() {
			const pausedRun = session.pausedToolRun();
			return pausedRun ? { messages: session.modelContext(), pausedRun } : { messages: session.modelContext() };
		},

		// The session's own method: no forwarding function on the per-message path.
		append: session.append.bind(session),

		recordQueue(change: AgentQueueChange) {
			// Written in order with the session's other records; a failure shows on the next append.
			if (change.action === "enqueued") session.enqueue(change.item).catch(() => {});
			else session.dropQueued(change.queueItemIds).catch(() => {});
		},

		recordApproval: (event: AgentEvent) => recordApproval(event),

		recordSettings(settings: AgentSettings) {
			const stored = toStoredAgentSettings(settings);
			if (sameStoredAgentSettings(lastSettings, stored)) return;
			lastSettings = stored;
			session.updateState({ agent: stored }).catch(() => {});
		},

		reset() {
			session.fork(null).catch(() => {});
			recordApproval = createToolApprovalRecorder(writer);
		},

		async fork(messageId) {
			await session.fork(messageId);
			recordApproval = createToolApprovalRecorder(writer, { pausedRun: session.pausedToolRun() });
		},

		async switchBranch(leafId) {
			await session.switchBranch(leafId);
			recordApproval = createToolApprovalRecorder(writer, { pausedRun: session.pausedToolRun() });
		},

		compact(request: Partial<CompactOptions>, defaults): Promise<CompactionResult | undefined> {
			const configured = options.compaction || {};
			return compact(session, {
				model: configured.model ?? defaults.model,
				streamFn: defaults.streamFn,
				prompt: configured.prompt,
				keepRecentMessages: configured.keepRecentMessages,
				keepRecentTokens: configured.keepRecentTokens,
				...request,
			});
		},
	};
	if (options.compaction !== false) {
		store.startRun = () => compaction?.startRun();
		// Replaced by the compaction's own method once the Agent opens the store.
		store.prepareContext = (messages) => messages;
		store.afterRun = (added, run) =>
			retryAfterOverflow(session, compaction as AgentCompaction, added, run, () => showContext());
	}
	return store;
}

/**
 * When the run ended because the provider reported a context overflow: hides the failed response
 * (a tombstone), compacts the session, and asks the Agent to run the turn once more from the
 * compacted context. The response is hidden even when compaction then fails: the run's error
 * already reported it. A failed compaction rejects (the Agent reports it like a listener's error).
 */
async function retryAfterOverflow(
	session: Session,
	compaction: AgentCompaction,
	added: AgentMessage[],
	run: AgentStoreRun,
	showContext: () => void,
): Promise<boolean> {
	let failed: AssistantMessage | undefined;
	for (let index = added.length - 1; index >= 0 && !failed; index--) {
		if ((added[index] as { role?: unknown }).role === "assistant") failed = added[index] as AssistantMessage;
	}
	if (compaction.options.retryOnOverflow === false || !failed || run.signal?.aborted) return false;
	if (failed.stopReason !== "error" || !isContextOverflow(failed, run.model.contextWindow)) return false;
	const failedId = session.idOf(failed);
	if (failedId === undefined) return false;
	await session.tombstone(failedId, "context overflow");
	showContext();
	const result = await compaction.compact(run.model, run.streamFn, run.signal, "overflow");
	return result !== undefined;
}

/**
 * The paused run with every approved call that has no result answered as interrupted: the process
 * that stored the approval ended before the call's result was stored, so it may have run partly.
 */
function answerInterruptedApprovedCalls(paused: PausedToolRun): PausedToolRun {
	if (!paused.calls.some((call) => call.status === "pending" && call.decision?.approved === true)) return paused;
	const calls = paused.calls.map((call): PausedToolCall => {
		if (call.status !== "pending" || call.decision?.approved !== true) return call;
		return {
			status: "done",
			toolCallId: call.toolCallId,
			toolName: call.toolName,
			result: { content: [{ type: "text", text: INTERRUPTED_TOOL_TEXT }], details: {} },
			isError: true,
		};
	});
	return { ...paused, calls };
}

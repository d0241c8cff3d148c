// What the Agent needs of storage, and nothing more: where a conversation starts from, where each
// finished message and queue change goes, the approval records of a paused run, and optional hooks
// around the model call (compaction) and after a run (the overflow retry). The Agent knows only this
// interface; `bindSession` (@keel/agent-core/session) puts a Session behind it, and an application
// can implement it over any storage of its own.
import type { Model } from "@keel/ai";
import type {
	AgentEvent,
	AgentLoopConfig,
	AgentMessage,
	AgentTool,
	PausedToolRun,
	StreamFn,
	ThinkingLevel,
} from "./types.js";

/** What the Agent shows of a store: the context to send and a run paused for approvals, if any. */
export interface AgentStoreView {
	/** The transcript the Agent works on (the model context of the store's current branch). */
	messages: AgentMessage[];
	/** A run paused for approvals the transcript ends with; its calls keep waiting. */
	pausedRun?: PausedToolRun;
}

/** A queued message that was not yet delivered when the store was opened. */
export interface StoredQueueItem {
	queueItemId: string;
	queue: "steering" | "followUp";
	priority: number;
	message: AgentMessage;
}

/** The settings that make up a request besides the transcript. */
export interface AgentSettings {
	systemPrompt: string;
	model: Model;
	thinkingLevel: ThinkingLevel;
	tools: AgentTool[];
}

/** Where the Agent starts from. */
export interface AgentStoreStart extends AgentStoreView {
	/** Queued messages not yet delivered, in the order they were queued. */
	queued: StoredQueueItem[];
	/** Stored settings; the Agent uses each one its `initialState` does not give. */
	settings?: Partial<AgentSettings>;
}

/** A change to the Agent's queues. */
export type AgentQueueChange =
	| { action: "enqueued"; item: StoredQueueItem }
	| { action: "dropped"; queueItemIds: string[] };

/** What the store's hooks get of the running run. */
export interface AgentStoreRun {
	model: Model;
	streamFn: StreamFn;
	signal: AbortSignal | undefined;
}

export interface AgentStore {
	/** The provider's session id (`sessionId`) when the Agent is given none. */
	readonly sessionId?: string;
	/** The Agent's `convertToLlm` when it is given none (a store with message kinds of its own). */
	readonly convertToLlm?: AgentLoopConfig["convertToLlm"];

	/**
	 * Called once, by the Agent's constructor. `onContextChanged` is for changes the store makes on
	 * its own during a run (a compaction): the Agent then shows `view()` again.
	 */
	open(onContextChanged: () => void): AgentStoreStart;
	/** The transcript and paused run to show now (after a branch switch, a compaction, a reset). */
	view(): AgentStoreView;

	/**
	 * Stores a finished message. The Agent awaits it before its listeners hear of the message and
	 * before the loop goes on; a rejection fails the run. `options.queueItemId`: the queued message it
	 * delivers.
	 */
	append(message: AgentMessage, options: { queueItemId: string } | undefined): Promise<unknown>;
	/** Stores a queue change. Not awaited: a failure is the store's to report (on the next append). */
	recordQueue(change: AgentQueueChange): void;
	/**
	 * Stores what a paused run needs, before the Agent's listeners hear of the event: a paused
	 * `agent_end` (it carries the paused run), and in a run that resumes one, each
	 * `tool_approval_response` and the `turn_end` that completes the batch. A returned promise is
	 * awaited (a decision is stored before the approved tool runs); its rejection goes to
	 * `onListenerError`.
	 */
	recordApproval?(event: AgentEvent): Promise<void> | undefined;
	/** Stores the settings a run starts with, when they differ from the ones last stored or opened. */
	recordSettings?(settings: AgentSettings): void;

	/** A run starts (the Agent's state shows every earlier change of the store). */
	startRun?(): void;
	/**
	 * Before each model call, before the Agent's `transformContext`: may compact the context. Return
	 * the array itself (no promise) when there is nothing to do: the turn then stays synchronous.
	 */
	prepareContext?(messages: AgentMessage[], run: AgentStoreRun): AgentMessage[] | Promise<AgentMessage[]>;
	/**
	 * After a run: true when the store repaired what ended it (a context overflow compacted away)
	 * and the Agent should run once more from `view()`.
	 */
	afterRun?(added: AgentMessage[], run: AgentStoreRun): Promise<boolean>;
	/** `agent.reset()`: the next message starts a new conversation in the store. */
	reset?(): void;

	// Branches and compaction, for the Agent's methods of the same names (each needs an idle Agent;
	// the Agent shows `view()` afterwards). A store without them makes those methods reject.
	fork?(messageId: string | null): Promise<void>;
	switchBranch?(leafId: string): Promise<void>;
	compact?(options: AgentCompactOptions, defaults: { model: Model; streamFn: StreamFn }): Promise<AgentCompactResult>;
}

/**
 * The types of `agent.compact()`, filled in by @keel/agent-core/session (declaration merging) with
 * its `CompactOptions` and `CompactionResult`, so that the Agent imports no session code.
 */
// biome-ignore lint/suspicious/noEmptyInterface: extended by declaration merging
export interface AgentCompactTypes {}
/** What `agent.compact()` takes: the session's `Partial<CompactOptions>` once its entry is imported. */
export type AgentCompactOptions = AgentCompactTypes extends { options: infer Options }
	? Options
	: Record<string, unknown>;
/** What `agent.compact()` resolves to: the session's `CompactionResult | undefined` once its entry is imported. */
export type AgentCompactResult = AgentCompactTypes extends { result: infer Result } ? Result : unknown;

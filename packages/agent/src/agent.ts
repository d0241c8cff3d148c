// The stateful Agent: the transcript, the queues, the listeners. Each run is one call of the loop
// (agent-loop.ts); this class only keeps state and reduces the loop's events into it.
import {
	formatThrownValue,
	type Model,
	type SimpleStreamOptions,
	type ThinkingBudgets,
	type Transport,
	type UserContent,
} from "@keel/ai";
import { defaultConvertToLlm, defaultStreamFn, UNKNOWN_MODEL } from "./agent-defaults.js";
import { runAgentLoop, runAgentLoopAfterApprovals, runAgentLoopContinue } from "./agent-loop.js";
import type { AgentCompactOptions, AgentCompactResult, AgentStore, AgentStoreRun } from "./agent-store.js";
import { applyToolApprovalDecisions, assertCanResume, pendingToolApprovals } from "./approval/paused-run.js";
import { MessageQueue, type QueuedMessage, queueKey } from "./message-queue.js";
import { isInterruptedMessage } from "./steering-interrupt.js";
import type {
	AgentEvent,
	AgentLoopConfig,
	AgentMessage,
	AgentState,
	AgentTool,
	PausedToolRun,
	QueueMode,
	SteeringCheck,
	StreamFn,
	ThinkingLevel,
	ToolApprovalDecision,
	ToolApprovalRequest,
	ToolExecutionMode,
} from "./types.js";
import { isPromiseLike } from "./user-code.js";

export const ALREADY_PROCESSING_PROMPT_TEXT =
	"Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.";
export const ALREADY_PROCESSING_CONTINUE_TEXT = "Agent is already processing. Wait for completion before continuing.";

/** Called with every event, in order; a returned promise is awaited before the next listener. */
export type AgentListener = (event: AgentEvent, signal: AbortSignal) => void | Promise<void>;

export interface AgentOptions {
	/** Shallow-merged over the defaults (empty prompt, no model, thinking off, no tools, no messages). */
	initialState?: Partial<Pick<AgentState, "systemPrompt" | "model" | "thinkingLevel" | "tools" | "messages">>;
	/** Default: keep user, assistant and toolResult messages. */
	convertToLlm?: AgentLoopConfig["convertToLlm"];
	transformContext?: AgentLoopConfig["transformContext"];
	/** Default "one-at-a-time". */
	steeringMode?: QueueMode;
	/** Default "one-at-a-time". */
	followUpMode?: QueueMode;
	/** Default "after-each-tool". */
	steeringCheck?: SteeringCheck;
	/** Default `streamSimple` (with a clear error for the placeholder model). */
	streamFn?: StreamFn;
	sessionId?: string;
	getApiKey?: AgentLoopConfig["getApiKey"];
	onPayload?: SimpleStreamOptions["onPayload"];
	onResponse?: SimpleStreamOptions["onResponse"];
	thinkingBudgets?: ThinkingBudgets;
	/** Default "auto". */
	transport?: Transport;
	maxRetryDelayMs?: number;
	/** Default "parallel". */
	toolExecution?: ToolExecutionMode;
	beforeToolCall?: AgentLoopConfig["beforeToolCall"];
	afterToolCall?: AgentLoopConfig["afterToolCall"];
	shouldStopAfterTurn?: AgentLoopConfig["shouldStopAfterTurn"];
	/** Changes model, thinking level, context or messages before each turn after the first. */
	prepareNextTurn?: AgentLoopConfig["prepareNextTurn"];
	/** Changes context, model or thinking level right before every LLM call, the first included. */
	prepareRequest?: AgentLoopConfig["prepareRequest"];
	/** Ends the run, or asks for one more LLM call, after each turn, before turn_end. */
	finishTurn?: AgentLoopConfig["finishTurn"];
	/** Decides which tool calls wait for approval (see docs/approvals.md). */
	approvalPolicy?: AgentLoopConfig["approvalPolicy"];
	/**
	 * A run that paused for approvals, to resume (for example read back from a transcript after a
	 * restart); `initialState.messages` must end with its assistant message. Refused beside a
	 * `store`, which gives the paused run itself (bindSession's `pausedRun` option names another).
	 */
	pausedRun?: PausedToolRun;
	/** A listener that throws does not stop the run or the other listeners; its error goes here. */
	onListenerError?: (error: unknown, event: AgentEvent) => void;
	/**
	 * Where to keep the conversation (agent-store.ts), for example a session:
	 * `store: bindSession(session)` from @keel/agent-core/session. Every message is stored as it
	 * ends, queued messages until delivered, a paused run with its decisions, and the request
	 * settings; the Agent starts from the store's context, paused run, queues and settings (each
	 * `initialState` field given wins). `convertToLlm` and `sessionId` default to the store's.
	 */
	store?: AgentStore;
	/** A message equal to one still queued is not queued again (steer/followUp return false). Default true. */
	deduplicateQueuedMessages?: boolean;
}

/** Where a queued message goes, and its place in the queue. */
export interface QueueMessageOptions {
	/** Higher is delivered first within its queue; default 0. Steering always goes before follow-ups. */
	priority?: number;
}

/** How a steering message is queued. */
export interface SteerOptions extends QueueMessageOptions {
	/**
	 * True to be heard now: the running model call is cut off (its answer so far kept, marked with
	 * INTERRUPTED_BY_STEERING_TEXT), running tools are aborted and calls not started are skipped,
	 * then the steering goes next. The run goes on. See `interrupt()`.
	 */
	interrupt?: boolean;
}

/** The live state. Assigning `tools` or `messages` stores a copy of the array. */
class LiveAgentState implements AgentState {
	systemPrompt = "";
	model: Model = UNKNOWN_MODEL;
	thinkingLevel: ThinkingLevel = "off";
	isStreaming = false;
	streamingMessage: AgentMessage | null = null;
	pendingToolCalls: ReadonlySet<string> = new Set<string>();
	errorMessage?: string;
	private toolList: AgentTool[] = [];
	private messageList: AgentMessage[] = [];

	get tools(): AgentTool[] {
		return this.toolList;
	}
	set tools(tools: AgentTool[]) {
		this.toolList = [...tools];
	}

	/** True once the current array was handed out by the getter: it must then never change. */
	private messagesHandedOut = false;

	get messages(): AgentMessage[] {
		this.messagesHandedOut = true;
		return this.messageList;
	}
	set messages(messages: AgentMessage[]) {
		this.messageList = [...messages];
		this.messagesHandedOut = false;
	}

	/**
	 * Appends in place while nobody holds the array, and copies once it was handed out: an array read
	 * from `messages` is a snapshot that never changes (identity-comparing UIs see every change), and
	 * a run that nobody reads from mid-way costs no copy per message.
	 */
	append(message: AgentMessage): void {
		if (this.messagesHandedOut) {
			this.messageList = [...this.messageList, message];
			this.messagesHandedOut = false;
		} else {
			this.messageList.push(message);
		}
	}
}

export class Agent {
	private readonly liveState = new LiveAgentState();
	private readonly listeners = new Set<AgentListener>();
	private readonly steeringQueue = new MessageQueue();
	private readonly followUpQueue = new MessageQueue();
	private readonly agentStore: AgentStore | undefined;
	/** Queue items taken for the running run, by message, until the message is written to the store. */
	private readonly deliveringQueueItems = new Map<AgentMessage, string>();
	private abortController: AbortController | undefined;
	private running: Promise<void> | undefined;
	/** Set when continue() already took the steering messages, so the first poll must not take more. */
	private skipNextSteeringPoll = false;
	/** The run that paused for approvals, until it is resumed. */
	private paused: PausedToolRun | undefined;
	/** The decisions given since the last prompt, so deciding a call twice does nothing the second time. */
	private decided = new Map<string, boolean>();
	/** True from the start of a run that resumes a paused one until its batch's turn_end. */
	private resuming = false;
	/** Interrupts the running run's current step (set by the loop through listenForInterrupts). */
	private interruptRun: (() => void) | undefined;

	convertToLlm: AgentLoopConfig["convertToLlm"];
	transformContext: AgentLoopConfig["transformContext"];
	steeringMode: QueueMode;
	followUpMode: QueueMode;
	steeringCheck: SteeringCheck;
	streamFn: StreamFn;
	sessionId: string | undefined;
	getApiKey: AgentLoopConfig["getApiKey"];
	onPayload: SimpleStreamOptions["onPayload"];
	onResponse: SimpleStreamOptions["onResponse"];
	thinkingBudgets: ThinkingBudgets | undefined;
	transport: Transport;
	maxRetryDelayMs: number | undefined;
	toolExecution: ToolExecutionMode;
	beforeToolCall: AgentLoopConfig["beforeToolCall"];
	afterToolCall: AgentLoopConfig["afterToolCall"];
	shouldStopAfterTurn: AgentLoopConfig["shouldStopAfterTurn"];
	prepareNextTurn: AgentLoopConfig["prepareNextTurn"];
	prepareRequest: AgentLoopConfig["prepareRequest"];
	finishTurn: AgentLoopConfig["finishTurn"];
	approvalPolicy: AgentLoopConfig["approvalPolicy"];
	onListenerError: (error: unknown, event: AgentEvent) => void;
	deduplicateQueuedMessages: boolean;

	constructor(options: AgentOptions = {}) {
		Object.assign(this.liveState, options.initialState ?? {});
		const store = options.store;
		this.agentStore = store;
		this.convertToLlm = options.convertToLlm ?? store?.convertToLlm ?? defaultConvertToLlm;
		this.transformContext = options.transformContext;
		this.steeringMode = options.steeringMode ?? "one-at-a-time";
		this.followUpMode = options.followUpMode ?? "one-at-a-time";
		this.steeringCheck = options.steeringCheck ?? "after-each-tool";
		this.streamFn = options.streamFn ?? defaultStreamFn;
		this.sessionId = options.sessionId ?? store?.sessionId;
		this.getApiKey = options.getApiKey;
		this.onPayload = options.onPayload;
		this.onResponse = options.onResponse;
		this.thinkingBudgets = options.thinkingBudgets;
		this.transport = options.transport ?? "auto";
		this.maxRetryDelayMs = options.maxRetryDelayMs;
		this.toolExecution = options.toolExecution ?? "parallel";
		this.beforeToolCall = options.beforeToolCall;
		this.afterToolCall = options.afterToolCall;
		this.shouldStopAfterTurn = options.shouldStopAfterTurn;
		this.prepareNextTurn = options.prepareNextTurn;
		this.prepareRequest = options.prepareRequest;
		this.finishTurn = options.finishTurn;
		this.approvalPolicy = options.approvalPolicy;
		if (options.pausedRun && !store) {
			assertCanResume(this.liveState.messages, options.pausedRun);
			this.paused = options.pausedRun;
		}
		this.onListenerError =
			options.onListenerError ??
			((error, event) => console.error(`Agent listener failed on ${event.type}: ${formatThrownValue(error)}`));
		this.deduplicateQueuedMessages = options.deduplicateQueuedMessages ?? true;
		if (store) this.attachStore(store, options);
	}

	/**
	 * Starts from the store: its context becomes the transcript and its settings the state (unless
	 * initialState gave them), a run paused for approvals is restored (its calls keep waiting), and
	 * the queued messages not yet delivered go back into their queues.
	 */
	private attachStore(store: AgentStore, options: AgentOptions): void {
		if (options.pausedRun) {
			throw new TypeError(
				"With a store, the paused run comes from the store: pass it to the store (bindSession(session, { pausedRun })), not to the Agent",
			);
		}
		const start = store.open(() => {
			this.liveState.messages = store.view().messages;
		});
		const given = options.initialState ?? {};
		const state = this.liveState;
		const settings = start.settings ?? {};
		if (given.systemPrompt === undefined && settings.systemPrompt !== undefined)
			state.systemPrompt = settings.systemPrompt;
		if (given.model === undefined && settings.model !== undefined) state.model = settings.model;
		if (given.thinkingLevel === undefined && settings.thinkingLevel !== undefined)
			state.thinkingLevel = settings.thinkingLevel;
		if (given.tools === undefined && settings.tools !== undefined) state.tools = settings.tools;
		if (given.messages === undefined) state.messages = start.messages;
		const paused = start.pausedRun;
		if (paused) {
			assertCanResume(state.messages, paused);
			this.paused = paused;
		}
		for (const item of start.queued) {
			const queue = item.queue === "steering" ? this.steeringQueue : this.followUpQueue;
			queue.add({ message: item.message, priority: item.priority, queueItemId: item.queueItemId });
		}
	}

	/** After the store's branch changed: its context, and the paused run of the branch now shown. */
	private showStoreView(store: AgentStore): void {
		const view = store.view();
		this.liveState.messages = view.messages;
		this.paused = view.pausedRun;
		this.decided.clear();
	}

	// --- state ----------------------------------------------------------------------------------

	/** The live state object (not a copy). */
	get state(): AgentState {
		return this.liveState;
	}

	/** The signal of the running run, or undefined when idle. */
	get signal(): AbortSignal | undefined {
		return this.abortController?.signal;
	}

	// --- queues ---------------------------------------------------------------------------------

	/**
	 * Queues a message for the running turn: it goes in after the current tool (or turn), or at once
	 * with `{ interrupt: true }` (see `interrupt()`). Returns false when an equal message is still
	 * queued (it is then not queued twice; an interrupt still happens).
	 */
	steer(message: AgentMessage, options?: SteerOptions): boolean {
		const queued = this.enqueue("steering", message, options);
		if (options?.interrupt === true) this.interrupt();
		return queued;
	}

	/**
	 * Makes the queued steering messages go next, now: the model call in flight is cut off (its
	 * answer so far stays in the transcript with stopReason "aborted" and errorMessage
	 * INTERRUPTED_BY_STEERING_TEXT, and the model is shown its text on the next call), running tools
	 * see their signal abort (result: INTERRUPTED_TOOL_TEXT), calls not started are skipped
	 * (SKIPPED_FOR_INTERRUPT_TEXT). The run is not aborted: it goes on with the steering. Returns
	 * false, doing nothing, when no steering message is queued or no run is in progress.
	 */
	interrupt(): boolean {
		if (this.steeringQueue.length === 0 || !this.interruptRun) return false;
		this.interruptRun();
		return true;
	}
	/** Queues a message for when the agent would otherwise stop; false when an equal one is still queued. */
	followUp(message: AgentMessage, options?: QueueMessageOptions): boolean {
		return this.enqueue("followUp", message, options);
	}
	clearSteeringQueue(): void {
		this.dropQueued(this.steeringQueue.clear());
	}
	clearFollowUpQueue(): void {
		this.dropQueued(this.followUpQueue.clear());
	}
	clearAllQueues(): void {
		this.clearSteeringQueue();
		this.clearFollowUpQueue();
	}
	hasQueuedMessages(): boolean {
		return this.steeringQueue.length > 0 || this.followUpQueue.length > 0;
	}
	/**
	 * The messages the next drain would take, left queued: steering first (by `steeringMode`), else
	 * follow-ups (by `followUpMode`).
	 */
	peekQueuedMessages(): AgentMessage[] {
		const queued =
			this.steeringQueue.length > 0
				? this.steeringQueue.peek(this.steeringMode)
				: this.followUpQueue.peek(this.followUpMode);
		return queued.map((item) => item.message);
	}

	private enqueue(
		queue: "steering" | "followUp",
		message: AgentMessage,
		options: QueueMessageOptions | undefined,
	): boolean {
		const priority = options?.priority ?? 0;
		if (!Number.isFinite(priority))
			throw new RangeError(`Queue priority must be a finite number, got ${String(priority)}`);
		if (this.deduplicateQueuedMessages) {
			const key = queueKey(message);
			if (this.steeringQueue.find(key) || this.followUpQueue.find(key)) return false;
		}
		const item: QueuedMessage = { message, priority };
		const store = this.agentStore;
		if (store) {
			const queueItemId = crypto.randomUUID();
			item.queueItemId = queueItemId;
			store.recordQueue({ action: "enqueued", item: { queueItemId, queue, priority, message } });
		}
		(queue === "steering" ? this.steeringQueue : this.followUpQueue).add(item);
		return true;
	}

	private dropQueued(items: QueuedMessage[]): void {
		const ids = items.flatMap((item) => (item.queueItemId === undefined ? [] : [item.queueItemId]));
		if (this.agentStore && ids.length > 0) this.agentStore.recordQueue({ action: "dropped", queueItemIds: ids });
	}

	// --- the store: branches and compaction ------------------------------------------------------

	/** The store this Agent keeps its conversation in, if it was given one. */
	get store(): AgentStore | undefined {
		return this.agentStore;
	}

	/**
	 * Summarises the stored context up to its recent tail (with a session: `compact` in
	 * @keel/agent-core/session) and makes the compacted context the transcript. Needs a store that
	 * compacts and an idle agent; the summariser defaults to the compaction option's model, then the Agent's.
	 */
	async compact(options: AgentCompactOptions = {} as AgentCompactOptions): Promise<AgentCompactResult> {
		const store = this.requireIdleStore("compact", "compact");
		const result = await store.compact(options, { model: this.liveState.model, streamFn: this.streamFn });
		this.liveState.messages = store.view().messages;
		return result;
	}

	/**
	 * Forks the stored conversation from a message (see Session.fork) and makes that branch the
	 * transcript. Forking away from a run paused for approvals leaves it waiting on its branch;
	 * switching back resumes it.
	 */
	async fork(messageId: string | null): Promise<void> {
		const store = this.requireIdleStore("fork", "fork");
		await store.fork(messageId);
		this.showStoreView(store);
	}

	/** Switches the stored conversation to another branch (a leaf from session.branches()) and shows it. */
	async switchBranch(leafId: string): Promise<void> {
		const store = this.requireIdleStore("switchBranch", "switchBranch");
		await store.switchBranch(leafId);
		this.showStoreView(store);
	}

	private requireIdleStore<K extends "compact" | "fork" | "switchBranch">(
		method: string,
		capability: K,
	): AgentStore & Required<Pick<AgentStore, K>> {
		const store = this.agentStore;
		if (!store?.[capability]) {
			throw new Error(
				`agent.${method}() needs a session: pass one as new Agent({ store: bindSession(session) }) (@keel/agent-core/session)`,
			);
		}
		if (this.running) throw new Error(`agent.${method}() cannot run while the agent is processing; wait for idle`);
		return store as AgentStore & Required<Pick<AgentStore, K>>;
	}

	// --- events ---------------------------------------------------------------------------------

	/** Adds a listener; returns the function that removes it. */
	subscribe(listener: AgentListener): () => void {
		this.listeners.add(listener);
		return () => {
			this.listeners.delete(listener);
		};
	}

	// --- approvals ------------------------------------------------------------------------------

	/** The run that paused because tool calls wait for approval (plain JSON, to store), or undefined. */
	get pausedRun(): PausedToolRun | undefined {
		return this.paused;
	}

	/** The tool calls waiting for a decision, in call order. */
	get pendingApprovals(): ToolApprovalRequest[] {
		return this.paused ? pendingToolApprovals(this.paused) : [];
	}

	/** Approves a waiting call and resumes the run; resolves when the agent is idle again. */
	approve(toolCallId: string): Promise<void> {
		return this.decide([{ toolCallId, approved: true }]);
	}

	/** Denies a waiting call (the model reads `reason` as its result) and resumes the run. */
	deny(toolCallId: string, reason?: string): Promise<void> {
		return this.decide([
			reason === undefined ? { toolCallId, approved: false } : { toolCallId, approved: false, reason },
		]);
	}

	/**
	 * Gives decisions and resumes the paused run: approved calls run, denied ones get their error
	 * result; calls still undecided keep waiting (the run pauses again once the others are done).
	 * Deciding a call again the same way does nothing; an unknown call id rejects with the ids that wait.
	 */
	decide(decisions: ToolApprovalDecision[]): Promise<void> {
		const fresh: ToolApprovalDecision[] = [];
		for (const decision of decisions) {
			const earlier = this.decided.get(decision?.toolCallId);
			if (earlier === undefined) fresh.push(decision);
			else if (earlier !== decision.approved) {
				const word = earlier ? "approved" : "denied";
				return Promise.reject(
					new Error(`Tool call "${decision.toolCallId}" was already ${word}; a decision cannot be changed`),
				);
			}
		}
		if (fresh.length === 0 && decisions.length > 0) return this.waitForIdle();
		if (this.running) return Promise.reject(new Error(ALREADY_PROCESSING_CONTINUE_TEXT));
		const paused = this.paused;
		if (!paused) {
			const ids = fresh.map((decision) => `"${decision?.toolCallId}"`).join(", ");
			return Promise.reject(new Error(`No tool call ${ids} is waiting for approval: the agent has no paused run`));
		}
		try {
			assertCanResume(this.liveState.messages, paused);
			applyToolApprovalDecisions(paused, fresh);
		} catch (error) {
			return Promise.reject(error);
		}
		for (const decision of fresh) this.decided.set(decision.toolCallId, decision.approved);
		return this.resume(paused, fresh);
	}

	private resume(paused: PausedToolRun, decisions: ToolApprovalDecision[]): Promise<void> {
		this.paused = undefined;
		return this.run(undefined, { paused, decisions });
	}

	// --- runs -----------------------------------------------------------------------------------

	/**
	 * Starts a run with a prompt and resolves when the agent is idle again (after the agent_end
	 * listeners). Rejects at once when a run is in progress. With a string, `images` may also hold
	 * file and audio blocks (docs/files.md), sent after the text.
	 */
	prompt(input: string | AgentMessage | AgentMessage[], images?: UserContent[]): Promise<void> {
		if (this.running) return Promise.reject(new Error(ALREADY_PROCESSING_PROMPT_TEXT));
		if (this.paused) return Promise.reject(new Error(waitingForApprovalText(this.paused)));
		let prompts: AgentMessage[];
		if (typeof input === "string") {
			prompts = [{ role: "user", content: [{ type: "text", text: input }, ...(images ?? [])], timestamp: Date.now() }];
		} else if (Array.isArray(input)) {
			prompts = input;
		} else {
			prompts = [input];
		}
		const invalid = prompts.findIndex((message) => typeof (message as { role?: unknown } | null)?.role !== "string");
		if (invalid !== -1 || prompts.length === 0) {
			const got = prompts.length === 0 ? "an empty array" : describeValue(prompts[invalid]);
			return Promise.reject(
				new TypeError(`prompt() takes a string, a message with a role, or a non-empty array of messages; got ${got}`),
			);
		}
		this.decided.clear();
		return this.run(prompts);
	}

	/**
	 * Continues from the transcript when its last message is a user or toolResult message (one loaded
	 * from storage, one whose failed assistant message was removed, or one ending with the not-run
	 * results of a failed response's tool calls). With an assistant message last, it runs the queued
	 * steering or follow-up messages instead.
	 */
	continue(): Promise<void> {
		if (this.running) return Promise.reject(new Error(ALREADY_PROCESSING_CONTINUE_TEXT));
		if (this.paused) {
			// Every call of the paused run is decided (a restart after the decisions were stored): it
			// only needs resuming, which is how the run goes on.
			if (pendingToolApprovals(this.paused).length === 0) return this.resume(this.paused, []);
			return Promise.reject(new Error(waitingForApprovalText(this.paused)));
		}
		const messages = this.liveState.messages;
		if (messages.length === 0) return Promise.reject(new Error("No messages to continue from"));
		const last = messages[messages.length - 1] as { role?: unknown };
		if (last.role !== "assistant") return this.run(undefined);
		const steering = this.takeQueued("steering");
		if (steering.length > 0) {
			this.skipNextSteeringPoll = true;
			return this.run(steering);
		}
		const followUps = this.takeQueued("followUp");
		if (followUps.length > 0) return this.run(followUps);
		return Promise.reject(new Error("Cannot continue from message role: assistant"));
	}

	/**
	 * Aborts the running run. While the agent waits for approvals, every waiting call gets an aborted
	 * result (in a new run, so listeners see it); otherwise it does nothing when idle.
	 */
	abort(): void {
		if (!this.abortController && this.paused && !this.running) {
			void this.resume(this.paused, []);
		}
		this.abortController?.abort();
	}

	/** Resolves when the agent is idle (at once when it already is). */
	waitForIdle(): Promise<void> {
		return this.running ?? Promise.resolve();
	}

	/**
	 * Clears the transcript, the streaming fields, the error and both queues. With a store, the next
	 * message starts a new conversation in it (a session keeps the old branches). Throws while a run
	 * is in progress: the run would go on appending to the transcript it clears.
	 */
	reset(): void {
		if (this.running) {
			throw new Error(
				"agent.reset() cannot run while the agent is processing: call abort() and await waitForIdle() first",
			);
		}
		this.agentStore?.reset?.();
		this.liveState.messages = [];
		this.liveState.streamingMessage = null;
		this.liveState.pendingToolCalls = new Set();
		this.liveState.errorMessage = undefined;
		this.paused = undefined;
		this.decided.clear();
		this.clearAllQueues();
	}

	private run(prompts: AgentMessage[] | undefined, resume?: PendingResume): Promise<void> {
		const controller = new AbortController();
		this.abortController = controller;
		const state = this.liveState;
		state.isStreaming = true;
		state.streamingMessage = null;
		state.errorMessage = undefined;
		// `running` is set before the loop starts: its first events reach listeners synchronously, and
		// a listener calling prompt() or waitForIdle() there must already see a running agent.
		let settle!: () => void;
		const running = new Promise<void>((resolve) => {
			settle = resolve;
		});
		this.running = running;
		void this.runLoop(prompts, controller, resume).finally(() => {
			state.isStreaming = false;
			state.streamingMessage = null;
			state.pendingToolCalls = new Set();
			if (this.abortController === controller) this.abortController = undefined;
			this.running = undefined;
			this.skipNextSteeringPoll = false;
			this.deliveringQueueItems.clear();
			settle();
		});
		return running;
	}

	private async runLoop(
		prompts: AgentMessage[] | undefined,
		controller: AbortController,
		resume?: PendingResume,
	): Promise<void> {
		const state = this.liveState;
		const context = { systemPrompt: state.systemPrompt, messages: [...state.messages], tools: [...state.tools] };
		const config = this.buildConfig(state.model);
		const sink = (event: AgentEvent) => this.dispatch(event, controller.signal);
		const store = this.agentStore;
		this.resuming = resume !== undefined;
		if (store) {
			store.recordSettings?.({
				systemPrompt: state.systemPrompt,
				model: state.model,
				thinkingLevel: state.thinkingLevel,
				tools: state.tools,
			});
			store.startRun?.();
		}
		// Neither rejects: the loop ends every failure with agent_end itself, and continue() checked
		// that the transcript can be continued before starting the run.
		// (decide() checked the decisions and the constructor the transcript, so resuming does not reject.)
		const added = resume
			? await runAgentLoopAfterApprovals(
					context,
					resume.paused,
					resume.decisions,
					config,
					sink,
					controller.signal,
					this.streamFn,
				)
			: prompts
				? await runAgentLoop(prompts, context, config, sink, controller.signal, this.streamFn)
				: await runAgentLoopContinue(context, config, sink, controller.signal, this.streamFn);
		if (store?.afterRun) await this.runAgainIfRepaired(store, added, config, sink, controller.signal);
	}

	/**
	 * After a run, the store may repair what ended it (a session compacts after a context overflow):
	 * the turn then runs once more from the store's context. A repair that fails is reported through
	 * onListenerError and the run's error stands.
	 */
	private async runAgainIfRepaired(
		store: AgentStore,
		added: AgentMessage[],
		config: AgentLoopConfig,
		sink: (event: AgentEvent) => void | Promise<void>,
		signal: AbortSignal,
	): Promise<void> {
		const run: AgentStoreRun = { model: config.model, streamFn: this.streamFn, signal };
		let repaired = false;
		try {
			repaired = (await store.afterRun?.(added, run)) === true;
		} catch (error) {
			this.reportListenerError(error, { type: "agent_end", messages: added });
		}
		if (!repaired) return;
		this.liveState.errorMessage = undefined;
		const state = this.liveState;
		const context = { systemPrompt: state.systemPrompt, messages: [...state.messages], tools: [...state.tools] };
		store.startRun?.();
		await runAgentLoopContinue(context, config, sink, signal, this.streamFn);
	}

	private buildConfig(model: Model): AgentLoopConfig {
		const state = this.liveState;
		return {
			model,
			reasoning: state.thinkingLevel === "off" ? undefined : state.thinkingLevel,
			sessionId: this.sessionId,
			onPayload: this.onPayload,
			onResponse: this.onResponse,
			thinkingBudgets: this.thinkingBudgets,
			transport: this.transport,
			maxRetryDelayMs: this.maxRetryDelayMs,
			toolExecution: this.toolExecution,
			steeringCheck: this.steeringCheck,
			listenForInterrupts: (interrupt) => {
				this.interruptRun = interrupt;
				return () => {
					if (this.interruptRun === interrupt) this.interruptRun = undefined;
				};
			},
			beforeToolCall: this.beforeToolCall,
			afterToolCall: this.afterToolCall,
			shouldStopAfterTurn: this.shouldStopAfterTurn,
			prepareNextTurn: this.prepareNextTurn,
			prepareRequest: this.prepareRequest,
			finishTurn: this.finishTurn,
			approvalPolicy: this.approvalPolicy,
			convertToLlm: this.convertToLlm,
			transformContext: this.agentStore?.prepareContext ? this.preparingTransform(model) : this.transformContext,
			getApiKey: this.getApiKey,
			getSteeringMessages: () => {
				if (this.skipNextSteeringPoll) {
					this.skipNextSteeringPoll = false;
					return [];
				}
				return this.takeQueued("steering");
			},
			getFollowUpMessages: () => this.takeQueued("followUp"),
		};
	}

	/** The store's preparation first (compaction may replace the start with a summary), then the app's transform. */
	private preparingTransform(model: Model): AgentLoopConfig["transformContext"] {
		const store = this.agentStore as AgentStore & Required<Pick<AgentStore, "prepareContext">>;
		return (messages, signal) => {
			const prepared = store.prepareContext(messages, { model, streamFn: this.streamFn, signal });
			const transform = this.transformContext;
			if (!transform) return prepared;
			return isPromiseLike(prepared) ? prepared.then((ready) => transform(ready, signal)) : transform(prepared, signal);
		};
	}

	private takeQueued(queue: "steering" | "followUp"): AgentMessage[] {
		const mode = queue === "steering" ? this.steeringMode : this.followUpMode;
		const items = (queue === "steering" ? this.steeringQueue : this.followUpQueue).take(mode);
		if (items.length === 0) return [];
		const messages: AgentMessage[] = [];
		for (const item of items) {
			if (item.queueItemId !== undefined) this.deliveringQueueItems.set(item.message, item.queueItemId);
			messages.push(item.message);
		}
		return messages;
	}

	/**
	 * Reduces the event into the state, then calls each listener in turn, awaiting those that return
	 * a promise. Synchronous listeners cost no promise, which keeps the per-event path cheap.
	 */
	private dispatch(event: AgentEvent, signal: AbortSignal): void | Promise<void> {
		this.reduce(event);
		const store = this.agentStore;
		if (store === undefined) return this.notifyListeners(event, signal);
		if (event.type === "message_end") {
			// Stored before the listeners hear of it, and before the loop goes on (it awaits this); a
			// queued message's "delivered" mark goes with it. A failed write fails the run.
			const queueItemId = this.deliveringQueueItems.get(event.message);
			if (queueItemId !== undefined) this.deliveringQueueItems.delete(event.message);
			const delivers = queueItemId === undefined ? undefined : { queueItemId };
			return store.append(event.message, delivers).then(() => this.notifyListeners(event, signal));
		}
		if (
			(event.type === "agent_end" && event.pausedRun) ||
			event.type === "tool_approval_response" ||
			(event.type === "turn_end" && this.resuming)
		) {
			if (event.type === "turn_end") this.resuming = false;
			const recorded = store.recordApproval?.(event);
			if (recorded) return this.notifyAfterRecorded(recorded, event, signal);
		}
		return this.notifyListeners(event, signal);
	}

	/**
	 * The approval records go in before the listeners hear of the event — a decision's record before
	 * the approved tool runs (the loop awaits this), so a restart neither asks again nor forgets. A
	 * failed write is reported like a listener's error; a session then refuses every later write,
	 * which fails the run at its next message.
	 */
	private notifyAfterRecorded(recorded: Promise<void>, event: AgentEvent, signal: AbortSignal): Promise<void> {
		return recorded.then(
			() => this.notifyListeners(event, signal),
			(error: unknown) => {
				this.reportListenerError(error, event);
				return this.notifyListeners(event, signal);
			},
		);
	}

	private notifyListeners(event: AgentEvent, signal: AbortSignal): void | Promise<void> {
		if (this.listeners.size === 0) return;
		// A copy: a listener added or removed during this event changes the later events only.
		const listeners = [...this.listeners];
		for (let index = 0; index < listeners.length; index++) {
			const pending = this.callListener(listeners[index], event, signal);
			if (pending) return this.dispatchAfter(pending, listeners, index + 1, event, signal);
		}
	}

	private async dispatchAfter(
		pending: Promise<void>,
		listeners: AgentListener[],
		from: number,
		event: AgentEvent,
		signal: AbortSignal,
	): Promise<void> {
		await pending;
		for (let index = from; index < listeners.length; index++) {
			const next = this.callListener(listeners[index], event, signal);
			if (next) await next;
		}
	}

	/** Calls one listener; a throw or rejection goes to onListenerError, never into the run. */
	private callListener(listener: AgentListener, event: AgentEvent, signal: AbortSignal): Promise<void> | undefined {
		try {
			const result = listener(event, signal);
			if (result && typeof (result as Promise<void>).then === "function") {
				return Promise.resolve(result).then(undefined, (error: unknown) => this.reportListenerError(error, event));
			}
		} catch (error) {
			this.reportListenerError(error, event);
		}
		return undefined;
	}

	private reportListenerError(error: unknown, event: AgentEvent): void {
		try {
			this.onListenerError(error, event);
		} catch {
			// The error reporter failed too; the run must go on regardless.
		}
	}

	private reduce(event: AgentEvent): void {
		const state = this.liveState;
		switch (event.type) {
			case "message_start":
			case "message_update":
				state.streamingMessage = event.message;
				break;
			case "message_end":
				state.streamingMessage = null;
				this.liveState.append(event.message);
				break;
			case "tool_execution_start":
				state.pendingToolCalls = new Set(state.pendingToolCalls).add(event.toolCallId);
				break;
			case "tool_execution_end": {
				const pending = new Set(state.pendingToolCalls);
				pending.delete(event.toolCallId);
				state.pendingToolCalls = pending;
				break;
			}
			case "tool_approval_response":
				state.pendingToolCalls = new Set(state.pendingToolCalls).add(event.toolCallId);
				break;
			case "agent_end":
				this.paused = event.pausedRun;
				break;
			case "turn_end": {
				const message = event.message as { role?: unknown; errorMessage?: string };
				// An answer interrupted by steering is no error: the run goes on.
				if (message.role === "assistant" && message.errorMessage && !isInterruptedMessage(event.message)) {
					state.errorMessage = message.errorMessage;
				}
				break;
			}
		}
	}
}

/** A paused run and the decisions that resume it. */
interface PendingResume {
	paused: PausedToolRun;
	decisions: ToolApprovalDecision[];
}

/** Names the calls that wait (id and tool), so the error says what to decide. */
function waitingForApprovalText(paused: PausedToolRun): string {
	const calls = pendingToolApprovals(paused).map((request) => `"${request.toolCallId}" (${request.toolName})`);
	if (calls.length === 0) {
		// Decided after the pause (a restart since): the batch's results are not in the transcript yet.
		const batch = paused.calls
			.filter((call) => call.status !== "recorded")
			.map((call) => `"${call.toolCallId}" (${call.toolName})`);
		return `Agent has a paused run whose calls are all decided (${batch.join(", ")}): call continue() or decide([]) to finish it, or abort()`;
	}
	return `Agent is waiting for tool approval (${calls.join(", ")}): call approve(), deny() or abort() first`;
}

function describeValue(value: unknown): string {
	if (value === null || value === undefined) return String(value);
	if (typeof value !== "object") return `${typeof value} ${JSON.stringify(value)}`;
	try {
		return JSON.stringify(value).slice(0, 100);
	} catch {
		return "an object";
	}
}

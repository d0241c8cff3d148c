// A session: one conversation with identity, over a transcript store. Every message gets an id, its
// parent (the previous message on its branch), the session id and a time; the parent chain, not the
// order of lines, is the history. The session keeps an index of the transcript in memory (see
// session-tree.ts) and appends records through the store's writer, one write at a time, in order.
import type { ToolCall, ToolResultMessage } from "@keel/ai";
import { formatThrownValue } from "@keel/ai";
import type { PausedToolRun } from "../approval/approval-types.js";
import { pendingToolApprovals } from "../approval/paused-run.js";
import type { AgentMessage } from "../types.js";
import { findPausedToolRun } from "./approval-records.js";
import { canLoadByOffset, loadOutlined, type OutlinedMessages, scanIntoTree } from "./context-loading.js";
import { checkContextTokens, chooseContextCut, type SessionContextCut, serializedBytes } from "./context-window.js";
import { refuseForeignTranscript } from "./foreign-transcript.js";
import type { SessionDamage } from "./record-damage.js";
import { isSideMessage, type SessionBranchInfo, SessionTree } from "./session-tree.js";
import {
	type CompactBoundaryMessage,
	SESSION_FORMAT_VERSION,
	type SessionApprovalRecord,
	type SessionHeaderRecord,
	type SessionMessageRecord,
	type SessionQueueRecord,
	type SessionRecord,
	type SessionState,
	type SummaryMessage,
	type TombstoneMessage,
	type TranscriptReadProblem,
	type TranscriptStore,
	type TranscriptWriter,
} from "./session-types.js";
import { INTERRUPTED_TOOL_TEXT, syntheticToolResult, toolCallsOf } from "./tool-result-pairing.js";

export interface CreateSessionOptions {
	/** Default: a random UUID. */
	sessionId?: string;
	title?: string;
	state?: SessionState;
	/** For a sub-agent's transcript: the session and message that started it (see `startSidechain`). */
	parentSessionId?: string;
	parentMessageId?: string;
	/** For a sub-agent run as a tool: the parent's tool call (of `parentMessageId`) it answers. */
	parentToolCallId?: string;
}

export interface OpenSessionOptions {
	/**
	 * "all" (default): read every record. "context": what a model can be sent — the model context
	 * from the branch's last compaction boundary, and of it at most the newest `contextTokens`
	 * estimated tokens, cut at a user message (`contextCut` says what was left out). With a store that
	 * has `scan` and `readAt` (JSONL, SQLite, PostgreSQL) only that context and the branch leaves are
	 * read in full, the rest of the history kept as an outline — bounded memory for huge sessions;
	 * others read everything. Reading another branch's messages, or the whole of a cut branch, then
	 * needs `await session.loadBranch(leafId)`.
	 */
	load?: "all" | "context";
	/**
	 * With load: "context": the most estimated tokens (4 bytes of the stored records a token) the model
	 * context keeps. Default DEFAULT_CONTEXT_TOKENS (2,000,000): every catalogued model's window but those
	 * LARGER_WINDOW_MODELS lists; for those, pass `model.contextWindow`.
	 */
	contextTokens?: number;
}

export interface SessionAppendOptions {
	/** The queue item this message delivers: its "delivered" record is written with the message, in one write. */
	queueItemId?: string;
}

/** A queued message as the session keeps it until it is delivered or dropped. */
export interface PendingQueueItem {
	queueItemId: string;
	queue: "steering" | "followUp";
	priority: number;
	message: AgentMessage;
}

export class Session {
	/** Problems the store reported while reading the transcript (a torn last line, a malformed line). */
	readonly problems: readonly TranscriptReadProblem[];
	/**
	 * What opening found damaged: the lines skipped (`problems`) and the links of the parent chain
	 * mended so every readable message stays on its branch. Empty lists for a sound transcript.
	 */
	readonly damage: SessionDamage;
	/**
	 * Set when load: "context" cut the current branch's model context to its newest `contextTokens`
	 * (see OpenSessionOptions): `modelContext()` starts at `firstMessageId`, and the
	 * `omittedMessages` before it stay on disk. Appends go on after the cut; a later compaction
	 * summarises what follows it (what the model saw). `loadBranch()` and `branch()` still give the
	 * whole branch.
	 */
	readonly contextCut: SessionContextCut | undefined;
	private readonly tree: SessionTree;
	private readonly ids = new WeakMap<object, string>();
	private writing: Promise<void> = Promise.resolve();
	private failure: unknown;
	private closed = false;

	private constructor(
		readonly store: TranscriptStore,
		private readonly writer: TranscriptWriter,
		tree: SessionTree,
		problems: TranscriptReadProblem[],
		/** Set when opened with load: "context": the messages whose full record is still on disk. */
		private readonly outline?: OutlinedMessages,
		contextCut?: SessionContextCut,
	) {
		this.tree = tree;
		this.problems = problems;
		this.contextCut = contextCut;
		this.damage = { skippedLines: problems, repairs: tree.repairs };
		for (const record of tree.messages.values()) {
			if (!outline?.offsets.has(record.id)) this.ids.set(record.message as object, record.id);
		}
	}

	/** Creates a new session in `store` (its header is the first record) and holds its write lock. */
	static async create(store: TranscriptStore, options: CreateSessionOptions = {}): Promise<Session> {
		const header: SessionHeaderRecord = {
			type: "session",
			v: SESSION_FORMAT_VERSION,
			sessionId: options.sessionId ?? crypto.randomUUID(),
			timestamp: Date.now(),
		};
		if (options.title !== undefined) header.title = options.title;
		if (options.parentSessionId !== undefined) header.parentSessionId = options.parentSessionId;
		if (options.parentMessageId !== undefined) header.parentMessageId = options.parentMessageId;
		if (options.parentToolCallId !== undefined) header.parentToolCallId = options.parentToolCallId;
		if (await store.exists(header.sessionId)) {
			throw new Error(`Session "${header.sessionId}" already exists: open it with Session.open() instead`);
		}
		const writer = await store.openWriter(header.sessionId, { create: header });
		const tree = new SessionTree();
		tree.add(header);
		const session = new Session(store, writer, tree, []);
		if (options.state) await session.setState(options.state);
		return session;
	}

	/**
	 * Opens an existing session for appending: takes its write lock (a second writer gets the store's
	 * lock error), then reads the whole transcript into the index. Problems the store set aside are in
	 * `problems`; every readable record is used. A transcript another tool wrote (see interchange/)
	 * is refused with a ForeignTranscriptError before anything is opened: import it instead.
	 */
	static async open(store: TranscriptStore, sessionId: string, options: OpenSessionOptions = {}): Promise<Session> {
		const load = options.load ?? "all";
		if (load !== "all" && load !== "context") {
			throw new TypeError(`Session.open(): load must be "all" or "context", got ${JSON.stringify(load)}`);
		}
		if (load === "all" && options.contextTokens !== undefined) {
			throw new TypeError(
				'Session.open(): contextTokens applies to load: "context" only (load: "all" reads everything)',
			);
		}
		const contextTokens = checkContextTokens(options.contextTokens);
		// Before the lock: opening a writer may already change a file (a torn tail is set aside).
		await refuseForeignTranscript(store, sessionId);
		const writer = await store.openWriter(sessionId);
		try {
			const tree = new SessionTree();
			if (load === "context" && canLoadByOffset(store)) {
				const { problems, outline, needed, cut } = await scanIntoTree(store, sessionId, tree, contextTokens);
				const session = new Session(store, writer, tree, [...repairedOnOpen(writer), ...problems], outline, cut);
				await session.loadRecords(needed);
				return session;
			}
			// Scanned where the store can, so repairs of a damaged chain name their lines.
			const problems = store.scan
				? await store.scan(sessionId, (record, line) => tree.add(record, line))
				: await readIntoTree(store, sessionId, tree);
			// A store read whole is cut the same way, so load: "context" means the same on every store.
			const cut =
				load === "context" ? chooseContextCut(tree.modelContext(), serializedBytes, contextTokens) : undefined;
			tree.contextStartId = cut?.firstMessageId;
			return new Session(store, writer, tree, [...repairedOnOpen(writer), ...problems], undefined, cut);
		} catch (error) {
			await writer.close();
			throw error;
		}
	}

	get id(): string {
		return this.writer.sessionId;
	}

	get header(): SessionHeaderRecord | undefined {
		return this.tree.header;
	}

	/** The last message of the current branch (tombstoned ones skipped), or null when it is empty. */
	get leafId(): string | null {
		return this.tree.visibleAncestor(this.tree.leafId);
	}

	/** The last stored state (a copy is stored on each change; treat this one as read-only). */
	get state(): SessionState {
		return this.tree.state;
	}

	/** The id a message got when it was appended to (or read from) this session. */
	idOf(message: AgentMessage): string | undefined {
		return this.ids.get(message as object);
	}

	/**
	 * The stored record of a message id. In a session opened with `load: "context"`, a message not
	 * loaded yet is an outline: its id, parent, role and tool-call ids, without its content.
	 */
	getRecord(messageId: string): SessionMessageRecord | undefined {
		return this.tree.messages.get(messageId);
	}

	// --- messages -------------------------------------------------------------------------------

	/**
	 * Appends a message at the end of the current branch and resolves once it is written. The id and
	 * parent are fixed at the call, so appends that are not awaited still chain in call order.
	 *
	 * Tool results keep their pairing: a tool result must answer a call of the branch's last assistant
	 * message that has no result yet (otherwise this throws), and any other message appended while
	 * such calls wait first closes them with "interrupted" error results. Calls that wait for approval
	 * (a paused run, see `pausedToolRun`) are not closed: appending anything but their results is
	 * refused until they are decided. Progress and tombstones are stored beside the branch, never on it.
	 */
	append(message: AgentMessage, options?: SessionAppendOptions): Promise<SessionMessageRecord> {
		const records: SessionRecord[] = [];
		if (options?.queueItemId !== undefined) records.push(this.queueRecord("delivered", options.queueItemId));
		if (!isSideMessage(message)) {
			const waiting = this.unansweredToolCalls(this.leafId);
			const role = (message as { role?: unknown }).role;
			if (role === "toolResult") {
				const toolCallId = (message as ToolResultMessage).toolCallId;
				if (!waiting.some((toolCall) => toolCall.id === toolCallId)) {
					return Promise.reject(
						new Error(
							`Cannot append the result of tool call "${toolCallId}" to session ${this.id}: no tool call on the current branch is waiting for it`,
						),
					);
				}
			} else {
				const paused = waiting.length > 0 ? this.pausedToolRun() : undefined;
				if (paused) return Promise.reject(waitingForApprovalError(this.id, paused, `append a ${String(role)} message`));
				for (const toolCall of waiting) records.push(this.messageRecord(syntheticResult(toolCall)));
			}
		}
		const record = this.messageRecord(message);
		records.push(record);
		return this.write(records).then(() => record);
	}

	/**
	 * Appends a summary and the compact boundary that follows it, in one write: a crash leaves both or
	 * neither. Used by `compact()`.
	 */
	async appendCompaction(
		summary: SummaryMessage,
		boundary: Pick<CompactBoundaryMessage, "trigger" | "tokensBefore" | "firstKeptMessageId">,
	): Promise<{ summaryRecord: SessionMessageRecord; boundaryRecord: SessionMessageRecord }> {
		const paused = this.pausedToolRun();
		if (paused) throw waitingForApprovalError(this.id, paused, "compact");
		const waiting = this.unansweredToolCalls(this.leafId);
		const records: SessionRecord[] = waiting.map((toolCall) => this.messageRecord(syntheticResult(toolCall)));
		const summaryRecord = this.messageRecord(asAgentMessage(summary));
		const boundaryMessage: CompactBoundaryMessage = {
			role: "compact_boundary",
			trigger: boundary.trigger,
			summaryId: summaryRecord.id,
			timestamp: summary.timestamp,
		};
		if (boundary.tokensBefore !== undefined) boundaryMessage.tokensBefore = boundary.tokensBefore;
		if (boundary.firstKeptMessageId !== undefined) boundaryMessage.firstKeptMessageId = boundary.firstKeptMessageId;
		const boundaryRecord = this.messageRecord(asAgentMessage(boundaryMessage));
		records.push(summaryRecord, boundaryRecord);
		await this.write(records);
		return { summaryRecord, boundaryRecord };
	}

	/** The current branch (or the one ending at `leafId`), root first, tombstoned messages left out. */
	branch(leafId: string | null = this.tree.leafId): SessionMessageRecord[] {
		return this.requireLoaded(this.tree.branch(leafId), leafId);
	}

	/** The messages of the branch, root first. */
	messages(leafId: string | null = this.tree.leafId): AgentMessage[] {
		return this.branch(leafId).map((record) => record.message);
	}

	/**
	 * Reads the full records of a branch a session opened with `load: "context"` has only outlined
	 * (nothing to do otherwise), so `branch()` and `messages()` can return it.
	 */
	async loadBranch(leafId: string | null = this.tree.leafId): Promise<void> {
		if (this.outline) await this.loadRecords(this.tree.branch(leafId));
	}

	/**
	 * What the model sees of the branch: from its last compact boundary on (the boundary's summary,
	 * the messages it kept, what follows); the whole branch when it was never compacted. A branch
	 * through the cut of load: "context" (`contextCut`) starts at its first message.
	 */
	modelContext(leafId: string | null = this.tree.leafId): AgentMessage[] {
		return this.modelContextRecords(leafId).map((record) => record.message);
	}

	/** The records behind `modelContext`. */
	modelContextRecords(leafId: string | null = this.tree.leafId): SessionMessageRecord[] {
		return this.requireLoaded(this.tree.modelContext(leafId), leafId);
	}

	/** Progress and tombstone records, in append order: stored for the record, never on a branch. */
	sideRecords(): readonly SessionMessageRecord[] {
		return this.tree.sideRecords;
	}

	/** Hides a message: every branch through it reads as if it were not there (the chain closes around it). */
	async tombstone(messageId: string, reason?: string): Promise<void> {
		const record = this.requireMessage(messageId);
		if ((record.message as { role?: unknown }).role === "toolResult") {
			throw new Error(
				`Cannot tombstone tool result "${messageId}" alone: its tool call would be left without a result; tombstone the assistant message that made the call (its results go with it)`,
			);
		}
		const tombstone: TombstoneMessage = { role: "tombstone", targetId: messageId, timestamp: Date.now() };
		if (reason !== undefined) tombstone.reason = reason;
		await this.append(asAgentMessage(tombstone));
	}

	// --- branches -------------------------------------------------------------------------------

	/** Every branch (its leaf), oldest first; the current one is flagged. */
	branches(): SessionBranchInfo[] {
		return this.tree.branches();
	}

	/** Makes the branch ending at `leafId` the current one (a leaf record, so it survives a restart). */
	async switchBranch(leafId: string): Promise<void> {
		this.requireMessage(leafId);
		if (this.outline) await this.loadRecords(this.tree.modelContext(leafId));
		await this.writeLeaf(leafId);
	}

	/**
	 * Forks from a message: the next append follows `messageId` (null: starts a new root), beside
	 * whatever already follows it, which stays as its own branch. To edit an earlier prompt, fork from
	 * the message before it and append the new prompt. Forking from an assistant message with tool
	 * calls keeps its results (the fork point moves past them); calls with no result get interrupted
	 * error results, so the new branch is valid from its first message — unless they wait for approval
	 * (a paused run): those stay pending, and deciding them goes on from there. Forking from a summary forks
	 * from its compact boundary, so the new branch keeps the compaction; forking from a message the
	 * compaction summarised or kept (they precede the boundary in the chain) forks the full history.
	 */
	async fork(messageId: string | null): Promise<void> {
		let leaf = messageId;
		if (leaf !== null) {
			this.requireMessage(leaf);
			leaf = this.pastCompactBoundary(this.pastAnsweringResults(leaf));
			if (this.outline) await this.loadRecords(this.tree.modelContext(leaf));
		}
		await this.writeLeaf(leaf);
		const waiting = this.unansweredToolCalls(leaf);
		if (waiting.length > 0 && !this.pausedToolRun(leaf))
			await this.write(waiting.map((toolCall) => this.messageRecord(syntheticResult(toolCall))));
	}

	// --- tool approvals ------------------------------------------------------------------------

	/**
	 * The run paused for tool approvals that the branch ending at `leafId` ends with, its stored
	 * decisions folded in; undefined when none waits there. A paused run belongs to its branch: fork
	 * away and it no longer applies (its calls stay pending on their branch), switch back and it does.
	 */
	pausedToolRun(leafId: string | null = this.leafId): PausedToolRun | undefined {
		if (this.tree.approvals.size === 0) return undefined;
		const end = this.waitingAssistant(leafId);
		if (!end) return undefined;
		const callIds = toolCallsOf(end.record.message).map((toolCall) => toolCall.id);
		for (const records of [...this.tree.approvals.values()].reverse()) {
			const paused = findPausedToolRun(records);
			if (!paused) continue;
			const pausedIds = toolCallsOf(paused.assistantMessage as AgentMessage).map((toolCall) => toolCall.id);
			if (pausedIds.length !== callIds.length || pausedIds.some((id, index) => id !== callIds[index])) continue;
			// The results written before the pause (a sequential batch) are the only answers on the branch.
			const recorded = new Set(
				paused.calls.filter((call) => call.status === "recorded").map((call) => call.toolCallId),
			);
			const answered = callIds.filter((id) => !end.waiting.some((toolCall) => toolCall.id === id));
			if (answered.every((id) => recorded.has(id))) return paused;
		}
		return undefined;
	}

	/**
	 * A writer for the approval records (`createToolApprovalRecorder` and the record functions of
	 * @keel/agent-core/session): they go through this session, in order with its messages. An Agent
	 * with a session uses it on its own.
	 */
	get approvalRecordWriter(): { sessionId: string; append(records: SessionRecord | SessionRecord[]): Promise<void> } {
		return { sessionId: this.id, append: (records) => this.appendApprovalRecords(records) };
	}

	/** Appends tool-approval records (type "approval" only) and resolves once they are written. */
	appendApprovalRecords(records: SessionRecord | SessionRecord[]): Promise<void> {
		const list = Array.isArray(records) ? records : [records];
		for (const record of list) {
			if (record?.type !== "approval") {
				return Promise.reject(
					new TypeError(
						`appendApprovalRecords() takes "approval" records; got a record of type ${JSON.stringify(record?.type)}`,
					),
				);
			}
			if ((record as SessionApprovalRecord).sessionId !== this.id) {
				return Promise.reject(
					new Error(`An approval record of session "${record.sessionId}" cannot be appended to session ${this.id}`),
				);
			}
		}
		for (const record of list) this.tree.add(record);
		return this.write(list);
	}

	// --- state, sidechains, queue ---------------------------------------------------------------

	/** Stores the whole state (the last state record wins on open). */
	async setState(state: SessionState): Promise<void> {
		const record: SessionRecord = {
			type: "state",
			v: SESSION_FORMAT_VERSION,
			sessionId: this.id,
			timestamp: Date.now(),
			state: structuredClone(state),
		};
		this.tree.add(record);
		await this.write([record]);
	}

	/** Stores the state with these fields replaced. */
	updateState(changes: Partial<SessionState>): Promise<void> {
		return this.setState({ ...this.tree.state, ...changes });
	}

	/**
	 * Starts a sub-agent's transcript: a session of its own in the same store, linked to this session
	 * and to the message that started it, and readable on its own. `options.parentToolCallId` names the
	 * tool call of that message it answers (an agent run as a tool), which must be one of its calls.
	 */
	startSidechain(
		parentMessageId: string,
		options: Omit<CreateSessionOptions, "parentSessionId" | "parentMessageId"> = {},
	): Promise<Session> {
		this.requireMessage(parentMessageId);
		const toolCallId = options.parentToolCallId;
		if (toolCallId !== undefined) {
			const message = this.getRecord(parentMessageId)?.message;
			const calls = message ? toolCallsOf(message) : [];
			if (!calls.some((toolCall) => toolCall.id === toolCallId)) {
				return Promise.reject(
					new Error(
						`Cannot start a sidechain for tool call "${toolCallId}": message "${parentMessageId}" of session ${this.id} has no such call`,
					),
				);
			}
		}
		return Session.create(this.store, { ...options, parentSessionId: this.id, parentMessageId });
	}

	/** Records a queued message so a crash does not lose it. */
	enqueue(item: PendingQueueItem): Promise<void> {
		const record: SessionQueueRecord = {
			...this.queueRecord("enqueued", item.queueItemId),
			queue: item.queue,
			priority: item.priority,
			message: item.message,
		};
		this.tree.add(record);
		return this.write([record]);
	}

	/** Records that a queued message was dropped (a queue was cleared) and will never be delivered. */
	dropQueued(queueItemIds: string[]): Promise<void> {
		if (queueItemIds.length === 0) return Promise.resolve();
		const records = queueItemIds.map((queueItemId) => this.queueRecord("dropped", queueItemId));
		for (const record of records) this.tree.add(record);
		return this.write(records);
	}

	/** Queued messages not yet delivered or dropped, in the order they were queued. */
	pendingQueueItems(): PendingQueueItem[] {
		const items: PendingQueueItem[] = [];
		for (const record of this.tree.pendingQueue.values()) {
			if (!record.message) continue;
			items.push({
				queueItemId: record.queueItemId,
				queue: record.queue ?? "followUp",
				priority: record.priority ?? 0,
				message: record.message,
			});
		}
		return items;
	}

	// --- writing --------------------------------------------------------------------------------

	/** Resolves once everything appended so far is durable (the store's strictest policy). */
	async flush(): Promise<void> {
		await this.writing;
		this.throwIfFailed();
		await this.writer.flush();
	}

	/** Waits for the pending writes, then flushes and releases the write lock. */
	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		await this.writing;
		await this.writer.close();
	}

	private messageRecord(message: AgentMessage): SessionMessageRecord {
		const record: SessionMessageRecord = {
			type: "message",
			v: SESSION_FORMAT_VERSION,
			sessionId: this.id,
			timestamp: Date.now(),
			id: crypto.randomUUID(),
			// A side message (progress, tombstone) names the leaf it was made at, but moves no leaf.
			parentId: this.leafId,
			message,
		};
		this.tree.add(record);
		this.ids.set(message as object, record.id);
		return record;
	}

	private queueRecord(action: SessionQueueRecord["action"], queueItemId: string): SessionQueueRecord {
		const record: SessionQueueRecord = {
			type: "queue",
			v: SESSION_FORMAT_VERSION,
			sessionId: this.id,
			timestamp: Date.now(),
			action,
			queueItemId,
		};
		if (action !== "enqueued") this.tree.add(record);
		return record;
	}

	private writeLeaf(leafId: string | null): Promise<void> {
		const record: SessionRecord = {
			type: "leaf",
			v: SESSION_FORMAT_VERSION,
			sessionId: this.id,
			timestamp: Date.now(),
			leafId,
		};
		this.tree.add(record);
		return this.write([record]);
	}

	/**
	 * Writes in call order. A failed write leaves the index ahead of the store, so every later write
	 * is refused with the first failure's cause instead of building on records that are not there.
	 */
	private write(records: SessionRecord[]): Promise<void> {
		if (this.closed) return Promise.reject(new Error(`Session ${this.id} is closed`));
		const written = this.writing.then(() => {
			this.throwIfFailed();
			return this.writer.append(records);
		});
		this.writing = written.then(undefined, (error: unknown) => {
			this.failure ??= error;
		});
		return written;
	}

	private throwIfFailed(): void {
		if (this.failure !== undefined) {
			throw new Error(
				`Session ${this.id} can no longer be written: an earlier append failed (${formatThrownValue(this.failure)})`,
			);
		}
	}

	private async loadRecords(records: readonly SessionMessageRecord[]): Promise<void> {
		if (!this.outline || !canLoadByOffset(this.store)) return;
		for (const record of await loadOutlined(this.store, this.id, this.tree, this.outline, records)) {
			this.ids.set(record.message as object, record.id);
		}
	}

	/** Refuses to hand out outlines for messages (a session opened with load: "context"). */
	private requireLoaded(records: SessionMessageRecord[], leafId: string | null): SessionMessageRecord[] {
		if (!this.outline || this.outline.offsets.size === 0) return records;
		for (const record of records) {
			if (this.outline.offsets.has(record.id)) {
				throw new Error(
					`Session ${this.id} was opened with load: "context" and this branch is not loaded: await session.loadBranch(${JSON.stringify(leafId)}) first`,
				);
			}
		}
		return records;
	}

	private requireMessage(messageId: string): SessionMessageRecord {
		const record = this.tree.messages.get(messageId);
		if (!record) throw new Error(`Session ${this.id} has no message "${messageId}"`);
		if (this.tree.tombstoned.has(messageId))
			throw new Error(`Message "${messageId}" of session ${this.id} is tombstoned`);
		return record;
	}

	/**
	 * The calls of the last assistant message at the end of the branch ending at `leafId` that have
	 * no result yet; empty when anything but tool results follows that message.
	 */
	unansweredToolCalls(leafId: string | null = this.leafId): ToolCall[] {
		return this.waitingAssistant(leafId)?.waiting ?? [];
	}

	/** The branch's last assistant message with calls still waiting for a result, and those calls. */
	private waitingAssistant(leafId: string | null): { record: SessionMessageRecord; waiting: ToolCall[] } | undefined {
		const answered = new Set<string>();
		let cursor = this.tree.visibleAncestor(leafId);
		for (let steps = 0; cursor !== null && steps <= this.tree.messages.size; steps++) {
			const record = this.tree.messages.get(cursor);
			if (!record) break;
			if (!this.tree.tombstoned.has(cursor)) {
				const role = (record.message as { role?: unknown }).role;
				if (role === "toolResult") answered.add((record.message as ToolResultMessage).toolCallId);
				else if (role === "assistant") {
					const waiting = toolCallsOf(record.message).filter((call) => !answered.has(call.id));
					return waiting.length > 0 ? { record, waiting } : undefined;
				} else return undefined;
			}
			cursor = record.parentId;
		}
		return undefined;
	}

	/** From a summary, the compact boundary written with it (the summary alone compacts nothing). */
	private pastCompactBoundary(messageId: string): string {
		const boundary = this.tree.childrenOf(messageId).find((childId) => {
			const child = this.tree.messages.get(childId)?.message as unknown as { role?: unknown; summaryId?: unknown };
			return !this.tree.tombstoned.has(childId) && child?.role === "compact_boundary" && child.summaryId === messageId;
		});
		return boundary ?? messageId;
	}

	/** From an assistant message with tool calls, the last of the results that directly follow it. */
	private pastAnsweringResults(messageId: string): string {
		let cursor = messageId;
		let waiting = this.unansweredToolCalls(cursor);
		while (waiting.length > 0) {
			const next = this.tree.childrenOf(cursor).find((childId) => {
				const child = this.tree.messages.get(childId)?.message as ToolResultMessage | undefined;
				return (
					!this.tree.tombstoned.has(childId) &&
					child?.role === "toolResult" &&
					waiting.some((toolCall) => toolCall.id === child.toolCallId)
				);
			});
			if (next === undefined) break;
			cursor = next;
			waiting = this.unansweredToolCalls(cursor);
		}
		return cursor;
	}
}

/**
 * A session kind as a transcript message. Importing @keel/agent-core/session makes every session
 * kind an AgentMessage (declaration merging); this module is also compiled for the root entry,
 * whose types do not merge them in, so the conversion is written out once here.
 */
function asAgentMessage(message: SummaryMessage | CompactBoundaryMessage | TombstoneMessage): AgentMessage {
	return message as unknown as AgentMessage;
}

function syntheticResult(toolCall: ToolCall): ToolResultMessage {
	return syntheticToolResult(toolCall, INTERRUPTED_TOOL_TEXT);
}

/** The error for a change that would close calls still waiting for approval with made-up results. */
export function waitingForApprovalError(sessionId: string, paused: PausedToolRun, action: string): Error {
	const ids = paused.calls.filter((call) => call.status === "pending").map((call) => `"${call.toolCallId}"`);
	const undecided = pendingToolApprovals(paused).length;
	const hint =
		undecided > 0
			? "approve or deny them (agent.approve / agent.deny) or abort the run"
			: "resume the run (agent.decide([]))";
	return new Error(
		`Cannot ${action} in session ${sessionId}: tool calls wait for approval (${ids.join(", ")}); ${hint} first, or fork away from the paused run`,
	);
}

async function readIntoTree(
	store: TranscriptStore,
	sessionId: string,
	tree: SessionTree,
): Promise<TranscriptReadProblem[]> {
	const { records, problems } = await store.read(sessionId);
	for (const record of records) tree.add(record);
	return problems;
}

/** What the writer repaired when it opened the transcript (the JSONL store sets a torn last line aside). */
function repairedOnOpen(writer: TranscriptWriter): readonly TranscriptReadProblem[] {
	return (writer as { problems?: readonly TranscriptReadProblem[] }).problems ?? [];
}

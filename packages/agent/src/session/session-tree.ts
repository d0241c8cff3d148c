// The in-memory index of a transcript: its messages by id, who follows whom, the tombstones, the
// current leaf, the last state and the queue items still waiting. Built by replaying the records in
// order (on open) and kept up to date by every append. Reading a branch or the model's context
// walks this index; nothing here touches a store.
import type { AssistantMessage, ToolResultMessage } from "@keel/ai";
import type { AgentMessage } from "../types.js";
import { duplicateIdRepair, missingLeafRepair, missingParentRepair, type SessionChainRepair } from "./record-damage.js";
import type {
	CompactBoundaryMessage,
	SessionApprovalRecord,
	SessionHeaderRecord,
	SessionMessageRecord,
	SessionQueueRecord,
	SessionRecord,
	SessionState,
	UnknownSessionRecord,
} from "./session-types.js";

/** A leaf of the message tree: the end of one branch. */
export interface SessionBranchInfo {
	leafId: string;
	/** The message at the leaf. */
	message: AgentMessage;
	timestamp: number;
	/** Messages on the branch, root to leaf (tombstoned ones not counted). */
	length: number;
	/** True for the branch the session currently appends to. */
	current: boolean;
}

function roleOf(message: AgentMessage): unknown {
	return (message as { role?: unknown }).role;
}

/** Messages stored for the record but never part of a branch: live progress and tombstones. */
export function isSideMessage(message: AgentMessage): boolean {
	const role = roleOf(message);
	return role === "progress" || role === "tombstone";
}

export class SessionTree {
	header: SessionHeaderRecord | undefined;
	readonly messages = new Map<string, SessionMessageRecord>();
	/**
	 * Message ids by parent id (null: the roots), in append order. A parent with one child (nearly
	 * every message: branches are rare) maps to that id itself rather than to an array of one, which
	 * keeps the index of a long session much smaller. Built from `messages` when first needed (see
	 * childIndex) and kept up to date from then on: opening a session reads no one's children, and
	 * 100,000 entries made a good part of its time.
	 */
	private children: Map<string | null, string | string[]> | undefined;
	readonly tombstoned = new Set<string>();
	leafId: string | null = null;
	state: SessionState = {};
	/** Enqueued queue items with no delivered or dropped record yet, in enqueue order. */
	readonly pendingQueue = new Map<string, SessionQueueRecord>();
	/** Side records (progress, tombstones) in append order. */
	readonly sideRecords: SessionMessageRecord[] = [];
	/** Tool-approval records by the pause they belong to, each list in append order. */
	readonly approvals = new Map<string, SessionApprovalRecord[]>();
	/** Links of the parent chain mended while reading a damaged transcript (see record-damage.ts). */
	readonly repairs: SessionChainRepair[] = [];
	/**
	 * Where load: "context" cut the model context (see context-window.ts): a branch through this
	 * message has its context start there, as if a compaction had dropped what came before it.
	 */
	contextStartId: string | undefined;
	/**
	 * For ids used by more than one message: the id later lines mean (the newest message's). Empty
	 * for a sound transcript.
	 */
	private readonly renamedIds = new Map<string, string>();
	/** The id in the file of each message renamed for a duplicate id, by its id here. */
	private readonly fileIds = new Map<string, string>();
	private recordsAdded = 0;
	/** The id of the last message added to the chain (undefined: none yet). */
	private newestId: string | undefined;
	/** The last branch walked (see walk): its leaf, `recordsAdded` then, and what the walk found. */
	private lastWalk: ({ leafId: string | null; recordsAdded: number } & BranchWalk) | undefined;

	/**
	 * Adds one record, read from a transcript (at `line`, when known) or being appended. A record that
	 * breaks the chain (a missing parent or leaf, a duplicate id) is mended and the repair listed in
	 * `repairs`; see record-damage.ts.
	 */
	add(record: SessionRecord | UnknownSessionRecord, line?: number): void {
		this.recordsAdded++;
		switch (record.type) {
			case "session":
				this.header = record as SessionHeaderRecord;
				break;
			case "message":
				this.addMessage(record as SessionMessageRecord, line);
				break;
			case "leaf": {
				const named = (record as { leafId: string | null }).leafId;
				const leafId = named === null ? null : this.resolveId(named);
				if (leafId !== null && !this.messages.has(leafId)) {
					this.repairs.push(missingLeafRepair(line, named as string, this.leafId));
					break;
				}
				this.leafId = leafId;
				break;
			}
			case "state":
				this.state = (record as { state: SessionState }).state;
				break;
			case "queue": {
				const queueRecord = record as SessionQueueRecord;
				if (queueRecord.action === "enqueued") this.pendingQueue.set(queueRecord.queueItemId, queueRecord);
				else this.pendingQueue.delete(queueRecord.queueItemId);
				break;
			}
			case "approval": {
				const approval = record as SessionApprovalRecord;
				const list = this.approvals.get(approval.pauseId);
				if (list) list.push(approval);
				else this.approvals.set(approval.pauseId, [approval]);
				break;
			}
			// A record type a newer version wrote: kept in the file, nothing to index.
		}
	}

	/** The id of a message here, from the id a line of the transcript names. */
	resolveId(id: string): string {
		return this.renamedIds.size === 0 ? id : (this.renamedIds.get(id) ?? id);
	}

	/** The id a message has in the transcript file (differs from its id here only after a duplicate). */
	fileIdOf(id: string): string {
		return this.fileIds.size === 0 ? id : (this.fileIds.get(id) ?? id);
	}

	private addMessage(appended: SessionMessageRecord, line: number | undefined): void {
		const message = appended.message;
		if (isSideMessage(message)) {
			this.sideRecords.push(appended);
			if (roleOf(message) === "tombstone")
				this.tombstoned.add(this.resolveId((message as unknown as { targetId: string }).targetId));
			return;
		}
		const record = this.mendLinks(appended, line);
		this.messages.set(record.id, record);
		if (this.children) addChild(this.children, record);
		this.leafId = record.id;
		this.newestId = record.id;
	}

	/** The children index, built from the messages in append order the first time it is read. */
	private childIndex(): Map<string | null, string | string[]> {
		if (!this.children) {
			this.children = new Map();
			for (const record of this.messages.values()) addChild(this.children, record);
		}
		return this.children;
	}

	/**
	 * The record as it joins the index: its parent resolved to a message read before it (or, when
	 * there is none, the branch's end just before it), its id made unique. A sound record is returned
	 * as it is.
	 */
	private mendLinks(record: SessionMessageRecord, line: number | undefined): SessionMessageRecord {
		let parentId = record.parentId === null ? null : this.resolveId(record.parentId);
		// The message added just before is in the index: no lookup for the usual parent.
		if (parentId !== null && parentId !== this.newestId && !this.messages.has(parentId)) {
			const reconnectedTo = this.leafId;
			this.repairs.push(missingParentRepair(line, record.id, record.parentId as string, reconnectedTo));
			parentId = reconnectedTo;
		}
		let id = record.id;
		if (this.messages.has(id)) {
			id = `${record.id}~${line === undefined ? `record${this.recordsAdded}` : `line${line}`}`;
			while (this.messages.has(id)) id = `${id}~`;
			this.repairs.push(duplicateIdRepair(line, record.id, id));
			this.renamedIds.set(record.id, id);
			this.fileIds.set(id, record.id);
		}
		if (id === record.id && parentId === record.parentId) return record;
		return { ...record, id, parentId };
	}

	/** The ids of the messages that follow `parentId` (null: the roots), in append order. */
	childrenOf(parentId: string | null): readonly string[] {
		const children = this.childIndex().get(parentId);
		if (children === undefined) return [];
		return typeof children === "string" ? [children] : children;
	}

	/** The nearest message at or above `id` that is not tombstoned (null: none, the branch is empty). */
	visibleAncestor(id: string | null): string | null {
		let cursor = id;
		for (let steps = 0; cursor !== null && steps <= this.messages.size; steps++) {
			if (!this.tombstoned.has(cursor)) return cursor;
			cursor = this.messages.get(cursor)?.parentId ?? null;
		}
		return null;
	}

	/**
	 * The branch ending at `leafId`, root first: tombstoned messages are skipped (the chain is read as
	 * if they were not there), and so are tool results whose call is no longer on the branch (its
	 * assistant message was tombstoned) or that repeat an answered call.
	 */
	branch(leafId: string | null = this.leafId): SessionMessageRecord[] {
		return this.recordsOf(this.branchIds(leafId), 0);
	}

	/**
	 * What the model sees of the branch: everything up to its last compact boundary is replaced by
	 * that boundary's summary and the messages it kept; what follows the boundary comes after.
	 * A forward pass, so several compactions apply in turn. The cut of load: "context"
	 * (`contextStartId`) drops what precedes it first; compactions after it apply to what follows.
	 */
	modelContext(leafId: string | null = this.leafId): SessionMessageRecord[] {
		const { ids: branch, boundaries } = this.walk(leafId);
		const from = this.cutIndex(branch, leafId);
		if (boundaries.length === 0 || boundaries[boundaries.length - 1] < from) return this.recordsOf(branch, from);
		const compacted = this.lastCompactionIds(branch, boundaries, from);
		return compacted ? this.recordsOf(compacted, 0) : applyCompactions(this.recordsOf(branch, from));
	}

	/**
	 * The ids of the model context (see modelContext) when the last compact boundary on the branch
	 * at or after `from` finds its summary and first kept message after the boundary before it:
	 * what precedes them is then the summary's to replace, whatever the earlier compactions made of
	 * it, and neither the records before nor the earlier boundaries need to be read. Undefined
	 * otherwise (applyCompactions then reads the whole context).
	 */
	private lastCompactionIds(
		branch: readonly string[],
		boundaries: readonly number[],
		from: number,
	): string[] | undefined {
		const last = boundaries[boundaries.length - 1];
		const before = boundaries.length > 1 ? boundaries[boundaries.length - 2] : -1;
		const segmentStart = Math.max(from, before + 1);
		const boundary = this.messages.get(branch[last])?.message as unknown as CompactBoundaryMessage;
		const summary = lastIndexOf(branch, boundary.summaryId, last - 1, segmentStart);
		if (summary === -1) return undefined;
		let kept = summary;
		if (boundary.firstKeptMessageId !== undefined) {
			kept = lastIndexOf(branch, boundary.firstKeptMessageId, summary - 1, segmentStart);
			if (kept === -1) return undefined;
		}
		const ids = [branch[summary]];
		for (let index = kept; index < summary; index++) ids.push(branch[index]);
		for (let index = summary + 1; index < branch.length; index++) if (index !== last) ids.push(branch[index]);
		return ids;
	}

	/** The current records of `ids` from `from` on. */
	private recordsOf(ids: readonly string[], from: number): SessionMessageRecord[] {
		const records: SessionMessageRecord[] = new Array(Math.max(0, ids.length - from));
		for (let index = from; index < ids.length; index++) {
			records[index - from] = this.messages.get(ids[index]) as SessionMessageRecord;
		}
		return records;
	}

	/**
	 * The ids of the branch ending at `leafId` (see `branch`), not to be changed by the caller. The
	 * last walk is kept until a record is added: opening a session reads the model context twice (to
	 * cut it, then to start the agent), and loading a branch walks it before reading it. Ids rather
	 * than records, because load: "context" swaps a message's outline and its full record in
	 * `messages`: both have the same links and tool-call ids, so the branch is the same, and its
	 * records are looked up as they are now.
	 */
	private branchIds(leafId: string | null): readonly string[] {
		return this.walk(leafId).ids;
	}

	/** The branch ending at `leafId` (see branchIds), with where its compact boundaries are. */
	private walk(leafId: string | null): BranchWalk {
		const walked = this.lastWalk;
		if (walked !== undefined && walked.leafId === leafId && walked.recordsAdded === this.recordsAdded) return walked;
		const reversed: SessionMessageRecord[] = [];
		const tombstoned = this.tombstoned.size === 0 ? undefined : this.tombstoned;
		let cursor = leafId;
		// A transcript whose parent ids form a loop (a hand-edited file) ends the walk instead of hanging.
		for (let steps = 0; cursor !== null && steps <= this.messages.size; steps++) {
			const record = this.messages.get(cursor);
			if (!record) break;
			if (!tombstoned?.has(cursor)) reversed.push(record);
			cursor = record.parentId;
		}
		const boundaries: number[] = [];
		const ids = pairedIds(reversed, boundaries);
		this.lastWalk = { leafId, recordsAdded: this.recordsAdded, ids, boundaries };
		return this.lastWalk;
	}

	/**
	 * Where `branch` (ending at `leafId`) starts after the cut of load: "context": the index of its
	 * first record at or after `contextStartId`, 0 when the branch does not pass through it. Walks the
	 * chain up from the leaf to the cut only, beside the branch from its end: a tombstoned cut (or
	 * records dropped from the branch) still cuts at the right place.
	 */
	private cutIndex(branch: readonly string[], leafId: string | null): number {
		if (this.contextStartId === undefined) return 0;
		let kept = branch.length;
		let cursor = leafId;
		for (let steps = 0; cursor !== null && steps <= this.messages.size; steps++) {
			if (kept > 0 && branch[kept - 1] === cursor) kept--;
			if (cursor === this.contextStartId) return kept;
			cursor = this.messages.get(cursor)?.parentId ?? null;
		}
		return 0;
	}

	/** The ids of every leaf (messages no visible message follows), without walking their branches. */
	leafIds(): Set<string> {
		const leaves = new Set<string>();
		if (this.tombstoned.size === 0) {
			// Every message is visible: the leaves are those nothing follows. Read from the messages in
			// append order, without the children index: a message whose parent is the one added just
			// before it is marked by position, and only the other parents are kept by id.
			const followed = new Uint8Array(this.messages.size);
			const otherParents = new Set<string>();
			let index = 0;
			let previous: string | undefined;
			for (const [id, record] of this.messages) {
				if (record.parentId !== null) {
					if (record.parentId === previous) followed[index - 1] = 1;
					else otherParents.add(record.parentId);
				}
				previous = id;
				index++;
			}
			index = 0;
			for (const id of this.messages.keys()) {
				if (followed[index++] === 0 && !otherParents.has(id)) leaves.add(id);
			}
			return leaves;
		}
		for (const id of this.messages.keys()) {
			if (this.hasVisibleChild(id)) continue;
			const leaf = this.visibleAncestor(id);
			if (leaf !== null) leaves.add(leaf);
		}
		return leaves;
	}

	/** Every leaf: messages no visible message follows. The current one is flagged. */
	branches(): SessionBranchInfo[] {
		const current = this.visibleAncestor(this.leafId);
		const result: SessionBranchInfo[] = [];
		for (const leafId of this.leafIds()) {
			const record = this.messages.get(leafId) as SessionMessageRecord;
			result.push({
				leafId,
				message: record.message,
				timestamp: record.timestamp,
				length: this.branchIds(leafId).length,
				current: leafId === current,
			});
		}
		return result.sort((first, second) => first.timestamp - second.timestamp);
	}

	private hasVisibleChild(id: string): boolean {
		const children = this.childIndex().get(id);
		if (children === undefined) return false;
		if (typeof children === "string") return !this.tombstoned.has(children) || this.hasVisibleChild(children);
		for (const child of children) {
			if (!this.tombstoned.has(child) || this.hasVisibleChild(child)) return true;
		}
		return false;
	}
}

/** Adds `record` to `children`, after the children of its parent added before it. */
function addChild(children: Map<string | null, string | string[]>, record: SessionMessageRecord): void {
	const siblings = children.get(record.parentId);
	if (siblings === undefined) children.set(record.parentId, record.id);
	else if (typeof siblings === "string") children.set(record.parentId, [siblings, record.id]);
	else siblings.push(record.id);
}

/** A branch's ids, root first, and the indexes among them of its compact boundaries, in order. */
interface BranchWalk {
	ids: readonly string[];
	boundaries: readonly number[];
}

/**
 * The ids of `reversed` (a branch, leaf first) root first, without the tool results that answer no
 * call earlier on the branch, or a call already answered; the indexes of the compact boundaries
 * among them are added to `boundaries`.
 */
function pairedIds(reversed: readonly SessionMessageRecord[], boundaries: number[]): string[] {
	const ids: string[] = [];
	/** The calls made earlier on the branch: true once a result answered one. */
	let calls: Map<string, boolean> | undefined;
	for (let index = reversed.length - 1; index >= 0; index--) {
		const record = reversed[index];
		const message = record.message;
		const role = roleOf(message);
		if (role === "assistant") {
			const content = (message as AssistantMessage).content;
			// Most assistant messages call no tool: read in place rather than through toolCallsOf's copy.
			if (Array.isArray(content)) {
				for (const block of content) {
					if (block.type !== "toolCall") continue;
					calls ??= new Map();
					if (!calls.has(block.id)) calls.set(block.id, false);
				}
			}
		} else if (role === "toolResult") {
			const id = (message as ToolResultMessage).toolCallId;
			if (calls?.get(id) !== false) continue;
			calls.set(id, true);
		} else if (role === "compact_boundary") boundaries.push(ids.length);
		ids.push(record.id);
	}
	return ids;
}

/**
 * `context` with each compact boundary applied in turn: what precedes the boundary's summary gives
 * way to the summary and the messages it kept (from `firstKeptMessageId` up to the summary). A
 * boundary whose summary is not in the context cuts nothing. Ids are unique on a branch, so the
 * summary (written just before its boundary) is searched from the boundary back, and the first kept
 * message from the summary back: one that is not before the summary keeps nothing.
 */
function applyCompactions(records: readonly SessionMessageRecord[]): SessionMessageRecord[] {
	let context: SessionMessageRecord[] = [];
	for (const record of records) {
		if (roleOf(record.message) !== "compact_boundary") {
			context.push(record);
			continue;
		}
		const boundary = record.message as unknown as CompactBoundaryMessage;
		const summaryIndex = lastIndexOfId(context, boundary.summaryId, context.length - 1);
		if (summaryIndex === -1) continue;
		const keptIndex =
			boundary.firstKeptMessageId === undefined
				? -1
				: lastIndexOfId(context, boundary.firstKeptMessageId, summaryIndex - 1);
		const kept = keptIndex === -1 ? [] : context.slice(keptIndex, summaryIndex);
		context = [context[summaryIndex], ...kept, ...context.slice(summaryIndex + 1)];
	}
	return context;
}

/** The index of `id` in `ids`, searched from `from` back to `to`; -1 when it is not there. */
function lastIndexOf(ids: readonly string[], id: string, from: number, to: number): number {
	for (let index = from; index >= to; index--) if (ids[index] === id) return index;
	return -1;
}

function lastIndexOfId(records: readonly SessionMessageRecord[], id: string, from: number): number {
	for (let index = from; index >= 0; index--) if (records[index].id === id) return index;
	return -1;
}

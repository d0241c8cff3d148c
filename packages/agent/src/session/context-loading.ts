// Opening a huge session in bounded memory: one scan of the transcript keeps, per message, only
// what the branch structure and the tool-call pairing need (an "outline": role, parent, call ids),
// and the byte offset of its line; then only the records the current model context and the branch
// leaves need are read in full. The rest of the history stays on disk until a branch is loaded.
import type { AssistantMessage, ToolResultMessage } from "@keel/ai";
import type { AgentMessage } from "../types.js";
import { BYTES_PER_TOKEN, chooseContextCut, type SessionContextCut, serializedBytes } from "./context-window.js";
import type { ParsedSessionRecord } from "./record-format.js";
import type { SessionTree } from "./session-tree.js";
import type {
	SessionHeaderRecord,
	SessionMessageRecord,
	SessionRecord,
	TranscriptReadProblem,
	TranscriptStore,
	TranscriptWriter,
	UnknownSessionRecord,
} from "./session-types.js";
import { StoredSizes } from "./stored-sizes.js";

/** A store that can scan a transcript and read single records at byte offsets (the JSONL store). */
export interface OffsetReadingStore extends TranscriptStore {
	scan: NonNullable<TranscriptStore["scan"]>;
	readAt(sessionId: string, byteOffsets: readonly number[]): Promise<(SessionRecord | UnknownSessionRecord)[]>;
	/**
	 * Optional, for stores that keep each message's outline (`outlineMessageRecord`) beside its full
	 * record (the SQLite and PostgreSQL stores): like `scan`, but hands over the stored outline where
	 * there is one (`outlined: true`) instead of reading and parsing the full record — a fraction of
	 * the bytes, so opening a huge session with load: "context" reads little more than its outline.
	 * `bytes` is the size of the full record as stored (not of the outline).
	 */
	scanOutlines?(
		sessionId: string,
		visit: (
			record: SessionRecord | UnknownSessionRecord,
			lineNumber: number,
			position: number,
			outlined: boolean,
			bytes?: number,
		) => void,
		fullFrom?: number,
	): Promise<TranscriptReadProblem[]>;
	/**
	 * Optional: where the session's newest `bytes` of records start (undefined when it holds less),
	 * found without reading the records — for the database stores the position of the oldest of the
	 * newest records whose sizes add up to `bytes`, for JSONL the file's size less `bytes`. load:
	 * "context" keeps the records from there on in full: its window of the newest tokens lies within.
	 */
	newestBytesStart?(sessionId: string, bytes: number): Promise<number | undefined>;
	/**
	 * Optional, beside `scanOutlines`: the position of the session's last compaction boundary
	 * (undefined when it was never compacted), found by an indexed query (the database stores) or a
	 * raw search back from the end (JSONL). `scanOutlines` is then asked for the full records from
	 * there on (`fullFrom`), so the model context after the boundary is read once rather than as
	 * outlines and again in full. A boundary before `from` need not be found: the records from `from`
	 * on are read in full anyway.
	 */
	lastCompactionBoundary?(sessionId: string, from?: number): Promise<number | undefined>;
	/**
	 * Optional, for stores whose positions are byte offsets (the JSONL store): where the last line
	 * holding these bytes starts, compared raw rather than parsed, searching back no further than
	 * `from`. Lets a scan find the last compaction boundary before it starts (see scanIntoTree).
	 */
	lastLineMentioning?(sessionId: string, text: string, from?: number): Promise<number | undefined>;
}

/** How a database store's `openWriter` opens a session. */
export interface DatabaseOpenWriterOptions {
	/** Creates the session with this header when it does not exist. */
	create?: SessionHeaderRecord;
	/**
	 * Takes the session even while another writer's lease is live (that writer is then fenced: its
	 * next append fails with SessionFencedError). For a writer known to be gone before its lease ran out.
	 */
	takeOver?: boolean;
}

/**
 * What the database stores (SQLite, PostgreSQL) share: an OffsetReadingStore whose positions are
 * record numbers in the session (1 = the header) rather than byte offsets, scoped to one tenant, and
 * keeping each message's outline beside its full record, so every member load: "context" can use
 * is there. Each store's own interface adds how it closes.
 */
export interface DatabaseTranscriptStore extends OffsetReadingStore {
	/** Whose sessions this store sees and writes. */
	readonly tenant: string;
	openWriter(sessionId: string, options?: DatabaseOpenWriterOptions): Promise<TranscriptWriter>;
	/** Visits every record in order; `position` is the record's number in the session (1 = the header). */
	scan(
		sessionId: string,
		visit: (record: ParsedSessionRecord, lineNumber: number, position: number, bytes: number) => void,
	): Promise<TranscriptReadProblem[]>;
	/**
	 * Like `scan`, handing over each message's stored outline instead of its full record where there
	 * is one, before position `fullFrom` (from there on, full records). `bytes` is the full record's
	 * stored size either way.
	 */
	scanOutlines(
		sessionId: string,
		visit: (
			record: ParsedSessionRecord,
			lineNumber: number,
			position: number,
			outlined: boolean,
			bytes: number,
		) => void,
		fullFrom?: number,
	): Promise<TranscriptReadProblem[]>;
	/** The position of the session's last compaction boundary; undefined when it was never compacted. */
	lastCompactionBoundary(sessionId: string): Promise<number | undefined>;
	/**
	 * The position of the oldest of the newest records whose stored lines add up to `bytes`;
	 * undefined when the whole session holds less. Reads back from the end, the sizes only.
	 */
	newestBytesStart(sessionId: string, bytes: number): Promise<number | undefined>;
	/** The records at these positions (as `scan` reports them), in the order given. */
	readAt(sessionId: string, positions: readonly number[]): Promise<ParsedSessionRecord[]>;
	/** The same database seen as another tenant. */
	forTenant(tenant: string): DatabaseTranscriptStore;
}

/**
 * What a store keeps of a message record for `scanOutlines`: the record with only what the branch
 * structure and the tool-call pairing read of its message (role, time, stop reason, tool-call ids).
 * Undefined for records that are kept whole (tombstones and compaction boundaries, which are small
 * and shape the branch) and for records that are not messages.
 */
export function outlineMessageRecord(
	record: SessionRecord | UnknownSessionRecord,
	sessionId = (record as SessionMessageRecord).sessionId,
): SessionMessageRecord | undefined {
	if (record.type !== "message") return undefined;
	const messageRecord = record as SessionMessageRecord;
	const role = (messageRecord.message as { role?: unknown }).role;
	if (role === "tombstone" || role === "compact_boundary") return undefined;
	// A literal rather than a spread of the parsed record: cheaper per line, and nothing else of the
	// record (unknown fields included) is held.
	return {
		type: "message",
		v: messageRecord.v,
		sessionId,
		timestamp: messageRecord.timestamp,
		id: messageRecord.id,
		parentId: messageRecord.parentId,
		message: outlineOf(messageRecord.message),
	};
}

export function canLoadByOffset(store: TranscriptStore): store is OffsetReadingStore {
	return typeof store.scan === "function" && typeof (store as { readAt?: unknown }).readAt === "function";
}

/**
 * Messages whose full record is still on disk, by id, with where each one's line starts. A loaded
 * message leaves the map: one map rather than a set beside it keeps the index of a 100,000-message
 * session smaller.
 */
export interface OutlinedMessages {
	offsets: Map<string, number>;
}

/**
 * How far back in the file (in bytes) a byte-offset scan keeps the full records it has just parsed,
 * counting from the oldest one kept: see scanIntoTree. Bounds what a scan holds beyond what
 * load: "all" would, when the transcript after its last compaction (or a never-compacted one) is
 * mostly branches the context does not need.
 */
const KEPT_IN_FULL_BYTES = 256 * 1024 * 1024;

/**
 * Scans the transcript into `tree`, keeping an outline of every chain message and the full record
 * of everything else but progress (which only a UI showing the past would want). The model context
 * is then cut to its newest `contextTokens` estimated tokens (see context-window.ts), the cut set in
 * the tree.
 *
 * A store that parses every record to scan it (the JSONL store) has already paid for the full record
 * of each message: throwing it away to read it again for the model context would parse the context
 * twice, which made load: "context" slower than load: "all" on a session never compacted. So the
 * messages after the file's last compaction boundary (found first by a raw search from the end,
 * which stops at the boundary) keep their full record through the scan; a boundary met later (one
 * the search missed) turns those before it into outlines, as does reaching the bytes of the window
 * (`contextTokens`, or KEPT_IN_FULL_BYTES if less): what lies further back than the window is not
 * context, so a never-compacted session holds only its window in full. At the end, those neither in
 * the model context nor a branch's leaf become outlines too: the session holds what it would had it
 * read them again, and the context is parsed once.
 *
 * Returns, in `needed`, the records the session loads in full: the model context and the leaves.
 */
export async function scanIntoTree(
	store: OffsetReadingStore,
	sessionId: string,
	tree: SessionTree,
	contextTokens: number,
): Promise<{
	problems: TranscriptReadProblem[];
	outline: OutlinedMessages;
	needed: SessionMessageRecord[];
	cut: SessionContextCut | undefined;
}> {
	const outline: OutlinedMessages = { offsets: new Map() };
	const windowBytes = contextTokens * BYTES_PER_TOKEN;
	const keptInFullBytes = Math.min(KEPT_IN_FULL_BYTES, windowBytes);
	/** Each chain message's stored size, by its position, for the cut. */
	const sizes = new StoredSizes();
	// Records are kept in full from the last compaction boundary or the start of the newest window's
	// bytes, whichever is later: before either, nothing is context. A store that cannot find its
	// boundary keeps none (its records are read again by position).
	const canFindBoundary = store.scanOutlines ? store.lastCompactionBoundary : store.lastLineMentioning;
	let keepFrom = Number.POSITIVE_INFINITY;
	if (canFindBoundary) {
		const windowFrom = (await store.newestBytesStart?.(sessionId, windowBytes)) ?? 0;
		// Keel writes a message as JSON.stringify does, without spaces: this finds its boundaries. A
		// message quoting the words only moves the start later (what lies before is read again).
		const boundary = store.scanOutlines
			? await store.lastCompactionBoundary?.(sessionId, windowFrom)
			: await store.lastLineMentioning?.(sessionId, '"role":"compact_boundary"', windowFrom);
		keepFrom = Math.max(boundary ?? 0, windowFrom);
	}
	/** Messages in the tree with their full record, oldest first: their id in the index and offset. */
	let keptIds: string[] = [];
	let keptOffsets: number[] = [];
	let oldestKept = 0;
	const outlineKept = (index: number) => {
		const id = keptIds[index];
		const full = tree.messages.get(id);
		const outlined = full && outlineMessageRecord(full, sessionId);
		if (!outlined) return;
		tree.messages.set(id, outlined);
		outline.offsets.set(id, keptOffsets[index]);
	};
	const addOutlined = (record: SessionMessageRecord, lineNumber: number, position: number, bytes?: number) => {
		if ((record.message as { role?: unknown }).role === "progress") return;
		tree.add(record, lineNumber);
		// Under the id it got in the index (the leaf it just became): a duplicate id is renamed there.
		outline.offsets.set(tree.leafId as string, position);
		if (bytes !== undefined) sizes.add(position, bytes);
	};
	const addKept = (record: SessionMessageRecord, lineNumber: number, byteOffset: number, bytes?: number) => {
		if ((record.message as { role?: unknown }).role === "progress") return;
		tree.add(record, lineNumber);
		keptIds.push(tree.leafId as string);
		keptOffsets.push(byteOffset);
		if (bytes !== undefined) sizes.add(byteOffset, bytes);
		while (byteOffset - keptOffsets[oldestKept] > keptInFullBytes) outlineKept(oldestKept++);
		if (oldestKept > 4096 && oldestKept * 2 > keptIds.length) {
			keptIds = keptIds.slice(oldestKept);
			keptOffsets = keptOffsets.slice(oldestKept);
			oldestKept = 0;
		}
	};
	const visitFull =
		(keepFull: boolean) =>
		(record: SessionRecord | UnknownSessionRecord, lineNumber: number, byteOffset?: number, bytes?: number) => {
			if (record.type !== "message" || byteOffset === undefined) {
				tree.add(record, lineNumber);
				return;
			}
			const role = ((record as SessionMessageRecord).message as { role?: unknown }).role;
			if (role === "compact_boundary") {
				// What came before the last boundary is outside the context but for the messages the
				// compaction kept, which are read again: far fewer than those it summarised.
				for (let index = oldestKept; index < keptIds.length; index++) outlineKept(index);
				keptIds = [];
				keptOffsets = [];
				oldestKept = 0;
			}
			if (keepFull && byteOffset >= keepFrom && role !== "tombstone" && role !== "compact_boundary") {
				addKept(record as SessionMessageRecord, lineNumber, byteOffset, bytes);
				return;
			}
			const outlined = outlineMessageRecord(record, sessionId);
			// Tombstones and boundaries are small and shape the branch: kept whole.
			if (outlined === undefined) tree.add(record, lineNumber);
			else addOutlined(outlined, lineNumber, byteOffset, bytes);
		};
	// A store with outlines of its own hands over outlines before its last compaction boundary and
	// full records from there on (when it can find the boundary; else outlines throughout, and the
	// full records it keeps whole are outlined as before). Its positions are record numbers, not byte
	// offsets: what it keeps in full is at most what load: "all" would hold, the records after the
	// boundary (or, never compacted, those of the window's bytes), and those the context does not
	// need are outlined at the end.
	const keepOrOutline = visitFull(store.lastCompactionBoundary !== undefined);
	const problems = store.scanOutlines
		? await store.scanOutlines(
				sessionId,
				(record, lineNumber, position, outlined, bytes) => {
					if (outlined) addOutlined(record as SessionMessageRecord, lineNumber, position, bytes);
					else keepOrOutline(record, lineNumber, position, bytes);
				},
				Number.isFinite(keepFrom) ? keepFrom : undefined,
			)
		: await store.scan(sessionId, visitFull(true));
	let context = tree.modelContext();
	// A message is found by its position: an outlined one's is in `outline`, one still in full is
	// among the kept. A record read without its size (a store that does not give it) is measured as
	// it would be written.
	let keptPositions: Map<string, number> | undefined;
	const sizeOf = (record: SessionMessageRecord) => {
		let position = outline.offsets.get(record.id);
		if (position === undefined) {
			if (!keptPositions) {
				keptPositions = new Map();
				for (let index = oldestKept; index < keptIds.length; index++)
					keptPositions.set(keptIds[index], keptOffsets[index]);
			}
			position = keptPositions.get(record.id);
		}
		return (position === undefined ? undefined : sizes.at(position)) ?? serializedBytes(record);
	};
	const cut = chooseContextCut(context, sizeOf, contextTokens);
	sizes.clear();
	if (cut) {
		tree.contextStartId = cut.firstMessageId;
		context = context.slice(cut.omittedMessages);
	}
	// Only the leaves' records: branches() would also walk every branch to count it.
	const neededIds = [...context.map((record) => record.id), ...tree.leafIds()];
	if (oldestKept < keptIds.length) {
		const needed = new Set(neededIds);
		for (let index = oldestKept; index < keptIds.length; index++) {
			if (!needed.has(keptIds[index])) outlineKept(index);
		}
	}
	const needed = neededIds.map((id) => tree.messages.get(id) as SessionMessageRecord);
	return { problems, outline, needed, cut };
}

/** Reads the full records of the outlined messages among `records`, puts them in the tree and returns them. */
export async function loadOutlined(
	store: OffsetReadingStore,
	sessionId: string,
	tree: SessionTree,
	outline: OutlinedMessages,
	records: readonly SessionMessageRecord[],
): Promise<SessionMessageRecord[]> {
	// In file order, each once; matched back by the id the file holds (an id used twice in the file
	// is told apart by the order of its lines).
	const wanted: { id: string; parentId: string | null; offset: number }[] = [];
	const seen = new Set<string>();
	for (const record of records) {
		const offset = outline.offsets.get(record.id);
		if (offset === undefined || seen.has(record.id)) continue;
		seen.add(record.id);
		wanted.push({ id: record.id, parentId: record.parentId, offset });
	}
	const loaded: SessionMessageRecord[] = [];
	if (wanted.length === 0) return loaded;
	wanted.sort((first, second) => first.offset - second.offset);
	const byFileId = new Map<string, (typeof wanted)[number][]>();
	for (const entry of wanted) {
		const fileId = tree.fileIdOf(entry.id);
		const list = byFileId.get(fileId);
		if (list) list.push(entry);
		else byFileId.set(fileId, [entry]);
	}
	// In slices, so a store that answers a slice at once (a database query) holds the raw rows of one
	// slice, not of a whole never-compacted context, beside the records parsed so far.
	for (let from = 0; from < wanted.length; from += READ_AT_SLICE) {
		const offsets = wanted.slice(from, from + READ_AT_SLICE).map((entry) => entry.offset);
		loadRead(await store.readAt(sessionId, offsets));
	}
	return loaded;

	function loadRead(records: readonly (SessionRecord | UnknownSessionRecord)[]): void {
		for (const record of records) {
			if (record.type !== "message") continue;
			const fileRecord = record as SessionMessageRecord;
			const entry = byFileId.get(fileRecord.id)?.shift();
			if (!entry || !outline.offsets.delete(entry.id)) continue;
			// The links the index mended when the transcript was scanned replace the file's.
			const messageRecord =
				entry.id === fileRecord.id && entry.parentId === fileRecord.parentId
					? fileRecord
					: { ...fileRecord, id: entry.id, parentId: entry.parentId };
			tree.messages.set(messageRecord.id, messageRecord);
			loaded.push(messageRecord);
		}
	}
}

/** How many records loadOutlined asks a store's readAt for at a time. */
const READ_AT_SLICE = 2_000;

const NO_CONTENT: AssistantMessage["content"] = Object.freeze([]) as unknown as AssistantMessage["content"];

/** What the branch structure and the pairing rule read of a message; its content stays on disk. */
function outlineOf(message: AgentMessage): AgentMessage {
	const value = message as { role?: unknown; timestamp?: unknown };
	if (value.role === "toolResult") {
		const result = message as ToolResultMessage;
		return {
			role: "toolResult",
			toolCallId: result.toolCallId,
			toolName: result.toolName,
			content: NO_CONTENT as unknown as ToolResultMessage["content"],
			isError: result.isError,
			timestamp: result.timestamp,
		};
	}
	if (value.role === "assistant") {
		// Only the role, time, stop reason and tool calls: copying the rest (usage and its cost
		// object, model names) would keep the parsed objects alive for every assistant message.
		const assistant = message as AssistantMessage;
		let toolCalls: AssistantMessage["content"] | undefined;
		for (const block of assistant.content) {
			if (block.type !== "toolCall") continue;
			toolCalls ??= [];
			toolCalls.push({ type: "toolCall", id: block.id, name: block.name, arguments: {} });
		}
		return {
			role: "assistant",
			// Most assistant messages call no tool: they share one frozen empty list.
			content: toolCalls ?? NO_CONTENT,
			stopReason: assistant.stopReason,
			timestamp: assistant.timestamp,
		} as unknown as AgentMessage;
	}
	return { role: value.role, timestamp: value.timestamp } as unknown as AgentMessage;
}

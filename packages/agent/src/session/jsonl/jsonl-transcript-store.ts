// The JSONL transcript store: one file per session in a directory the application chooses,
// `<session id>.jsonl`, one record per line, the header first. Node only (node:fs).
//
// Files next to a transcript:
// - `<file>.lock`     the writer's lock (pid, hostname, time); see session-file-lock.ts.
// - `<file>.title`    the latest title, rewritten atomically (temporary file + rename) when a title
//                     record is appended, so list() reads line 1 and this small file, never the
//                     transcript's body. The transcript stays the source of truth: if the sidecar is
//                     lost, list() falls back to the header's title.
// - `<file>.torn-<t>` the bytes of a torn last line a writer set aside when it opened the file.

import { readSync } from "node:fs";
import { type FileHandle, open, readdir, readFile, rm, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { isSummaryRecord } from "../memory-transcript-store.js";
import { type ParsedSessionRecord, parseSessionRecord, parseSessionRecords } from "../record-format.js";
import { SessionNotFoundError, SessionRecordError } from "../session-errors.js";
import {
	assertValidListOptions,
	foldForSearch,
	pageSessionInfos,
	searchableText,
	titleMatches,
} from "../session-list.js";
import type {
	SessionInfo,
	SessionMessageRecord,
	TranscriptReadProblem,
	TranscriptReadResult,
	TranscriptStore,
	TranscriptTail,
} from "../session-types.js";
import { blobDirectory, DEFAULT_BLOB_THRESHOLD_BYTES, emptyBlobData, restoreBlobs } from "./blob-files.js";
import {
	type JsonlDurability,
	type JsonlTranscriptWriter,
	lockPath,
	openJsonlTranscriptWriter,
	titleSidecarPath,
} from "./jsonl-transcript-writer.js";
import { lastLineMentioning } from "./last-line-mentioning.js";
import type { OutlineSidecarWriter } from "./outline-sidecar-writer.js";
import { readLinesBackward } from "./read-lines-backward.js";
import { readLinesForward } from "./read-lines-forward.js";
import { type IndexedPrefixEnd, visitIndexedLines } from "./read-outline-sidecar.js";
import { acquireSessionFileLock } from "./session-file-lock.js";
import { outlineSidecarPath, sessionIdFromFileName, transcriptFileName } from "./session-file-names.js";

export interface JsonlTranscriptStoreOptions {
	/** Where the transcripts live; created on the first session. */
	directory: string;
	/** "os" (default): each append reaches the OS before it resolves, fsync on flush/close. "fsync-each": fsync every append. */
	durability?: JsonlDurability;
	/** Lines longer than this are skipped by readers (and refused by the writer). Default 32 MiB. */
	maxLineBytes?: number;
	/**
	 * A file or audio block of a user message or a tool result whose base64 data is longer than this
	 * is stored as a content-addressed file in `<transcript>.blobs/` and referenced from the line;
	 * reads put the data back. Default 64 KiB.
	 */
	blobThresholdBytes?: number;
}

/** One record as `scan` visits it; `bytes` is its line's size in the file, without the newline. */
export type TranscriptRecordVisitor = (
	record: ParsedSessionRecord,
	lineNumber: number,
	byteOffset: number,
	bytes: number,
) => void;

export interface JsonlTranscriptStore extends TranscriptStore {
	readonly directory: string;
	openWriter(...args: Parameters<TranscriptStore["openWriter"]>): Promise<JsonlTranscriptWriter>;
	/**
	 * Visits every record front to back without keeping them: memory stays bounded by one chunk and
	 * the longest line, whatever the file's size. Returns the problems met.
	 */
	scan(sessionId: string, visit: TranscriptRecordVisitor): Promise<TranscriptReadProblem[]>;
	/**
	 * The records of the lines that start at these byte offsets (as `scan` reports them), in the
	 * order given: with an index built by `scan`, a program loads only the records it needs (the
	 * current branch since the last compact boundary) from a transcript of any size.
	 */
	readAt(sessionId: string, byteOffsets: readonly number[]): Promise<ParsedSessionRecord[]>;
	/**
	 * The byte offset of the last line whose bytes hold `text` (compared raw: nothing is parsed), or
	 * undefined when none does. Reads back from the end and stops at that line, or at byte `from`.
	 */
	lastLineMentioning(sessionId: string, text: string, from?: number): Promise<number | undefined>;
	/**
	 * Like `scan`, but where the outline index beside the transcript (outline-sidecar-format.ts)
	 * covers a line before `fullFrom`, hands over its message's stored outline (`outlined: true`)
	 * instead of reading and parsing the line: as the database stores do, a damaged line so covered
	 * is found when it is read (`readAt`). Lines the index does not cover, or from `fullFrom` on, are
	 * parsed in full. `bytes` is the line's size in the file either way.
	 */
	scanOutlines(
		sessionId: string,
		visit: (
			record: ParsedSessionRecord,
			lineNumber: number,
			byteOffset: number,
			outlined: boolean,
			bytes: number,
		) => void,
		fullFrom?: number,
	): Promise<TranscriptReadProblem[]>;
	/**
	 * The byte offset of the last compaction boundary's line (found as `lastLineMentioning` finds
	 * it, so a message quoting one counts), or undefined when there is none at or after `from`.
	 */
	lastCompactionBoundary(sessionId: string, from?: number): Promise<number | undefined>;
	/**
	 * The byte offset `bytes` before the end of the transcript (undefined when it is shorter): the
	 * lines from there on are its newest `bytes`. Only the file's size is read.
	 */
	newestBytesStart(sessionId: string, bytes: number): Promise<number | undefined>;
	/**
	 * The last `entries` records. Also looks further back for the last summary unless
	 * `findLastSummary` is false: that search compares raw bytes and parses only lines that mention
	 * "summary", but without a summary near the end it reads the whole file backwards.
	 */
	readTail(sessionId: string, options: { entries: number; findLastSummary?: boolean }): Promise<TranscriptTail>;
}

export const DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024;
/** Line 1 (the header) is read from this many bytes at most when listing. */
const HEADER_READ_BYTES = 64 * 1024;
const SUMMARY_MARKER = Buffer.from('"summary"');
const NEWLINE = 10;

export function createJsonlTranscriptStore(options: JsonlTranscriptStoreOptions): JsonlTranscriptStore {
	const directory = options.directory;
	const durability = options.durability ?? "os";
	const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
	if (durability !== "os" && durability !== "fsync-each") {
		throw new Error(`Unknown durability ${JSON.stringify(durability)}: use "os" or "fsync-each".`);
	}
	if (!Number.isInteger(maxLineBytes) || maxLineBytes <= 0) {
		throw new Error(`maxLineBytes must be a positive integer, got ${String(maxLineBytes)}.`);
	}

	const blobThresholdBytes = options.blobThresholdBytes ?? DEFAULT_BLOB_THRESHOLD_BYTES;
	if (!Number.isInteger(blobThresholdBytes) || blobThresholdBytes < 0) {
		throw new Error(`blobThresholdBytes must be a non-negative integer, got ${String(blobThresholdBytes)}.`);
	}

	/** This store's open writers' outline indexes, by session (see parseLines). */
	const outlineSidecars = new Map<string, OutlineSidecarWriter>();
	const pathOf = (sessionId: string) => join(directory, transcriptFileName(sessionId));
	/** Parses a line of the session's transcript, putting blob data back. */
	const parseLine = (sessionId: string, text: string, lineNumber?: number) => {
		const blobs = blobDirectory(pathOf(sessionId));
		return parseSessionRecords(text, lineNumber, (record) => restoreBlobs(record, blobs));
	};

	async function openForReading(sessionId: string) {
		try {
			return await open(pathOf(sessionId), "r");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new SessionNotFoundError(sessionId);
			throw error;
		}
	}

	async function scan(
		sessionId: string,
		visit: TranscriptRecordVisitor,
		// Searching needs no blob data (it holds no text): skipping it avoids reading every file attached.
		restore = true,
	): Promise<TranscriptReadProblem[]> {
		const handle = await openForReading(sessionId);
		const problems: TranscriptReadProblem[] = [];
		try {
			const { size } = await handle.stat();
			await parseLines(handle, sessionId, { from: 0, lineNumber: 1 }, size, visit, restore, problems);
		} finally {
			await handle.close();
		}
		return problems;
	}

	/**
	 * Parses the lines from `start` to `size` in full. Where they are the next lines the outline
	 * index of the session's open writer lacks (a session written before the index existed, or a
	 * writer killed before writing its last entries), their entries are handed to it: the index is
	 * filled in at the cost of an outline per line, not of another parse.
	 */
	async function parseLines(
		handle: FileHandle,
		sessionId: string,
		start: IndexedPrefixEnd,
		size: number,
		visit: TranscriptRecordVisitor,
		restore: boolean,
		problems: TranscriptReadProblem[],
	): Promise<void> {
		const index = outlineSidecars.get(sessionId);
		await readLinesForward(
			handle,
			{ maxLineBytes, endOffset: size, startOffset: start.from, firstLineNumber: start.lineNumber },
			(text, lineNumber, byteOffset, lineBytes) => {
				let records: ParsedSessionRecord[];
				try {
					records = restore
						? parseLine(sessionId, text, lineNumber)
						: parseSessionRecords(text, lineNumber, emptyBlobData);
				} catch (error) {
					problems.push({ line: lineNumber, byteOffset, kind: "malformed", message: (error as Error).message });
					if (index?.coveredEnd === byteOffset) index.add(byteOffset, lineBytes, undefined);
					return true;
				}
				if (index?.coveredEnd === byteOffset) index.add(byteOffset, lineBytes, records);
				for (const record of records) visit(record, lineNumber, byteOffset, lineBytes);
				return true;
			},
			(problem) => problems.push(problem),
		);
	}

	/**
	 * The line at `byteOffset` the outline index says is `bytes` long, parsed and visited as `scan`
	 * would; false when the transcript does not end that line there (the index does not match it).
	 */
	function visitLineInFull(
		handle: FileHandle,
		sessionId: string,
		lineNumber: number,
		byteOffset: number,
		bytes: number,
		visit: TranscriptRecordVisitor,
		problems: TranscriptReadProblem[],
	): boolean {
		if (bytes > maxLineBytes) {
			problems.push({
				line: lineNumber,
				byteOffset,
				kind: "oversized",
				message: `line ${lineNumber}: ${bytes} bytes is over the limit of ${maxLineBytes} bytes (maxLineBytes); the record was skipped`,
			});
			return true;
		}
		const line = Buffer.allocUnsafe(bytes + 1);
		if (readSync(handle.fd, line, 0, bytes + 1, byteOffset) !== bytes + 1 || line[bytes] !== NEWLINE) return false;
		let records: ParsedSessionRecord[];
		try {
			records = parseLine(sessionId, line.toString("utf8", 0, bytes), lineNumber);
		} catch (error) {
			problems.push({ line: lineNumber, byteOffset, kind: "malformed", message: (error as Error).message });
			return true;
		}
		for (const record of records) visit(record, lineNumber, byteOffset, bytes);
		return true;
	}

	async function findLastLineMentioning(sessionId: string, text: string, from = 0): Promise<number | undefined> {
		const handle = await openForReading(sessionId);
		try {
			return await lastLineMentioning(handle, (await handle.stat()).size, Buffer.from(text), undefined, from);
		} finally {
			await handle.close();
		}
	}

	async function transcriptContains(sessionId: string, foldedSearch: string): Promise<boolean> {
		let found = false;
		try {
			await scan(
				sessionId,
				(record) => {
					if (!found && foldForSearch(searchableText(record)).includes(foldedSearch)) found = true;
				},
				false,
			);
		} catch (error) {
			if (error instanceof SessionNotFoundError) return false; // Deleted while listing.
			throw error;
		}
		return found;
	}

	async function readHeaderInfo(fileName: string, sessionId: string): Promise<SessionInfo | undefined> {
		const path = join(directory, fileName);
		let handle: Awaited<ReturnType<typeof open>>;
		try {
			handle = await open(path, "r");
		} catch {
			return undefined; // Deleted between readdir and open.
		}
		try {
			const stats = await handle.stat();
			if (!stats.isFile()) return undefined;
			const head = Buffer.allocUnsafe(Math.min(HEADER_READ_BYTES, stats.size));
			const { bytesRead } = await handle.read(head, 0, head.length, 0);
			const newline = head.subarray(0, bytesRead).indexOf(10);
			const info: SessionInfo = {
				sessionId,
				createdAt: stats.birthtimeMs || stats.mtimeMs,
				updatedAt: stats.mtimeMs,
				sizeBytes: stats.size,
			};
			if (newline !== -1) {
				try {
					const header = parseSessionRecord(head.toString("utf8", 0, newline), 1);
					if (header.type === "session") {
						info.createdAt = header.timestamp;
						if (typeof header.title === "string") info.title = header.title;
						if (typeof header.parentSessionId === "string") info.parentSessionId = header.parentSessionId;
						if (typeof header.parentMessageId === "string") info.parentMessageId = header.parentMessageId;
					}
				} catch {
					// A damaged header still lists the session, with what the file system knows.
				}
			}
			const sidecarTitle = await readTitleSidecar(path);
			if (sidecarTitle !== undefined) info.title = sidecarTitle;
			return info;
		} finally {
			await handle.close();
		}
	}

	return {
		directory,

		async openWriter(sessionId, writerOptions) {
			return openJsonlTranscriptWriter({
				sessionId,
				path: pathOf(sessionId),
				create: writerOptions?.create,
				durability,
				maxLineBytes,
				blobThresholdBytes,
				outlineSidecars,
			});
		},

		scan,

		async scanOutlines(sessionId, visit, fullFrom = Number.POSITIVE_INFINITY) {
			const handle = await openForReading(sessionId);
			const problems: TranscriptReadProblem[] = [];
			const visitFull: TranscriptRecordVisitor = (record, lineNumber, byteOffset, bytes) =>
				visit(record, lineNumber, byteOffset, false, bytes);
			try {
				const { size } = await handle.stat();
				const coveredEnd = await visitIndexedLines(pathOf(sessionId), handle, size, sessionId, fullFrom, {
					outline: (record, lineNumber, byteOffset, bytes) => visit(record, lineNumber, byteOffset, true, bytes),
					fullLine: (lineNumber, byteOffset, bytes) =>
						visitLineInFull(handle, sessionId, lineNumber, byteOffset, bytes, visitFull, problems),
				});
				if (coveredEnd.damagedAt !== undefined) {
					outlineSidecars.get(sessionId)?.dropFrom(coveredEnd.damagedAt, coveredEnd.from);
				}
				await parseLines(handle, sessionId, coveredEnd, size, visitFull, true, problems);
			} finally {
				await handle.close();
			}
			return problems;
		},

		async lastCompactionBoundary(sessionId, from) {
			// Keel writes a message as JSON.stringify does, without spaces: this finds its boundaries.
			// A message quoting the words only moves the boundary later (what lies before is read again).
			return findLastLineMentioning(sessionId, '"role":"compact_boundary"', from);
		},

		async read(sessionId): Promise<TranscriptReadResult> {
			const records: ParsedSessionRecord[] = [];
			const problems = await scan(sessionId, (record) => {
				records.push(record);
			});
			return { records, problems };
		},

		async readAt(sessionId, byteOffsets) {
			const handle = await openForReading(sessionId);
			const byOffset = new Map<number, ParsedSessionRecord[]>();
			try {
				const { size } = await handle.stat();
				// In file order, through a window of the file, so neighbouring lines (a branch's tail)
				// cost one read instead of one each.
				const window = { start: 0, bytes: Buffer.alloc(0) };
				for (const offset of [...new Set(byteOffsets)].sort((a, b) => a - b)) {
					const text = await readLineAt(handle, offset, size, maxLineBytes, window);
					try {
						byOffset.set(offset, parseLine(sessionId, text));
					} catch (error) {
						throw new SessionRecordError(`byte ${offset}: ${(error as Error).message}`, {
							field: (error as SessionRecordError).field,
						});
					}
				}
			} finally {
				await handle.close();
			}
			return byteOffsets.flatMap((offset) => byOffset.get(offset) ?? []);
		},

		lastLineMentioning: findLastLineMentioning,

		async newestBytesStart(sessionId, bytes) {
			const handle = await openForReading(sessionId);
			try {
				const { size } = await handle.stat();
				return size > bytes ? size - bytes : undefined;
			} finally {
				await handle.close();
			}
		},

		async readTail(sessionId, tailOptions) {
			const wanted = Math.max(0, Math.floor(tailOptions.entries));
			const findSummary = tailOptions.findLastSummary !== false;
			const handle = await openForReading(sessionId);
			const reversed: ParsedSessionRecord[] = [];
			const problems: TranscriptReadProblem[] = [];
			let lastSummary: SessionMessageRecord | undefined;
			try {
				const { size } = await handle.stat();
				await readLinesBackward(
					handle,
					{ maxLineBytes, endOffset: size },
					(bytes, lineFromEnd, byteOffset) => {
						const collecting = reversed.length < wanted;
						if (!collecting && (!findSummary || bytes.indexOf(SUMMARY_MARKER) === -1)) return findSummary;
						let records: ParsedSessionRecord[];
						try {
							records = parseLine(sessionId, bytes.toString("utf8"), lineFromEnd);
						} catch (error) {
							if (collecting)
								problems.push({ line: lineFromEnd, byteOffset, kind: "malformed", message: (error as Error).message });
							return true;
						}
						for (let index = records.length - 1; index >= 0; index--) {
							if (reversed.length < wanted) reversed.push(records[index]);
							const record = records[index];
							if (!lastSummary && isSummaryRecord(record)) lastSummary = record;
						}
						return reversed.length < wanted || (findSummary && lastSummary === undefined);
					},
					(problem) => {
						if (reversed.length < wanted) problems.push(problem);
					},
				);
			} finally {
				await handle.close();
			}
			const tail: TranscriptTail = { records: reversed.reverse(), problems: problems.reverse() };
			if (lastSummary) tail.lastSummary = lastSummary;
			return tail;
		},

		async list(listOptions) {
			assertValidListOptions(listOptions);
			const search = listOptions?.search ? foldForSearch(listOptions.search) : undefined;
			let names: string[];
			try {
				names = await readdir(directory);
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
				throw error;
			}
			const infos: SessionInfo[] = [];
			const candidates = names.flatMap((name) => {
				const sessionId = sessionIdFromFileName(name);
				return sessionId === undefined ? [] : [{ name, sessionId }];
			});
			// A few files at a time: enough to overlap the I/O without exhausting file descriptors.
			for (let start = 0; start < candidates.length; start += 16) {
				const batch = candidates.slice(start, start + 16);
				for (const info of await Promise.all(batch.map(({ name, sessionId }) => readHeaderInfo(name, sessionId)))) {
					if (info) infos.push(info);
				}
			}
			if (search === undefined) return pageSessionInfos(infos, listOptions);
			// A search by text reads each transcript whose title does not match (one scan per file):
			// files have no index. The database stores answer it from an indexed column.
			const matching: SessionInfo[] = [];
			for (const info of infos) {
				if (titleMatches(info.title, search) || (await transcriptContains(info.sessionId, search))) matching.push(info);
			}
			return pageSessionInfos(matching, listOptions);
		},

		async exists(sessionId) {
			try {
				return (await stat(pathOf(sessionId))).isFile();
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
				throw error;
			}
		},

		async delete(sessionId) {
			const path = pathOf(sessionId);
			const lock = acquireSessionFileLock(lockPath(path), sessionId);
			try {
				try {
					await unlink(path);
				} catch (error) {
					if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new SessionNotFoundError(sessionId);
					throw error;
				}
				await unlink(titleSidecarPath(path)).catch(() => {});
				await unlink(outlineSidecarPath(path)).catch(() => {});
				await rm(blobDirectory(path), { recursive: true, force: true });
			} finally {
				lock.release();
			}
		},
	};
}

const READ_AT_WINDOW_BYTES = 1024 * 1024;

/**
 * The line starting at `offset`, up to its newline, served from `window` (a piece of the file kept
 * between calls) when it lies inside it. Refuses offsets that are not a line's start.
 */
async function readLineAt(
	handle: FileHandle,
	offset: number,
	size: number,
	maxLineBytes: number,
	window: { start: number; bytes: Buffer },
): Promise<string> {
	if (!Number.isInteger(offset) || offset < 0 || offset >= size) {
		throw new RangeError(`byte offset ${offset} is not inside the transcript (0 to ${size - 1})`);
	}
	const windowEnd = window.start + window.bytes.length;
	if (offset - 1 < window.start || offset >= windowEnd) {
		// The window starts one byte early so the newline before the line is checked in the same read.
		window.start = Math.max(0, offset - 1);
		window.bytes = Buffer.allocUnsafe(Math.min(READ_AT_WINDOW_BYTES, size - window.start));
		const { bytesRead } = await handle.read(window.bytes, 0, window.bytes.length, window.start);
		window.bytes = window.bytes.subarray(0, bytesRead);
	}
	if (offset > 0 && window.bytes[offset - 1 - window.start] !== 10) {
		throw new RangeError(`byte offset ${offset} is not the start of a line`);
	}
	const newline = window.bytes.indexOf(10, offset - window.start);
	if (newline !== -1) {
		if (newline - (offset - window.start) > maxLineBytes) throw oversizedAt(offset, maxLineBytes);
		return window.bytes.toString("utf8", offset - window.start, newline);
	}
	// The line runs past the window: read it on its own, in growing chunks.
	const parts: Buffer[] = [];
	let position = offset;
	let length = 0;
	let chunkBytes = READ_AT_WINDOW_BYTES;
	while (position < size) {
		const chunk = Buffer.allocUnsafe(Math.min(chunkBytes, size - position));
		const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
		if (bytesRead === 0) break;
		const end = chunk.subarray(0, bytesRead).indexOf(10);
		parts.push(chunk.subarray(0, end === -1 ? bytesRead : end));
		length += end === -1 ? bytesRead : end;
		if (length > maxLineBytes) throw oversizedAt(offset, maxLineBytes);
		if (end !== -1) return Buffer.concat(parts).toString("utf8");
		position += bytesRead;
		chunkBytes *= 2;
	}
	throw new SessionRecordError(`byte ${offset}: the line has no newline (torn last line)`);
}

function oversizedAt(offset: number, maxLineBytes: number): SessionRecordError {
	return new SessionRecordError(`byte ${offset}: the line is over the limit of ${maxLineBytes} bytes (maxLineBytes)`);
}

async function readTitleSidecar(transcriptPath: string): Promise<string | undefined> {
	try {
		const parsed = JSON.parse(await readFile(titleSidecarPath(transcriptPath), "utf8")) as { title?: unknown };
		return typeof parsed.title === "string" ? parsed.title : undefined;
	} catch {
		return undefined;
	}
}

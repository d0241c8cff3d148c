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

import { open, readdir, readFile, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { isSummaryRecord } from "../memory-transcript-store.js";
import { type ParsedSessionRecord, parseSessionRecord, parseSessionRecords } from "../record-format.js";
import { SessionNotFoundError } from "../session-errors.js";
import type {
	SessionInfo,
	SessionMessageRecord,
	TranscriptReadProblem,
	TranscriptReadResult,
	TranscriptStore,
	TranscriptTail,
} from "../session-types.js";
import {
	type JsonlDurability,
	type JsonlTranscriptWriter,
	lockPath,
	openJsonlTranscriptWriter,
	titleSidecarPath,
} from "./jsonl-transcript-writer.js";
import { readLinesBackward } from "./read-lines-backward.js";
import { readLinesForward } from "./read-lines-forward.js";
import { acquireSessionFileLock } from "./session-file-lock.js";
import { sessionIdFromFileName, transcriptFileName } from "./session-file-names.js";

export interface JsonlTranscriptStoreOptions {
	/** Where the transcripts live; created on the first session. */
	directory: string;
	/** "os" (default): each append reaches the OS before it resolves, fsync on flush/close. "fsync-each": fsync every append. */
	durability?: JsonlDurability;
	/** Lines longer than this are skipped by readers (and refused by the writer). Default 32 MiB. */
	maxLineBytes?: number;
}

/** One record as `scan` visits it. */
export type TranscriptRecordVisitor = (record: ParsedSessionRecord, lineNumber: number, byteOffset: number) => void;

export interface JsonlTranscriptStore extends TranscriptStore {
	readonly directory: string;
	openWriter(...args: Parameters<TranscriptStore["openWriter"]>): Promise<JsonlTranscriptWriter>;
	/**
	 * Visits every record front to back without keeping them: memory stays bounded by one chunk and
	 * the longest line, whatever the file's size. Returns the problems met.
	 */
	scan(sessionId: string, visit: TranscriptRecordVisitor): Promise<TranscriptReadProblem[]>;
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

	const pathOf = (sessionId: string) => join(directory, transcriptFileName(sessionId));

	async function openForReading(sessionId: string) {
		try {
			return await open(pathOf(sessionId), "r");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new SessionNotFoundError(sessionId);
			throw error;
		}
	}

	async function scan(sessionId: string, visit: TranscriptRecordVisitor): Promise<TranscriptReadProblem[]> {
		const handle = await openForReading(sessionId);
		const problems: TranscriptReadProblem[] = [];
		try {
			const { size } = await handle.stat();
			await readLinesForward(
				handle,
				{ maxLineBytes, endOffset: size },
				(text, lineNumber, byteOffset) => {
					let records: ParsedSessionRecord[];
					try {
						records = parseSessionRecords(text, lineNumber);
					} catch (error) {
						problems.push({ line: lineNumber, byteOffset, kind: "malformed", message: (error as Error).message });
						return true;
					}
					for (const record of records) visit(record, lineNumber, byteOffset);
					return true;
				},
				(problem) => problems.push(problem),
			);
		} finally {
			await handle.close();
		}
		return problems;
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
			});
		},

		scan,

		async read(sessionId): Promise<TranscriptReadResult> {
			const records: ParsedSessionRecord[] = [];
			const problems = await scan(sessionId, (record) => {
				records.push(record);
			});
			return { records, problems };
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
							records = parseSessionRecords(bytes.toString("utf8"), lineFromEnd);
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

		async list() {
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
			return infos.sort((a, b) => b.updatedAt - a.updatedAt);
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
			} finally {
				lock.release();
			}
		},
	};
}

async function readTitleSidecar(transcriptPath: string): Promise<string | undefined> {
	try {
		const parsed = JSON.parse(await readFile(titleSidecarPath(transcriptPath), "utf8")) as { title?: unknown };
		return typeof parsed.title === "string" ? parsed.title : undefined;
	} catch {
		return undefined;
	}
}

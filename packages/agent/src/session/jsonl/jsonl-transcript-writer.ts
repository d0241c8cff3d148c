// The writer of one JSONL transcript. It holds the session's lock file for its lifetime; each append
// is one write(2) of whole lines to a file opened with O_APPEND.
//
// Durability:
// - "os" (default): an append's promise resolves once its bytes are written to the operating system
//   (they survive the process being killed, not a power cut); `flush()` and `close()` fsync.
// - "fsync-each": every append is also fdatasync'ed before its promise resolves.
// A failed write (disk full) is truncated back to the last complete record, so the file never holds
// a partial line followed by a later record; if even that fails the writer refuses further appends.

import {
	closeSync,
	fdatasync,
	fstatSync,
	fsync,
	ftruncateSync,
	openSync,
	renameSync,
	writeFileSync,
	writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { promisify } from "node:util";
import { serializeSessionRecord } from "../record-format.js";
import { SessionNotFoundError, SessionRecordError } from "../session-errors.js";
import type { SessionHeaderRecord, SessionRecord, TranscriptReadProblem, TranscriptWriter } from "../session-types.js";
import { blobDirectory, moveLargeBlocksToBlobs } from "./blob-files.js";
import { type OutlineSidecarWriter, openOutlineSidecarWriter } from "./outline-sidecar-writer.js";
import {
	ensureOwnerOnlyDirectory,
	OWNER_ONLY_FILE_MODE,
	tightenExistingFileToOwnerOnly,
	tightenToOwnerOnly,
} from "./owner-only-modes.js";
import { acquireSessionFileLock } from "./session-file-lock.js";
import { setAsideTornTail } from "./set-aside-torn-tail.js";

export type JsonlDurability = "os" | "fsync-each";

export interface JsonlTranscriptWriter extends TranscriptWriter {
	/** What opening found and repaired: a torn last line set aside. */
	readonly problems: readonly TranscriptReadProblem[];
}

export interface OpenJsonlWriterOptions {
	sessionId: string;
	path: string;
	create?: SessionHeaderRecord;
	durability: JsonlDurability;
	maxLineBytes: number;
	/** File and audio blocks with more base64 characters than this go to blob files (blob-files.ts). */
	blobThresholdBytes: number;
	/**
	 * The store's open writers' outline indexes, by session: the writer is in it while open, so the
	 * store's reader can fill in the lines the index lacks as it parses them (outline-sidecar-writer.ts).
	 */
	outlineSidecars: Map<string, OutlineSidecarWriter>;
}

/** Encoded records: the bytes to write, and each record's line (with its newline) within them. */
interface EncodedLines {
	bytes: Buffer;
	lines: Buffer[];
}

const fdatasyncAsync = promisify(fdatasync);
const fsyncAsync = promisify(fsync);

export function titleSidecarPath(transcriptPath: string): string {
	return `${transcriptPath}.title`;
}

export function lockPath(transcriptPath: string): string {
	return `${transcriptPath}.lock`;
}

export function openJsonlTranscriptWriter(options: OpenJsonlWriterOptions): JsonlTranscriptWriter {
	const { sessionId, path, create, durability, maxLineBytes, blobThresholdBytes, outlineSidecars } = options;
	if (create && (create.type !== "session" || create.sessionId !== sessionId)) {
		throw new SessionRecordError(
			`the create header must be a "session" record with sessionId "${sessionId}", got type ${JSON.stringify(create.type)} and sessionId ${JSON.stringify(create.sessionId)}`,
		);
	}
	ensureOwnerOnlyDirectory(dirname(path), create !== undefined);
	const lock = acquireSessionFileLock(lockPath(path), sessionId);
	let descriptor: number | undefined;
	const problems: TranscriptReadProblem[] = [];
	let size: number;
	let outlines: OutlineSidecarWriter;
	try {
		try {
			descriptor = openSync(path, create ? "a" : "r+", OWNER_ONLY_FILE_MODE);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new SessionNotFoundError(sessionId);
			throw error;
		}
		if (!create) {
			// Reopen for appending; "r+" only proved the file exists without creating it.
			closeSync(descriptor);
			descriptor = openSync(path, "a");
		}
		tightenToOwnerOnly(descriptor);
		tightenExistingFileToOwnerOnly(titleSidecarPath(path));
		const repaired = setAsideTornTail(path, fstatSync(descriptor).size);
		if (repaired) problems.push(repaired);
		size = fstatSync(descriptor).size;
		outlines = openOutlineSidecarWriter(path, size);
	} catch (error) {
		if (descriptor !== undefined) closeSync(descriptor);
		lock.release();
		throw error;
	}
	const fd = descriptor;
	let closed = false;
	let broken: Error | undefined;

	function writeLines({ bytes, lines }: EncodedLines, records: SessionRecord[]): void {
		const start = size;
		let offset = 0;
		try {
			while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
		} catch (error) {
			try {
				if (offset > 0) ftruncateSync(fd, size);
			} catch {
				broken = new Error(
					`The transcript of session "${sessionId}" may end in a partial record after a failed write that could not be undone; reopen the session to repair it.`,
				);
			}
			throw error;
		}
		size += bytes.length;
		// The index entry of each line, from the record as given: its outline needs no blob data.
		let lineStart = start;
		for (let index = 0; index < lines.length; index++) {
			const length = lines[index].length - 1;
			const firstLine = lineStart === 0 ? lines[index].subarray(0, length) : undefined;
			outlines.add(lineStart, length, [records[index]], firstLine);
			lineStart += length + 1;
		}
	}

	function encode(records: SessionRecord[]): EncodedLines {
		const lines: Buffer[] = [];
		for (const record of records) {
			const stored = moveLargeBlocksToBlobs(record, blobDirectory(path), blobThresholdBytes);
			const line = Buffer.from(`${serializeSessionRecord(stored)}\n`);
			if (line.length - 1 > maxLineBytes) {
				throw new SessionRecordError(
					`a ${record.type} record of ${line.length - 1} bytes is over the limit of ${maxLineBytes} bytes (maxLineBytes); readers would skip it, so it was not written`,
				);
			}
			lines.push(line);
		}
		return { bytes: lines.length === 1 ? lines[0] : Buffer.concat(lines), lines };
	}

	function updateTitle(records: SessionRecord[]): void {
		let title: SessionRecord | undefined;
		for (const record of records)
			if (record.type === "title" || (record.type === "session" && record.title !== undefined)) title = record;
		if (!title) return;
		const sidecar = titleSidecarPath(path);
		const temporary = `${sidecar}.${process.pid}.tmp`;
		writeFileSync(
			temporary,
			JSON.stringify({ title: (title as { title: string }).title, timestamp: title.timestamp }),
			{
				mode: OWNER_ONLY_FILE_MODE,
			},
		);
		renameSync(temporary, sidecar);
	}

	outlineSidecars.set(sessionId, outlines);
	if (create && size === 0) {
		writeLines(encode([create]), [create]);
		updateTitle([create]);
	}

	return {
		sessionId,
		problems,
		async append(records) {
			if (closed) throw new Error(`The writer of session "${sessionId}" is closed; open a new one to append.`);
			if (broken) throw broken;
			const batch = Array.isArray(records) ? records : [records];
			if (batch.length === 0) return;
			writeLines(encode(batch), batch);
			updateTitle(batch);
			if (durability === "fsync-each") await fdatasyncAsync(fd);
		},
		async flush() {
			if (closed) return;
			outlines.flush();
			await fsyncAsync(fd);
		},
		async close() {
			if (closed) return;
			closed = true;
			if (outlineSidecars.get(sessionId) === outlines) outlineSidecars.delete(sessionId);
			try {
				outlines.close();
				await fsyncAsync(fd);
			} finally {
				closeSync(fd);
				lock.release();
			}
		},
	};
}

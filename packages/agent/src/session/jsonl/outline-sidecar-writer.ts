// The writer's side of the outline index (outline-sidecar-format.ts). Only the session's writer
// writes it (it holds the lock). Entries are queued and written in batches — when enough have
// gathered, after a short delay, and on flush and close — so an append costs one short string
// more, not another write(2). A writer killed before a batch is written leaves
// those lines uncovered: readers parse them in full, and the next writer's reader fills them in.
//
// Opening an existing transcript keeps what the index covers of it (outline-sidecar-coverage.ts)
// and starts a new index when there is none or it cannot be trusted. The lines it does not cover
// yet (a session written before the index existed, or after a writer was killed) are filled in by
// the same store's reader when it parses them in full — Session.open opens the writer, then scans —
// so a session gets its index on its first open, at no second parse (see `add`).

import { closeSync, fstatSync, openSync, readSync, renameSync, writeSync } from "node:fs";
import type { ParsedSessionRecord } from "../record-format.js";
import { inspectOutlineSidecar, readFirstLine } from "./outline-sidecar-coverage.js";
import { OutlineSidecarEntries, outlineSidecarHeader } from "./outline-sidecar-format.js";
import { OWNER_ONLY_FILE_MODE, tightenExistingFileToOwnerOnly } from "./owner-only-modes.js";
import { outlineSidecarPath } from "./session-file-names.js";

/** Queued entries are written once they hold this many characters… */
const BATCH_CHARACTERS = 64 * 1024;
/** …or this long after the first of them was queued. */
const BATCH_DELAY_MS = 500;
const COPY_CHUNK_BYTES = 1024 * 1024;

export interface OutlineSidecarWriter {
	/**
	 * Queues the entry of the transcript line at `offset` (`length` bytes without its newline,
	 * holding `records`; undefined when it did not parse) if it is the next line the index lacks;
	 * any other line is ignored, so entries stay contiguous. `firstLine` (the line's bytes) is needed
	 * for line 1 of a new transcript only, whose hash heads the index.
	 */
	add(
		offset: number,
		length: number,
		records: readonly ParsedSessionRecord[] | undefined,
		firstLine?: Uint8Array,
	): void;
	/** Where the next line the index lacks starts in the transcript. */
	readonly coveredEnd: number;
	/**
	 * Drops the index from byte `indexBytes` on, where a reader found an entry that does not match
	 * the transcript, so that it covers the transcript up to `coveredEnd` only: the reader, parsing
	 * the lines from there in full, fills it in again (see `add`).
	 */
	dropFrom(indexBytes: number, coveredEnd: number): void;
	/** Writes the queued entries now. */
	flush(): void;
	/** Writes the queued entries and closes the index. */
	close(): void;
}

/**
 * Opens the index of the transcript at `transcriptPath`, of `transcriptSize` bytes (after any torn
 * tail was set aside).
 */
export function openOutlineSidecarWriter(transcriptPath: string, transcriptSize: number): OutlineSidecarWriter {
	const path = outlineSidecarPath(transcriptPath);
	tightenExistingFileToOwnerOnly(path);
	let fd: number | undefined;
	let coveredEnd = 0;
	const entries = new OutlineSidecarEntries();
	let queue: string[] = [];
	let queuedCharacters = 0;
	let timer: ReturnType<typeof setTimeout> | undefined;

	if (transcriptSize > 0) keepingTheIndexOptional(openExisting);

	/**
	 * The index is a cache: when it cannot be read or written (a file system error), the session is
	 * opened and written without it, and readers parse the lines it lacks in full.
	 */
	function keepingTheIndexOptional(step: () => void): void {
		try {
			step();
		} catch {
			if (fd !== undefined) closeSync(fd);
			fd = undefined;
		}
	}

	function openExisting(): void {
		// The writer's own descriptor is append-only: the transcript is read through another.
		const transcriptFd = openSync(transcriptPath, "r");
		try {
			checkExisting(transcriptFd);
		} finally {
			closeSync(transcriptFd);
		}
	}

	function checkExisting(transcriptFd: number): void {
		const firstLine = readFirstLine(transcriptFd, transcriptSize);
		// A transcript without a complete line 1 gets no index until a writer opens it again.
		if (!firstLine) return;
		let existing: number | undefined;
		try {
			existing = openSync(path, "r");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
		}
		let keep: { indexBytes: number; indexSize: number } | undefined;
		if (existing !== undefined) {
			try {
				const indexSize = fstatSync(existing).size;
				const coverage = inspectOutlineSidecar(existing, indexSize, transcriptFd, transcriptSize);
				if (coverage) {
					keep = { indexBytes: coverage.indexBytes, indexSize };
					coveredEnd = coverage.coveredEnd;
					// What the index holds beyond its trusted entries (a half-written line, entries of
					// lines no longer in the transcript) is dropped by writing a copy without it and
					// renaming that over the index: a reader that has it open keeps reading the old one.
					if (coverage.indexBytes < indexSize)
						replaceIndex((target) => copyPrefix(existing as number, target, coverage.indexBytes));
				}
			} finally {
				closeSync(existing);
			}
		}
		if (!keep) replaceIndex((target) => writeSync(target, outlineSidecarHeader(firstLine)));
		fd = openSync(path, "a", OWNER_ONLY_FILE_MODE);
	}

	/** Writes a new index through a temporary file renamed over the old one. */
	function replaceIndex(write: (target: number) => void): void {
		const temporary = `${path}.${process.pid}.tmp`;
		const target = openSync(temporary, "w", OWNER_ONLY_FILE_MODE);
		try {
			write(target);
		} finally {
			closeSync(target);
		}
		renameSync(temporary, path);
	}

	function closeIndex(): void {
		const open = fd;
		fd = undefined;
		if (open !== undefined) keepingTheIndexOptional(() => closeSync(open));
	}

	function flush(): void {
		if (timer) clearTimeout(timer);
		timer = undefined;
		if (queue.length === 0 || fd === undefined) return;
		const bytes = Buffer.from(queue.join(""));
		queue = [];
		queuedCharacters = 0;
		try {
			let written = 0;
			while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
		} catch {
			// A failed write (disk full) stops this writer from keeping the index. Readers ignore a
			// half-written last line; the next writer drops it.
			closeIndex();
		}
	}

	return {
		get coveredEnd() {
			return coveredEnd;
		},
		add(offset, length, records, firstLine) {
			if (offset === 0 && fd === undefined && firstLine) {
				keepingTheIndexOptional(() => {
					replaceIndex((target) => writeSync(target, outlineSidecarHeader(firstLine)));
					fd = openSync(path, "a", OWNER_ONLY_FILE_MODE);
				});
				coveredEnd = 0;
				entries.restart();
			}
			if (fd === undefined || offset !== coveredEnd) return;
			const entry = entries.entry(offset, length, records);
			queue.push(entry);
			queuedCharacters += entry.length;
			coveredEnd = offset + length + 1;
			if (queuedCharacters >= BATCH_CHARACTERS) flush();
			else if (!timer) {
				timer = setTimeout(flush, BATCH_DELAY_MS);
				timer.unref?.();
			}
		},
		dropFrom(indexBytes, end) {
			if (fd === undefined || end > coveredEnd) return;
			queue = [];
			queuedCharacters = 0;
			closeIndex();
			keepingTheIndexOptional(() => {
				// Its own descriptor is append-only: the index is copied through another.
				const source = openSync(path, "r");
				try {
					if (fstatSync(source).size < indexBytes) return;
					replaceIndex((target) => copyPrefix(source, target, indexBytes));
				} finally {
					closeSync(source);
				}
				fd = openSync(path, "a", OWNER_ONLY_FILE_MODE);
				coveredEnd = end;
				entries.restart();
			});
		},
		flush,
		close() {
			flush();
			closeIndex();
		},
	};
}

function copyPrefix(source: number, target: number, bytes: number): void {
	const chunk = Buffer.allocUnsafe(Math.min(COPY_CHUNK_BYTES, bytes));
	for (let position = 0; position < bytes; ) {
		const read = readSync(source, chunk, 0, Math.min(chunk.length, bytes - position), position);
		if (read === 0) break;
		writeSync(target, chunk, 0, read);
		position += read;
	}
}

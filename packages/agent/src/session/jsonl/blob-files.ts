// Large file and audio blocks of a JSONL transcript live in files beside it, so a 5 MB PDF does not
// make every read of the transcript parse 7 MB of base64 (nor push a line past maxLineBytes). The
// writer moves the bytes of each file or audio block above the threshold (in a user message, or a
// file a tool returned in a tool result) into `<transcript>.blobs/<sha256>` (raw bytes, named by
// their hash: the same file attached twice, or attached and then returned by a tool, is stored
// once) and writes `blob: { sha256, bytes }` in place of `data`. Readers put the data back
// before the record is validated, so callers only ever see whole blocks; a blob that is missing or
// whose bytes do not match its hash makes that record a read problem, never a silent change.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionRecordError } from "../session-errors.js";
import type { SessionRecord } from "../session-types.js";
import { OWNER_ONLY_FILE_MODE } from "./owner-only-modes.js";

/** Blocks whose base64 data is longer than this many characters are stored as blob files. */
export const DEFAULT_BLOB_THRESHOLD_BYTES = 64 * 1024;

/** What a stored block holds in place of `data`. */
interface BlobReference {
	sha256: string;
	/** The size of the decoded bytes. */
	bytes: number;
}

export function blobDirectory(transcriptPath: string): string {
	return `${transcriptPath}.blobs`;
}

type Block = Record<string, unknown>;

/**
 * The content array of a record whose message may carry file or audio blocks (a user message, or a
 * tool result: a tool may return a PDF), or undefined for any other record.
 */
function binaryCarryingContent(record: Record<string, unknown>): Block[] | undefined {
	if (record.type !== "message") return undefined;
	const message = record.message as { role?: unknown; content?: unknown } | undefined;
	if ((message?.role !== "user" && message?.role !== "toolResult") || !Array.isArray(message.content)) return undefined;
	return message.content as Block[];
}

function isBinaryBlock(block: Block): boolean {
	return typeof block === "object" && block !== null && (block.type === "file" || block.type === "audio");
}

/**
 * The record as it is written: each large file or audio block's bytes saved under the blob
 * directory and replaced by a reference. Returns the record itself when nothing is large.
 */
export function moveLargeBlocksToBlobs(
	record: SessionRecord,
	directory: string,
	thresholdBytes: number,
): SessionRecord {
	const content = binaryCarryingContent(record as unknown as Record<string, unknown>);
	if (
		!content?.some(
			(block) => isBinaryBlock(block) && typeof block.data === "string" && block.data.length > thresholdBytes,
		)
	)
		return record;
	const stored = content.map((block) => {
		if (!isBinaryBlock(block) || typeof block.data !== "string" || block.data.length <= thresholdBytes) return block;
		const bytes = Buffer.from(block.data, "base64");
		// A string that is not canonical base64 would not come back byte for byte: keep it inline.
		if (bytes.toString("base64") !== block.data) return block;
		const sha256 = createHash("sha256").update(bytes).digest("hex");
		writeBlob(directory, sha256, bytes);
		const { data: _data, ...rest } = block;
		return { ...rest, blob: { sha256, bytes: bytes.length } satisfies BlobReference };
	});
	const message = (record as unknown as { message: Record<string, unknown> }).message;
	return { ...record, message: { ...message, content: stored } } as unknown as SessionRecord;
}

function writeBlob(directory: string, sha256: string, bytes: Buffer): void {
	const path = join(directory, sha256);
	if (existsSync(path)) return;
	mkdirSync(directory, { recursive: true, mode: 0o700 });
	// Written whole under a temporary name, then renamed: a reader never sees half a blob.
	const temporary = `${path}.${process.pid}.tmp`;
	writeFileSync(temporary, bytes, { mode: OWNER_ONLY_FILE_MODE });
	renameSync(temporary, path);
}

/**
 * Puts the data of every blob reference of a parsed record back (in place), checking each blob's
 * hash. Throws a SessionRecordError naming the block when a blob is missing or damaged.
 */
export function restoreBlobs(record: Record<string, unknown>, directory: string): void {
	const content = binaryCarryingContent(record);
	if (!content) return;
	content.forEach((block, index) => {
		if (!isBinaryBlock(block) || block.blob === undefined) return;
		const field = `message.content[${index}].blob`;
		const reference = block.blob as Partial<BlobReference>;
		if (typeof reference?.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(reference.sha256)) {
			throw new SessionRecordError(`${field} must hold the sha256 of a blob file`, { field });
		}
		let bytes: Buffer;
		try {
			bytes = readFileSync(join(directory, reference.sha256));
		} catch (error) {
			throw new SessionRecordError(
				`${field}: the blob file ${join(directory, reference.sha256)} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the transcript's .blobs folder must stay beside it`,
				{ field },
			);
		}
		if (createHash("sha256").update(bytes).digest("hex") !== reference.sha256) {
			throw new SessionRecordError(`${field}: the blob file ${reference.sha256} is damaged (its hash differs)`, {
				field,
			});
		}
		delete block.blob;
		block.data = bytes.toString("base64");
	});
}

/** Puts empty data in place of every blob reference (in place): for reads that need only the text. */
export function emptyBlobData(record: Record<string, unknown>): void {
	for (const block of binaryCarryingContent(record) ?? []) {
		if (!isBinaryBlock(block) || block.blob === undefined) continue;
		delete block.blob;
		block.data = "";
	}
}

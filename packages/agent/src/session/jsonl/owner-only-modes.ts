// Transcripts hold whatever a conversation held (pasted secrets, tool output, file contents), so
// they are kept like credentials: files 0600 and their directory 0700, readable by their owner only.
// New files and directories are created so; existing ones with wider modes (written by an older
// version, or by hand) are tightened when a writer opens them. On Windows modes are not enforced.
import { chmodSync, fchmodSync, fstatSync, mkdirSync, statSync } from "node:fs";

/** The mode of every file the JSONL store writes: read and write for the owner only. */
export const OWNER_ONLY_FILE_MODE = 0o600;
/** The mode of the directories the JSONL store creates: the owner only. */
export const OWNER_ONLY_DIRECTORY_MODE = 0o700;

const GROUP_AND_OTHER_BITS = 0o077;

/**
 * Removes group and other access from `directory`; with `create`, first creates it (and missing
 * parents) as 0700. A directory that does not exist is left to the caller's open to report.
 */
export function ensureOwnerOnlyDirectory(directory: string, create: boolean): void {
	if (create) mkdirSync(directory, { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
	let mode: number;
	try {
		mode = statSync(directory).mode;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
		throw error;
	}
	if ((mode & GROUP_AND_OTHER_BITS) === 0) return;
	try {
		chmodSync(directory, mode & 0o700);
	} catch (error) {
		// A directory another user owns cannot be changed by this one: the files in it still are 0600.
		if ((error as NodeJS.ErrnoException).code !== "EPERM") throw error;
	}
}

/** Removes group and other access from the file at `path`, when there is one. */
export function tightenExistingFileToOwnerOnly(path: string): void {
	let mode: number;
	try {
		mode = statSync(path).mode;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
		throw error;
	}
	if ((mode & GROUP_AND_OTHER_BITS) !== 0) chmodSync(path, mode & 0o700);
}

/** Removes group and other access from an open file. */
export function tightenToOwnerOnly(descriptor: number): void {
	const mode = fstatSync(descriptor).mode;
	if ((mode & GROUP_AND_OTHER_BITS) !== 0) fchmodSync(descriptor, mode & 0o700);
}

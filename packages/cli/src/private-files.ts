// The CLI's own files (sessions, settings, templates) are private to the user who runs it: folders
// 0700, files 0600. Files are replaced through a temporary file and a rename, so a crash never
// leaves half a settings file behind.
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates the folder (and its parents) as 0700; an existing one is narrowed to 0700. */
export function ensurePrivateDirectory(path: string): string {
	mkdirSync(path, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
	if ((statSync(path).mode & 0o777) !== PRIVATE_DIRECTORY_MODE) chmodSync(path, PRIVATE_DIRECTORY_MODE);
	return path;
}

/** Writes a whole file as 0600, atomically. */
export function writePrivateFile(path: string, text: string): void {
	ensurePrivateDirectory(dirname(path));
	const temporary = join(dirname(path), `.${process.pid}-${Date.now()}.tmp`);
	try {
		writeFileSync(temporary, text, { mode: PRIVATE_FILE_MODE });
		renameSync(temporary, path);
	} catch (error) {
		rmSync(temporary, { force: true });
		throw error;
	}
}

/** A file's text, or undefined when it does not exist. */
export function readFileIfPresent(path: string): string | undefined {
	try {
		return readFileSync(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw error;
	}
}

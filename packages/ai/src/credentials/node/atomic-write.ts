// Replacing a file so that a reader (or a crash) sees either the old content or the new, never a
// mix: write a temporary file beside it, flush it to disk, then rename it over the old one
// (rename within one directory is atomic on POSIX file systems and on NTFS).
import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Writes `text` to `path` atomically with the given mode (0600: readable by the owner only). */
export async function writeFileAtomically(path: string, text: string, mode = 0o600): Promise<void> {
	const directory = dirname(path);
	await mkdir(directory, { recursive: true, mode: 0o700 });
	const temporary = join(directory, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
	try {
		const handle = await open(temporary, "wx", mode);
		try {
			await handle.writeFile(text, "utf8");
			await handle.sync();
		} finally {
			await handle.close();
		}
		await rename(temporary, path);
	} catch (error) {
		await rm(temporary, { force: true });
		throw error;
	}
}

// A lock between processes: a file created with O_EXCL ("wx"), which only one process can create.
// It records its holder's pid, host and time, so a lock left by a process that died (a crash, a
// kill -9) is recognised and removed instead of blocking every later process.

import { open, readFile, rm, stat } from "node:fs/promises";
import { hostname } from "node:os";

export interface FileLockOptions {
	/** Give up waiting after this long. Default 60 s: longer than one token request may take. */
	timeoutMs?: number;
	/** A lock older than this is taken to be abandoned even if its holder seems alive. Default 120 s. */
	staleAfterMs?: number;
	/** Pause between attempts while another process holds the lock. Default 25 ms. */
	retryDelayMs?: number;
}

interface LockOwner {
	pid: number;
	host: string;
	createdAt: number;
}

/** Runs `task` holding the lock file at `lockPath`, and removes the file afterwards. */
export async function withFileLock<T>(
	lockPath: string,
	task: () => Promise<T>,
	options: FileLockOptions = {},
): Promise<T> {
	await acquireFileLock(lockPath, options);
	try {
		return await task();
	} finally {
		await rm(lockPath, { force: true });
	}
}

async function acquireFileLock(lockPath: string, options: FileLockOptions): Promise<void> {
	const timeoutMs = options.timeoutMs ?? 60_000;
	const staleAfterMs = options.staleAfterMs ?? 120_000;
	const retryDelayMs = options.retryDelayMs ?? 25;
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (await tryCreateLock(lockPath)) return;
		const holder = await readLockFile(lockPath);
		if (holder && (await isStale(lockPath, holder.owner, staleAfterMs))) {
			// Removed only if it still holds what was judged stale: another process may have broken
			// the same stale lock and taken a fresh one in between.
			const again = await readLockFile(lockPath);
			if (again && again.text === holder.text) await rm(lockPath, { force: true });
			continue;
		}
		if (Date.now() >= deadline) {
			const who = holder?.owner ? ` held by process ${holder.owner.pid} on ${holder.owner.host}` : "";
			throw new Error(
				`Timed out after ${timeoutMs / 1000} s waiting for the lock ${lockPath}${who}; if no such process is running, delete the file`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
	}
}

async function tryCreateLock(lockPath: string): Promise<boolean> {
	try {
		const handle = await open(lockPath, "wx", 0o600);
		try {
			const owner: LockOwner = { pid: process.pid, host: hostname(), createdAt: Date.now() };
			await handle.writeFile(JSON.stringify(owner), "utf8");
		} finally {
			await handle.close();
		}
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
		throw error;
	}
}

async function readLockFile(lockPath: string): Promise<{ text: string; owner: LockOwner | undefined } | undefined> {
	let text: string;
	try {
		text = await readFile(lockPath, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw error;
	}
	try {
		const parsed = JSON.parse(text) as Partial<LockOwner>;
		const valid =
			typeof parsed.pid === "number" && typeof parsed.host === "string" && typeof parsed.createdAt === "number";
		return { text, owner: valid ? (parsed as LockOwner) : undefined };
	} catch {
		return { text, owner: undefined };
	}
}

/**
 * A lock is stale when its holder on this host is no longer running, or when it is older than
 * `staleAfterMs`. An unreadable lock (its holder died between creating and writing it) is judged
 * by the file's age alone.
 */
async function isStale(lockPath: string, owner: LockOwner | undefined, staleAfterMs: number): Promise<boolean> {
	if (owner && owner.host === hostname() && !isProcessRunning(owner.pid)) return true;
	const createdAt = owner?.createdAt ?? (await modificationTime(lockPath));
	if (createdAt === undefined) return false;
	return Date.now() - createdAt > staleAfterMs;
}

async function modificationTime(path: string): Promise<number | undefined> {
	try {
		return (await stat(path)).mtimeMs;
	} catch {
		return undefined;
	}
}

function isProcessRunning(pid: number): boolean {
	try {
		// Signal 0 checks that the process exists without affecting it; EPERM means it exists
		// but belongs to another user.
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

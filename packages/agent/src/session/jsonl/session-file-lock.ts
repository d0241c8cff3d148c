// One writer per session, across processes: a lock file created with O_EXCL next to the transcript,
// holding the owner's pid, hostname and start time. A lock whose pid is dead on this host is stale
// (its process crashed or was killed) and is taken over; a lock from another host cannot be checked
// and is respected — remove it by hand if that host is gone.

import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { SessionLockedError } from "../session-errors.js";
import { OWNER_ONLY_FILE_MODE } from "./owner-only-modes.js";

interface LockContent {
	pid: number;
	hostname: string;
	createdAt: number;
	token: string;
}

export interface SessionFileLock {
	release(): void;
}

/**
 * A lock file that has no readable content yet is being written by its creator (between the
 * O_EXCL create and the write); only after this long is it judged abandoned.
 */
const UNREADABLE_LOCK_GRACE_MS = 10_000;

export function acquireSessionFileLock(lockPath: string, sessionId: string): SessionFileLock {
	const content: LockContent = {
		pid: process.pid,
		hostname: hostname(),
		createdAt: Date.now(),
		token: `${process.pid}-${Math.random().toString(36).slice(2)}`,
	};
	for (let attempt = 0; attempt < 3; attempt++) {
		let descriptor: number;
		try {
			descriptor = openSync(lockPath, "wx", OWNER_ONLY_FILE_MODE);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
			const text = readLockText(lockPath);
			if (text === undefined) continue;
			const holder = parseLock(text);
			if (!isStale(lockPath, holder)) throw new SessionLockedError(sessionId, holder ?? undefined);
			if (!setAsideStaleLock(lockPath, text)) throw new SessionLockedError(sessionId, holder ?? undefined);
			continue;
		}
		try {
			writeSync(descriptor, JSON.stringify(content));
		} finally {
			closeSync(descriptor);
		}
		return { release: () => releaseLock(lockPath, content.token) };
	}
	throw new SessionLockedError(sessionId, parseLock(readLockText(lockPath) ?? "") ?? undefined);
}

/** The lock file's text, or undefined when there is none. */
function readLockText(lockPath: string): string | undefined {
	try {
		return readFileSync(lockPath, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		return "";
	}
}

/** null: a lock file without readable content (its creator may still be writing it). */
function parseLock(text: string): LockContent | null {
	try {
		const parsed = JSON.parse(text) as Partial<LockContent>;
		if (typeof parsed.pid !== "number" || typeof parsed.hostname !== "string") return null;
		return parsed as LockContent;
	} catch {
		return null;
	}
}

function isStale(lockPath: string, holder: LockContent | null): boolean {
	if (holder === null) {
		try {
			return Date.now() - statSync(lockPath).mtimeMs > UNREADABLE_LOCK_GRACE_MS;
		} catch {
			return true;
		}
	}
	if (holder.hostname !== hostname()) return false;
	return !isProcessAlive(holder.pid);
}

function isProcessAlive(pid: number): boolean {
	try {
		// Signal 0 checks for existence without touching the process.
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: the process exists but belongs to another user.
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

/**
 * Moves the stale lock out of the way with a rename (atomic) rather than unlinking it, then checks
 * that what it moved is the lock it judged stale: if another process recovered the same stale lock
 * first and already holds a fresh one, that one is put back and this process reports the session
 * locked. Returns whether the way is clear to retry the O_EXCL create.
 */
function setAsideStaleLock(lockPath: string, staleText: string): boolean {
	const asidePath = `${lockPath}.stale-${process.pid}-${Math.random().toString(36).slice(2)}`;
	try {
		renameSync(lockPath, asidePath);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
		throw error;
	}
	const moved = readLockText(asidePath);
	if (moved !== staleText) {
		try {
			// link() fails rather than overwrite if yet another lock appeared meanwhile.
			linkSync(asidePath, lockPath);
		} catch {
			// Nothing better to do: the holder's own release will find its lock gone.
		}
		unlinkQuietly(asidePath);
		return false;
	}
	unlinkQuietly(asidePath);
	return true;
}

function unlinkQuietly(path: string): void {
	try {
		unlinkSync(path);
	} catch {
		// Already gone.
	}
}

/** Removes the lock only while it is still ours (it may have been judged stale and taken over). */
function releaseLock(lockPath: string, token: string): void {
	const text = readLockText(lockPath);
	if (text === undefined || parseLock(text)?.token !== token) return;
	unlinkQuietly(lockPath);
}

// One writer per session, across processes: a lock file created with O_EXCL next to the transcript,
// holding the owner's pid, hostname and start time. A lock whose pid is dead on this host is stale
// (its process crashed or was killed) and is taken over; a lock from another host cannot be checked
// and is respected — remove it by hand if that host is gone.

import { closeSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { SessionLockedError } from "../session-errors.js";

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
			descriptor = openSync(lockPath, "wx");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
			const holder = readLock(lockPath);
			if (holder === "missing") continue;
			if (!isStale(lockPath, holder)) throw new SessionLockedError(sessionId, holder ?? undefined);
			setAsideStaleLock(lockPath);
			continue;
		}
		try {
			writeSync(descriptor, JSON.stringify(content));
		} finally {
			closeSync(descriptor);
		}
		return { release: () => releaseLock(lockPath, content.token) };
	}
	throw new SessionLockedError(sessionId, readLockOrUndefined(lockPath));
}

function readLock(lockPath: string): LockContent | null | "missing" {
	try {
		const parsed = JSON.parse(readFileSync(lockPath, "utf8")) as Partial<LockContent>;
		if (typeof parsed.pid !== "number" || typeof parsed.hostname !== "string") return null;
		return parsed as LockContent;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
		return null;
	}
}

function readLockOrUndefined(lockPath: string): LockContent | undefined {
	const holder = readLock(lockPath);
	return holder === "missing" || holder === null ? undefined : holder;
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
 * Moves the stale lock out of the way with a rename (atomic) rather than unlinking it, so that of
 * two processes recovering the same stale lock at once only one removes it; the other finds it gone
 * and retries the O_EXCL create, which again only one of them wins.
 */
function setAsideStaleLock(lockPath: string): void {
	const asidePath = `${lockPath}.stale-${process.pid}-${Math.random().toString(36).slice(2)}`;
	try {
		renameSync(lockPath, asidePath);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
		throw error;
	}
	try {
		unlinkSync(asidePath);
	} catch {
		// Leaving a renamed stale lock behind is harmless.
	}
}

/** Removes the lock only while it is still ours (it may have been judged stale and taken over). */
function releaseLock(lockPath: string, token: string): void {
	const holder = readLock(lockPath);
	if (holder === "missing" || holder === null || holder.token !== token) return;
	try {
		unlinkSync(lockPath);
	} catch {
		// Already gone.
	}
}

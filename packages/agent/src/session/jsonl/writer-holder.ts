// Who holds a session's writer lease, for stores that keep the lease in a database row (the SQLite
// and PostgreSQL stores): process id, host name and start time, stored with the lease so a
// SessionLockedError can name the holder, and so a lease left by a process that died on this host is
// recovered at once instead of after it expires (a lease from another host cannot be checked, and is
// respected until it runs out). Node only (node:os, process.kill), hence in this Node-only entry.

import { hostname } from "node:os";

export interface WriterHolder {
	pid?: number;
	hostname?: string;
	createdAt?: number;
}

export function describeThisWriter(): string {
	return JSON.stringify({ pid: process.pid, hostname: hostname(), createdAt: Date.now() });
}

export function parseWriterHolder(text: string | null): WriterHolder | undefined {
	if (text === null) return undefined;
	try {
		const value = JSON.parse(text) as WriterHolder;
		return typeof value === "object" && value !== null ? value : undefined;
	} catch {
		return undefined;
	}
}

/** True only when the holder ran on this host and its process no longer exists. */
export function isWriterGone(holder: WriterHolder | undefined): boolean {
	if (!holder || holder.hostname !== hostname() || typeof holder.pid !== "number" || holder.pid === process.pid) {
		return false;
	}
	try {
		process.kill(holder.pid, 0);
		return false;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "ESRCH";
	}
}

/** Whether a lease stops another writer: held, not expired, and its holder not known to be dead. */
export function isLeaseLive(holderText: string | null, expiresAt: number | null, now: number): boolean {
	if (holderText === null || (expiresAt ?? 0) <= now) return false;
	return !isWriterGone(parseWriterHolder(holderText));
}

// Releasing a closed writer's lease when the server cannot be reached at close (a restart, a cut
// network). Left alone, the session would stay locked (SessionLockedError) until the lease ran out
// (`leaseMs`), even for this very process, which knows its writer is closed. So the release is
// retried in the background a bounded number of times; and until it goes through, the stores over
// the same pool remember the closed writer's token, and their next `openWriter` of that session
// takes the lease at once, as if it had been released. That open moves the token on like any
// other, so nothing the old writer might still have had on the way could land after it.

import type { Pool } from "pg";
import { isConnectionLost } from "./postgres-connection.js";

/** The waits before each retry: doubling from 250 ms, about 30 s in all (the default lease). */
const RETRY_DELAYS_MS = [250, 500, 1_000, 2_000, 4_000, 8_000, 16_000];

/** Per pool, by session: the token of a closed writer whose lease was not released yet. */
const unreleasedByPool = new WeakMap<Pool, Map<string, number>>();

/** The lease of one closed writer. */
export interface ClosedLease {
	pool: Pool;
	/** The schema, already quoted as an identifier. */
	schema: string;
	tenant: string;
	sessionId: string;
	token: number;
	leaseMs: number;
}

function keyOf(schema: string, tenant: string, sessionId: string): string {
	return `${schema}\u0000${tenant}\u0000${sessionId}`;
}

/** The token of a writer closed over this pool whose lease on the session is not released yet, if any. */
export function closedWriterToken(pool: Pool, schema: string, tenant: string, sessionId: string): number | undefined {
	return unreleasedByPool.get(pool)?.get(keyOf(schema, tenant, sessionId));
}

/** Forgets the session's closed writer: its lease was taken again or ran out. */
export function forgetClosedWriter(pool: Pool, schema: string, tenant: string, sessionId: string): void {
	unreleasedByPool.get(pool)?.delete(keyOf(schema, tenant, sessionId));
}

/**
 * Releases a closed writer's lease. Resolves once it is released, or once the server could not be
 * reached and the release was left to the background retries (and to this pool's next
 * `openWriter`); rejects with any other error.
 */
export async function releaseClosedLease(lease: ClosedLease): Promise<void> {
	try {
		await sendRelease(lease);
	} catch (error) {
		if (!isConnectionLost(error)) throw error;
		let unreleased = unreleasedByPool.get(lease.pool);
		if (!unreleased) {
			unreleased = new Map();
			unreleasedByPool.set(lease.pool, unreleased);
		}
		unreleased.set(keyOf(lease.schema, lease.tenant, lease.sessionId), lease.token);
		retryLater(lease, 0, Date.now());
	}
}

/** Clears the lease only while the session still carries this writer's token: a newer writer's stays. */
async function sendRelease(lease: ClosedLease): Promise<void> {
	await lease.pool.query(
		`UPDATE ${lease.schema}.keel_sessions SET writer_holder = NULL, lease_expires_at = NULL
		WHERE tenant = $1 AND session_id = $2 AND writer_token = $3`,
		[lease.tenant, lease.sessionId, lease.token],
	);
}

function retryLater(lease: ClosedLease, attempt: number, since: number): void {
	// Past the last retry, or once the lease has run out anyway, nothing holds the session any more.
	if (attempt >= RETRY_DELAYS_MS.length || Date.now() - since >= lease.leaseMs) {
		forgetIfStill(lease);
		return;
	}
	const timer = setTimeout(() => {
		sendRelease(lease).then(
			() => forgetIfStill(lease),
			(error: unknown) => {
				// Any other error (the pool ended with its store, a permission taken away) ends the retries.
				if (isConnectionLost(error)) retryLater(lease, attempt + 1, since);
				else forgetIfStill(lease);
			},
		);
	}, RETRY_DELAYS_MS[attempt]);
	timer.unref();
}

/** Forgets the closed writer unless a later one of the same session took its place meanwhile. */
function forgetIfStill(lease: ClosedLease): void {
	if (closedWriterToken(lease.pool, lease.schema, lease.tenant, lease.sessionId) === lease.token) {
		forgetClosedWriter(lease.pool, lease.schema, lease.tenant, lease.sessionId);
	}
}

// A registry of cleanups for per-session resources (open sockets, cached connections) so a host can
// release everything a session holds with one call when the session ends.

/** Releases what one session holds. */
export type SessionResourceCleanup = (sessionId: string) => void;

const cleanups = new Set<SessionResourceCleanup>();

/** Registers a cleanup run by every `cleanupSessionResources`; the returned function unregisters it. */
export function registerSessionResourceCleanup(cleanup: SessionResourceCleanup): () => void {
	cleanups.add(cleanup);
	return () => {
		cleanups.delete(cleanup);
	};
}

/** Runs every registered cleanup for the session; all run even when some throw, then one AggregateError reports them. */
export function cleanupSessionResources(sessionId: string): void {
	const errors: unknown[] = [];
	for (const cleanup of cleanups) {
		try {
			cleanup(sessionId);
		} catch (error) {
			errors.push(error);
		}
	}
	if (errors.length > 0) throw new AggregateError(errors, "Failed to cleanup session resources");
}

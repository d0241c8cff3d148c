// Errors of the SQLite store that the session errors of @keel/agent-core do not cover: a database
// that cannot be opened or written to, and one whose tables a newer version of this package wrote.

/** The database file could not be opened, prepared or written to; `cause` is SQLite's own error. */
export class SqliteTranscriptStoreError extends Error {
	override readonly name = "SqliteTranscriptStoreError";
	readonly path: string;

	constructor(message: string, path: string, cause?: unknown) {
		super(message, cause === undefined ? undefined : { cause });
		this.path = path;
	}
}

/** The database's tables were written by a newer version of @keel/session-sqlite. */
export class SqliteSchemaVersionError extends Error {
	override readonly name = "SqliteSchemaVersionError";
	readonly found: number;
	readonly supported: number;

	constructor(found: number, supported: number) {
		super(
			`The database holds transcript tables of schema version ${found}, newer than the version ${supported} this @keel/session-sqlite knows: upgrade @keel/session-sqlite (nothing was changed in the database).`,
		);
		this.found = found;
		this.supported = supported;
	}
}

/**
 * A write that failed because the database is full (SQLITE_FULL: the disk, or `max_page_count`) as a
 * SqliteTranscriptStoreError naming the file, the session and what to do; other errors unchanged.
 * The transaction was rolled back, so nothing of the write is stored and the writer can go on once
 * there is room again.
 */
export function describeFailedWrite(error: unknown, path: string, sessionId: string): unknown {
	if ((error as { code?: unknown }).code !== "SQLITE_FULL") return error;
	return new SqliteTranscriptStoreError(
		`The SQLite transcript database "${path}" is full (${(error as Error).message}): nothing of this write to session "${sessionId}" was stored. Free disk space (or raise the database's max_page_count) and write again.`,
		path,
		error,
	);
}

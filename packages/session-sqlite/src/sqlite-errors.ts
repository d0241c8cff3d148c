// Errors of the SQLite store that the session errors of @keel/agent-core do not cover: a database
// that cannot be opened, and one whose tables a newer version of this package wrote.

/** The database file could not be opened or prepared; `cause` is SQLite's own error. */
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

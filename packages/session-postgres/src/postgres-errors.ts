// Errors of the PostgreSQL store that the session errors of @keel/agent-core do not cover. Their
// messages name the server, database, user and schema, never a password.

/**
 * The server could not be reached, refused the credentials, or lacks the database or schema named;
 * or the connection was lost during a call ("connection-lost": a restart, a crash, a network cut);
 * or the server's disk was full when appending ("disk-full": nothing of that append was stored).
 */
export class PostgresTranscriptStoreError extends Error {
	override readonly name = "PostgresTranscriptStoreError";
	/** What went wrong, for programs that react to it. */
	readonly reason:
		| "unreachable"
		| "connection-lost"
		| "disk-full"
		| "credentials"
		| "missing-database"
		| "missing-schema"
		| "server";

	constructor(message: string, reason: PostgresTranscriptStoreError["reason"], cause?: unknown) {
		super(message, cause === undefined ? undefined : { cause });
		this.reason = reason;
	}
}

/** The schema's tables were written by a newer version of @keel/session-postgres. */
export class PostgresSchemaVersionError extends Error {
	override readonly name = "PostgresSchemaVersionError";
	readonly found: number;
	readonly supported: number;

	constructor(schema: string, found: number, supported: number) {
		super(
			`Schema "${schema}" holds transcript tables of version ${found}, newer than the version ${supported} this @keel/session-postgres knows: upgrade @keel/session-postgres (nothing was changed in the database).`,
		);
		this.found = found;
		this.supported = supported;
	}
}

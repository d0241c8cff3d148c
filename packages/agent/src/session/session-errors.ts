// The errors a session store throws. Each names what failed and what to do about it.

/** A transcript line or a message that is not a valid record; names the line and the field. */
export class SessionRecordError extends Error {
	override readonly name = "SessionRecordError";
	/** 1-based line of the transcript, when the record came from one. */
	readonly line?: number;
	/** The path of the offending field, for example `message.content[2].text`. */
	readonly field?: string;

	constructor(message: string, details: { line?: number; field?: string } = {}) {
		super(message);
		this.line = details.line;
		this.field = details.field;
	}
}

/** Another writer (in this process or another) holds the session's lock. */
export class SessionLockedError extends Error {
	override readonly name = "SessionLockedError";
	readonly sessionId: string;
	/** What is known about the holder: pid, hostname and since when, for a file lock. */
	readonly holder?: { pid?: number; hostname?: string; createdAt?: number };

	constructor(sessionId: string, holder?: { pid?: number; hostname?: string; createdAt?: number }) {
		const who =
			holder?.pid !== undefined
				? ` by process ${holder.pid}${holder.hostname ? ` on ${holder.hostname}` : ""}${
						holder.createdAt !== undefined ? ` since ${new Date(holder.createdAt).toISOString()}` : ""
					}`
				: "";
		super(
			`Session "${sessionId}" is locked${who}: another writer is appending to it. Close that writer first; a lock left by a process that died is recovered automatically.`,
		);
		this.sessionId = sessionId;
		this.holder = holder;
	}
}

/** The session does not exist (open it with `create` to start it). */
export class SessionNotFoundError extends Error {
	override readonly name = "SessionNotFoundError";
	readonly sessionId: string;

	constructor(sessionId: string) {
		super(`Session "${sessionId}" does not exist: pass { create: header } to openWriter to start it.`);
		this.sessionId = sessionId;
	}
}

/** A session id that cannot name a transcript (empty, too long, or escaping the store's directory). */
export class InvalidSessionIdError extends Error {
	override readonly name = "InvalidSessionIdError";
	readonly sessionId: string;

	constructor(sessionId: string, reason: string) {
		super(`Invalid session id ${JSON.stringify(sessionId)}: ${reason}.`);
		this.sessionId = sessionId;
	}
}

/**
 * The writer no longer holds the session: another writer took it over (its lease had expired, or
 * it was taken with `takeOver`), and this writer's append was refused before anything was written.
 * Stores shared by several processes (the database stores) fence writers with a token so the two
 * can never interleave records. Re-open the session, read what the other writer added, and go on.
 */
export class SessionFencedError extends Error {
	override readonly name = "SessionFencedError";
	readonly sessionId: string;

	constructor(sessionId: string, detail = "") {
		super(
			`Session "${sessionId}" was taken over by another writer${detail ? ` (${detail})` : ""}; this writer's append was refused and nothing was written. Open the session again to read what the other writer added before appending.`,
		);
		this.sessionId = sessionId;
	}
}

/**
 * `Session.open` of a transcript another tool wrote (see interchange/) placed in a store: Keel does not open it in place — it would resume only part of the
 * conversation, and appending would write Keel records into the other tool's file. The message
 * points to the import, which writes a new Keel session and leaves the file as it is.
 */
export class ForeignTranscriptError extends Error {
	override name = "ForeignTranscriptError";
	constructor(
		readonly sessionId: string,
		/** The tool that wrote it, as far as its first line tells. */
		readonly format: "claude-code" | "pi",
	) {
		const writer = format === "pi" ? "a pi session file" : "a Claude Code transcript";
		super(
			`Session "${sessionId}" is not a Keel transcript: its first line is from ${writer}. Keel does not open it in place (it would resume only part of the conversation, and appending would write into that file); import it into a new session with importTranscript() from @keel/agent-core/session or \`keel sessions import <file>\`, which leave the file unchanged`,
		);
	}
}

// Which strings may name a session. The JSONL store turns the id into a file name, so an id must
// not be able to leave the store's directory; both stores apply the same rule so a program that
// works in memory works on disk.

import { InvalidSessionIdError } from "./session-errors.js";

/** Long enough for any UUID or ULID with a prefix; file systems allow 255 bytes per name. */
export const MAX_SESSION_ID_LENGTH = 160;

/** Throws an InvalidSessionIdError unless `sessionId` is safe to name a transcript. */
export function assertValidSessionId(sessionId: unknown): asserts sessionId is string {
	if (typeof sessionId !== "string") {
		throw new InvalidSessionIdError(String(sessionId), "a session id must be a string");
	}
	if (sessionId.length === 0) throw new InvalidSessionIdError(sessionId, "a session id must not be empty");
	if (sessionId.length > MAX_SESSION_ID_LENGTH) {
		throw new InvalidSessionIdError(
			sessionId,
			`a session id has at most ${MAX_SESSION_ID_LENGTH} characters, this one has ${sessionId.length}`,
		);
	}
	if (sessionId === "." || sessionId === ".." || sessionId.includes("/") || sessionId.includes("\\")) {
		throw new InvalidSessionIdError(
			sessionId,
			"path separators and '.' / '..' are refused so a session cannot name a file outside the store's directory",
		);
	}
	// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
	if (/[\u0000-\u001f\u007f]/.test(sessionId)) {
		throw new InvalidSessionIdError(sessionId, "control characters are not allowed");
	}
}

// Refusing, before taking the write lock, to open a transcript another tool wrote as a session.
// A Keel transcript's first line is always its header (written with the session's creation), so
// only a damaged file or a foreign one starts otherwise: a line that parses without being a header
// is a version-0 line (Claude Code's shape); a first line refused for lacking `v` on a `session`
// record is the header of another tool's session file (see the interchange folder). A Keel
// transcript whose first line is merely damaged still opens (its damage is reported), as before.
import { ForeignTranscriptError } from "./session-errors.js";
import type { TranscriptStore } from "./session-types.js";

const STOP = Symbol("first record read");

export async function refuseForeignTranscript(store: TranscriptStore, sessionId: string): Promise<void> {
	let first: { type: unknown; line: number } | undefined;
	if (store.scan) {
		try {
			// Stops at the first readable record: for a Keel transcript, the header on line 1.
			await store.scan(sessionId, (record, line) => {
				first = { type: record.type, line };
				throw STOP;
			});
		} catch (error) {
			if (error !== STOP) throw error;
		}
	} else {
		const { records, problems } = await store.read(sessionId);
		const firstProblemLine = problems[0]?.line ?? Number.POSITIVE_INFINITY;
		if (records[0] !== undefined) first = { type: records[0].type, line: firstProblemLine === 1 ? 2 : 1 };
	}
	if (first?.line === 1) {
		if (first.type !== "session") throw new ForeignTranscriptError(sessionId, "claude-code");
		return;
	}
	// Line 1 could not be read as a record: damage, or another tool's header (a "session" line without "v").
	const { problems } = await store.read(sessionId);
	const lineOne = problems.find((problem) => problem.line === 1);
	if (lineOne !== undefined && /^line 1: v must be a number/.test(lineOne.message)) {
		throw new ForeignTranscriptError(sessionId, "pi");
	}
}

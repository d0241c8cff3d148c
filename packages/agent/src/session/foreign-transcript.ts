// Refusing, before taking the write lock, to open a transcript another tool wrote as a session.
// A Keel transcript's first line is always its header (written with the session's creation), so
// the check stops at the first record for every sound Keel transcript. Otherwise the whole file is
// read: it is foreign when no record of it is Keel's own — every readable line is of the version-0
// shape (Claude Code's lines), or its first line is a `session` record without `v` (the header of
// another tool's session file, see the interchange folder) — and a damaged Keel transcript (some
// records of its own survive) still opens with its damage reported, as before.
import { isVersion0Record } from "./record-migration.js";
import { ForeignTranscriptError } from "./session-errors.js";
import type { TranscriptStore } from "./session-types.js";

const STOP = Symbol("first record read");

export async function refuseForeignTranscript(store: TranscriptStore, sessionId: string): Promise<void> {
	if (store.scan) {
		let headerFirst = false;
		try {
			await store.scan(sessionId, (record, line) => {
				headerFirst = line === 1 && record.type === "session";
				throw STOP;
			});
		} catch (error) {
			if (error !== STOP) throw error;
		}
		if (headerFirst) return;
	}
	const { records, problems } = await store.read(sessionId);
	if (records.some((record) => !isVersion0Record(record))) return;
	const lineOne = problems.find((problem) => problem.line === 1);
	if (lineOne !== undefined && /^line 1: v must be a number/.test(lineOne.message)) {
		throw new ForeignTranscriptError(sessionId, "pi");
	}
	if (records.length > 0) throw new ForeignTranscriptError(sessionId, "claude-code");
}

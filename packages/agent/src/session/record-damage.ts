// What opening a damaged transcript found and how the parent chain was mended. A session is read so
// that damage never silently shortens the conversation: every readable message stays on its branch,
// and every line skipped or link changed is listed in `session.damage`, naming lines and ids.
//
// A transcript Keel writes always has a message's parent (and a leaf record's target) on an earlier
// line, and every id once. What breaks that — a line that could not be read, a hand edit, a copy
// cut in the middle — is mended by one rule: a message whose parent is not among the messages read
// before it follows the message that was the branch's end just before it (what the writer's parent
// was, unless a fork record was lost too); a leaf record naming no message read before it is
// ignored; a second message with an id already used gets a new id, and later lines naming that id
// mean the newer message. Parents can then only point backwards, so no parent chain loops.
import type { TranscriptReadProblem } from "./session-types.js";

/** One link of the parent chain that reading the transcript had to mend. */
export type SessionChainRepair =
	| {
			/** The message's parent was not read before it: a skipped line, a hand edit, or a parent written after its child (a loop). */
			kind: "missing-parent";
			/** The line of the message (1-based), when the store knows it. */
			line?: number;
			messageId: string;
			missingParentId: string;
			/** The message it now follows: the branch's end just before it (null: it starts a branch). */
			reconnectedTo: string | null;
			message: string;
	  }
	| {
			/** A leaf record named a message not read before it; the current branch stayed where it was. */
			kind: "missing-leaf";
			line?: number;
			missingLeafId: string;
			keptLeafId: string | null;
			message: string;
	  }
	| {
			/** A second message with an id already used: it keeps its place under a new id. */
			kind: "duplicate-id";
			line?: number;
			messageId: string;
			renamedTo: string;
			message: string;
	  };

/** Everything opening a session skipped or mended; both lists are empty for a sound transcript. */
export interface SessionDamage {
	/** Lines the store could not read (malformed, oversized, a torn last line): their records are missing. */
	skippedLines: readonly TranscriptReadProblem[];
	/** Links of the parent chain mended so that every readable message stays on its branch. */
	repairs: readonly SessionChainRepair[];
}

function atLine(line: number | undefined): string {
	return line === undefined ? "" : `line ${line}: `;
}

export function missingParentRepair(
	line: number | undefined,
	messageId: string,
	missingParentId: string,
	reconnectedTo: string | null,
): SessionChainRepair {
	const now =
		reconnectedTo === null
			? "it now starts a branch"
			: `it now follows ${JSON.stringify(reconnectedTo)}, the message before it`;
	return {
		kind: "missing-parent",
		line,
		messageId,
		missingParentId,
		reconnectedTo,
		message: `${atLine(line)}message ${JSON.stringify(messageId)} names parent ${JSON.stringify(missingParentId)}, which no earlier line holds (a skipped line, or a parent written after its child); ${now}`,
	};
}

export function missingLeafRepair(
	line: number | undefined,
	missingLeafId: string,
	keptLeafId: string | null,
): SessionChainRepair {
	return {
		kind: "missing-leaf",
		line,
		missingLeafId,
		keptLeafId,
		message: `${atLine(line)}leaf record names message ${JSON.stringify(missingLeafId)}, which no earlier line holds; the current branch stays at ${JSON.stringify(keptLeafId)}`,
	};
}

export function duplicateIdRepair(line: number | undefined, messageId: string, renamedTo: string): SessionChainRepair {
	return {
		kind: "duplicate-id",
		line,
		messageId,
		renamedTo,
		message: `${atLine(line)}message id ${JSON.stringify(messageId)} is used by an earlier line too; this message keeps its place as ${JSON.stringify(renamedTo)}, and later lines naming ${JSON.stringify(messageId)} mean it`,
	};
}

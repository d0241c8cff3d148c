// A Keel transcript read back for export: its header, title, state, every visible message with
// its visible parent, and the current branch.
import type { ParsedSessionRecord } from "../record-format.js";
import { isSideMessage, SessionTree } from "../session-tree.js";
import type { SessionHeaderRecord, SessionMessageRecord, SessionState } from "../session-types.js";
import { TranscriptInterchangeError } from "./transcript-lines.js";

export interface SessionOutline {
	header: SessionHeaderRecord;
	title?: string;
	state: SessionState;
	/** Every message a branch shows (progress, tombstones and tombstoned messages left out), in file order, parents mended past hidden ones. */
	messages: SessionMessageRecord[];
	/** The current branch, root first. */
	branch: SessionMessageRecord[];
	leafId: string | null;
}

export function outlineSession(records: readonly ParsedSessionRecord[], sessionId: string): SessionOutline {
	const tree = new SessionTree();
	let title: string | undefined;
	records.forEach((record, index) => {
		tree.add(record, index + 1);
		if (record.type === "title" && typeof (record as { title?: unknown }).title === "string")
			title = (record as { title: string }).title;
	});
	const header = tree.header;
	if (header === undefined) {
		throw new TranscriptInterchangeError(`Session ${sessionId} has no readable header: it is not a Keel transcript`);
	}
	const messages: SessionMessageRecord[] = [];
	for (const record of tree.messages.values()) {
		if (isSideMessage(record.message) || tree.tombstoned.has(record.id)) continue;
		messages.push({ ...record, parentId: tree.visibleAncestor(record.parentId) });
	}
	const leafId = tree.visibleAncestor(tree.leafId);
	const outline: SessionOutline = { header, state: tree.state, messages, branch: tree.branch(leafId), leafId };
	const finalTitle = title ?? header.title;
	if (finalTitle !== undefined) outline.title = finalTitle;
	return outline;
}

// Writing a Keel session as a pi session file (format version 3,
// https://github.com/earendil-works/pi/blob/main/packages/coding-agent/docs/session-format.md), so
// pi's session manager opens it: a header, then one entry per message with pi's `id` / `parentId`
// tree. Keel's message shapes are pi-ai's, so user, assistant, toolResult and system messages are
// written as they are; a Keel summary with its compact boundary becomes one `compaction` entry; a
// summary without a boundary a `branch_summary`; progress, tombstoned messages and Keel's own kinds
// that pi has no place for are left out. pi's leaf is the file's last entry, so when the current
// branch does not end at the last message, a `session_info` (the title) or `custom` entry is
// written after its leaf.
import type { ParsedSessionRecord } from "../record-format.js";
import type { CompactBoundaryMessage, SessionMessageRecord, SummaryMessage } from "../session-types.js";
import { outlineSession } from "./session-outline.js";

export interface PiExportOptions {
	/** The working directory pi records in the header. Default: the session state's, else "". */
	cwd?: string;
}

const PI_SESSION_VERSION = 3;

/** The records of a Keel transcript (as `store.read` returns them) as the text of a pi session file. */
export function keelSessionToPi(records: readonly ParsedSessionRecord[], options: PiExportOptions = {}): string {
	const sessionId = (records[0] as { sessionId?: string } | undefined)?.sessionId ?? "session";
	const outline = outlineSession(records, sessionId);
	const iso = (timestamp: number) => new Date(timestamp).toISOString();
	const lines: unknown[] = [
		{
			type: "session",
			version: PI_SESSION_VERSION,
			id: outline.header.sessionId,
			timestamp: iso(outline.header.timestamp),
			cwd: options.cwd ?? outline.state.workingDirectory ?? "",
		},
	];
	// Keel id → the pi entry that stands for it (a summary stands in through its boundary's entry).
	const entryOf = new Map<string, string | null>();
	const summaries = new Map<string, SessionMessageRecord>();
	const byId = new Map(outline.messages.map((record) => [record.id, record]));
	let lastEntryId: string | null = null;

	for (const record of outline.messages) {
		const parentId = record.parentId === null ? null : (entryOf.get(record.parentId) ?? null);
		const base = { id: record.id, parentId, timestamp: iso(record.timestamp) };
		const message = record.message as { role: string };
		switch (message.role) {
			case "user":
			case "assistant":
			case "toolResult":
			case "system":
				lines.push({ type: "message", ...base, message: record.message });
				break;
			case "attachment": {
				const content = (record.message as unknown as { content: unknown }).content;
				lines.push({ type: "custom_message", ...base, customType: "keel.attachment", content, display: true });
				break;
			}
			case "summary":
				// Written with its boundary when one follows it; alone, it summarises an abandoned branch.
				summaries.set(record.id, record);
				entryOf.set(record.id, parentId);
				continue;
			case "compact_boundary": {
				const boundary = record.message as unknown as CompactBoundaryMessage;
				const summary = summaries.get(boundary.summaryId) ?? byId.get(boundary.summaryId);
				summaries.delete(boundary.summaryId);
				const kept = boundary.firstKeptMessageId === undefined ? undefined : entryOf.get(boundary.firstKeptMessageId);
				lines.push({
					type: "compaction",
					...base,
					summary: (summary?.message as unknown as SummaryMessage | undefined)?.summary ?? "",
					// A retain-none compaction names itself (pi's rule).
					firstKeptEntryId: kept ?? record.id,
					tokensBefore: boundary.tokensBefore ?? 0,
				});
				break;
			}
			default:
				entryOf.set(record.id, parentId);
				continue;
		}
		entryOf.set(record.id, record.id);
		lastEntryId = record.id;
	}
	for (const summary of summaries.values()) {
		// A summary no boundary followed: pi's branch summary, placed where it stood.
		const parentId = summary.parentId === null ? null : (entryOf.get(summary.parentId) ?? null);
		lines.push({
			type: "branch_summary",
			id: summary.id,
			parentId,
			timestamp: iso(summary.timestamp),
			fromId: parentId ?? summary.id,
			summary: (summary.message as unknown as SummaryMessage).summary,
		});
		lastEntryId = summary.id;
	}
	const leaf = outline.leafId === null ? null : (entryOf.get(outline.leafId) ?? null);
	const timestamp = iso(outline.branch.at(-1)?.timestamp ?? outline.header.timestamp);
	if (outline.title !== undefined) {
		lines.push({
			type: "session_info",
			id: `${outline.header.sessionId}-title`,
			parentId: leaf,
			timestamp,
			name: outline.title,
		});
	} else if (leaf !== lastEntryId) {
		lines.push({
			type: "custom",
			id: `${outline.header.sessionId}-leaf`,
			parentId: leaf,
			timestamp,
			customType: "keel.leaf",
		});
	}
	return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}

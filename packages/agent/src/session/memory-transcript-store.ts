// The in-memory transcript store: for tests, and for programs that want sessions without a disk.
// Records are kept as their serialised lines, so what a reader gets back went through the same
// serialise → parse round trip as on disk (and later changes to an appended object do not leak in).

import { type ParsedSessionRecord, parseSessionRecords, serializeSessionRecord } from "./record-format.js";
import { SessionLockedError, SessionNotFoundError, SessionRecordError } from "./session-errors.js";
import { assertValidSessionId } from "./session-id.js";
import {
	assertValidListOptions,
	foldForSearch,
	pageSessionInfos,
	searchableText,
	titleMatches,
} from "./session-list.js";
import type {
	SessionHeaderRecord,
	SessionInfo,
	SessionMessageRecord,
	SessionRecord,
	TranscriptReadProblem,
	TranscriptReadResult,
	TranscriptStore,
	TranscriptTail,
	TranscriptWriter,
} from "./session-types.js";

interface StoredSession {
	header: SessionHeaderRecord;
	lines: string[];
	sizeBytes: number;
	title?: string;
	updatedAt: number;
	locked: boolean;
}

const encoder = new TextEncoder();

export function createMemoryTranscriptStore(): TranscriptStore {
	const sessions = new Map<string, StoredSession>();

	function find(sessionId: string): StoredSession {
		assertValidSessionId(sessionId);
		const session = sessions.get(sessionId);
		if (!session) throw new SessionNotFoundError(sessionId);
		return session;
	}

	function appendLine(session: StoredSession, record: SessionRecord, line = serializeSessionRecord(record)): void {
		session.lines.push(line);
		session.sizeBytes += encoder.encode(line).length + 1;
		session.updatedAt = Math.max(session.updatedAt, record.timestamp);
		if (record.type === "title") session.title = record.title;
	}

	function parseLines(
		lines: string[],
		firstLine: number,
		lineNumberOf: (index: number) => number,
	): TranscriptReadResult {
		const records: ParsedSessionRecord[] = [];
		const problems: TranscriptReadProblem[] = [];
		for (let index = 0; index < lines.length; index++) {
			const line = lineNumberOf(index + firstLine);
			try {
				records.push(...parseSessionRecords(lines[index], line));
			} catch (error) {
				problems.push({ line, kind: "malformed", message: (error as Error).message });
			}
		}
		return { records, problems };
	}

	return {
		async openWriter(sessionId, options) {
			assertValidSessionId(sessionId);
			let session = sessions.get(sessionId);
			if (!session) {
				const header = options?.create;
				if (!header) throw new SessionNotFoundError(sessionId);
				if (header.type !== "session" || header.sessionId !== sessionId) {
					throw new SessionRecordError(
						`the create header must be a "session" record with sessionId "${sessionId}", got type ${JSON.stringify(header.type)} and sessionId ${JSON.stringify(header.sessionId)}`,
					);
				}
				session = { header, lines: [], sizeBytes: 0, title: header.title, updatedAt: header.timestamp, locked: false };
				appendLine(session, header);
				sessions.set(sessionId, session);
			}
			if (session.locked) throw new SessionLockedError(sessionId);
			session.locked = true;
			const locked = session;
			let closed = false;
			const writer: TranscriptWriter = {
				sessionId,
				async append(records) {
					if (closed) throw new Error(`The writer of session "${sessionId}" is closed; open a new one to append.`);
					const batch = Array.isArray(records) ? records : [records];
					// Serialise the whole batch first: a record that cannot be written leaves none of it behind.
					const lines = batch.map(serializeSessionRecord);
					for (let index = 0; index < batch.length; index++) appendLine(locked, batch[index], lines[index]);
				},
				async flush() {},
				async close() {
					if (closed) return;
					closed = true;
					locked.locked = false;
				},
			};
			return writer;
		},

		async read(sessionId) {
			const session = find(sessionId);
			return parseLines(session.lines, 0, (index) => index + 1);
		},

		async scan(sessionId, visit) {
			const session = find(sessionId);
			const problems: TranscriptReadProblem[] = [];
			for (let index = 0; index < session.lines.length; index++) {
				let records: ParsedSessionRecord[];
				try {
					records = parseSessionRecords(session.lines[index], index + 1);
				} catch (error) {
					problems.push({ line: index + 1, kind: "malformed", message: (error as Error).message });
					continue;
				}
				for (const record of records) visit(record, index + 1);
			}
			return problems;
		},

		async readTail(sessionId, options) {
			const session = find(sessionId);
			const entries = Math.max(0, Math.floor(options.entries));
			const start = Math.max(0, session.lines.length - entries);
			const total = session.lines.length;
			const tail: TranscriptTail = parseLines(session.lines.slice(start), start, (index) => index - total);
			for (let index = total - 1; options.findLastSummary !== false && index >= 0; index--) {
				const line = session.lines[index];
				if (!line.includes('"summary"')) continue;
				try {
					const record = parseSessionRecords(line, index + 1).find(isSummaryRecord);
					if (record) {
						tail.lastSummary = record;
						break;
					}
				} catch {
					// A malformed line is reported by read(); the search for a summary just moves on.
				}
			}
			return tail;
		},

		async list(options) {
			assertValidListOptions(options);
			const search = options?.search ? foldForSearch(options.search) : undefined;
			const infos: SessionInfo[] = [];
			for (const [sessionId, session] of sessions) {
				if (search !== undefined && !sessionMatches(session, search)) continue;
				infos.push({
					sessionId,
					...(session.title !== undefined ? { title: session.title } : {}),
					createdAt: session.header.timestamp,
					updatedAt: session.updatedAt,
					sizeBytes: session.sizeBytes,
					...(session.header.parentSessionId !== undefined ? { parentSessionId: session.header.parentSessionId } : {}),
					...(session.header.parentMessageId !== undefined ? { parentMessageId: session.header.parentMessageId } : {}),
				});
			}
			return pageSessionInfos(infos, options);
		},

		async exists(sessionId) {
			assertValidSessionId(sessionId);
			return sessions.has(sessionId);
		},

		async delete(sessionId) {
			const session = find(sessionId);
			if (session.locked) throw new SessionLockedError(sessionId);
			sessions.delete(sessionId);
		},
	};
}

/** Whether the session's title or one of its messages' text contains `foldedSearch`. */
function sessionMatches(session: StoredSession, foldedSearch: string): boolean {
	if (titleMatches(session.title, foldedSearch)) return true;
	for (const line of session.lines) {
		try {
			for (const record of parseSessionRecords(line)) {
				if (foldForSearch(searchableText(record)).includes(foldedSearch)) return true;
			}
		} catch {
			// A damaged line has no text to search; read() reports it.
		}
	}
	return false;
}

export function isSummaryRecord(record: ParsedSessionRecord): record is SessionMessageRecord {
	return record.type === "message" && (record as SessionMessageRecord).message.role === "summary";
}

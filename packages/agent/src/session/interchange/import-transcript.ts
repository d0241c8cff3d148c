// Importing another tool's transcript into a store, and exporting a stored session. An import
// converts and validates everything first and writes only then, each session new: the source is
// only ever read, and bad input leaves nothing behind.
import { parseSessionRecords, serializeSessionRecord } from "../record-format.js";
import { SessionRecordError } from "../session-errors.js";
import type { TranscriptStore } from "../session-types.js";
import { keelSessionToClaudeCode } from "./claude-code-export.js";
import { type ClaudeCodeSidechainSource, convertClaudeCodeTranscript } from "./claude-code-import.js";
import { type ConvertedTranscript, convertedSessionRecords } from "./converted-session.js";
import { keelSessionToPi } from "./pi-export.js";
import { convertPiSession } from "./pi-import.js";
import {
	describeLine,
	detectTranscriptFormat,
	type ForeignTranscriptFormat,
	parseTranscriptLines,
	TranscriptInterchangeError,
} from "./transcript-lines.js";

export interface ImportTranscriptOptions {
	/** Default "auto": told apart by the first lines. */
	format?: "auto" | ForeignTranscriptFormat;
	/** The new session's id. Default: the source's own session id. */
	sessionId?: string;
	/** Claude Code: the session's sub-agent files (`<session>/subagents/agent-*.jsonl`). */
	sidechains?: readonly ClaudeCodeSidechainSource[];
	/** How errors name the source. Default: "the transcript". */
	source?: string;
}

export interface ImportedSessionSummary {
	sessionId: string;
	messageCount: number;
	parentMessageId?: string;
}

export interface TranscriptImportResult {
	format: ForeignTranscriptFormat;
	session: ImportedSessionSummary;
	sidechains: ImportedSessionSummary[];
	/** Source lines not imported as messages, by kind (nothing the model saw). */
	skipped: Record<string, number>;
}

/** Converts a pi or Claude Code transcript to Keel sessions without writing anything. */
export function convertTranscript(text: string, options: ImportTranscriptOptions = {}): ConvertedTranscript {
	const source = options.source ?? "the transcript";
	let format = options.format ?? "auto";
	if (format === "auto") {
		const lines = parseTranscriptLines(text, source);
		const detected = detectTranscriptFormat(lines);
		if (detected === "keel") {
			throw new TranscriptInterchangeError(
				`${source} is already a Keel transcript: copy it into the sessions directory instead of importing it`,
			);
		}
		if (detected === undefined) {
			throw new TranscriptInterchangeError(
				`${source} is neither a pi session nor a Claude Code transcript: it starts with ${describeLine(lines[0])}`,
			);
		}
		format = detected;
	}
	const common = { source, ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }) };
	return format === "pi"
		? convertPiSession(text, common)
		: convertClaudeCodeTranscript(text, {
				...common,
				...(options.sidechains ? { sidechains: options.sidechains } : {}),
			});
}

/**
 * Imports a pi or Claude Code transcript into `store` as new Keel sessions (the main one and, for
 * Claude Code, one sidechain per sub-agent). Throws a TranscriptInterchangeError — having written
 * nothing — when the text is neither format, a line is cut off or not JSON, a message cannot be
 * held by Keel, or a session of that id already exists.
 */
export async function importTranscript(
	store: TranscriptStore,
	text: string,
	options: ImportTranscriptOptions = {},
): Promise<TranscriptImportResult> {
	const converted = convertTranscript(text, options);
	const sessions = [converted.main, ...converted.sidechains];
	const recordsBySession = sessions.map((session) => {
		const records = convertedSessionRecords(session);
		// Read back as a Keel reader would, so nothing is written that Keel could not open.
		records.forEach((record, index) => {
			try {
				parseSessionRecords(serializeSessionRecord(record));
			} catch (error) {
				const reason = error instanceof SessionRecordError ? error.message : String(error);
				const id = (record as { id?: string }).id;
				throw new TranscriptInterchangeError(
					`${options.source ?? "the transcript"}: ${id === undefined ? `record ${index + 1}` : `message "${id}"`} of session ${session.sessionId} cannot be held by Keel (${reason}); nothing was imported`,
				);
			}
		});
		return records;
	});
	for (const session of sessions) {
		if (await store.exists(session.sessionId)) {
			throw new TranscriptInterchangeError(
				`A session "${session.sessionId}" already exists (imported before?); import it under another session id (the sessionId option, or --session-id of keel sessions import). Nothing was imported`,
			);
		}
	}
	for (const records of recordsBySession) {
		const [header, ...rest] = records;
		const writer = await store.openWriter(header.sessionId, { create: header as never });
		try {
			if (rest.length > 0) await writer.append(rest);
		} finally {
			await writer.close();
		}
	}
	const summary = (session: ConvertedTranscript["main"]): ImportedSessionSummary => ({
		sessionId: session.sessionId,
		messageCount: session.messages.length,
		...(session.parentMessageId === undefined ? {} : { parentMessageId: session.parentMessageId }),
	});
	return {
		format: converted.format,
		session: summary(converted.main),
		sidechains: converted.sidechains.map(summary),
		skipped: converted.skipped,
	};
}

export type SessionExportFormat = "keel" | ForeignTranscriptFormat;

/**
 * A stored session as the text of a transcript file: Keel's own JSONL (`"keel"`), a pi session
 * file (`"pi"`, every branch) or a Claude Code transcript (`"claude-code"`, the current branch).
 */
export async function exportSession(
	store: TranscriptStore,
	sessionId: string,
	format: SessionExportFormat,
	options: { cwd?: string } = {},
): Promise<string> {
	const { records } = await store.read(sessionId);
	switch (format) {
		case "keel":
			return records.map((record) => `${JSON.stringify(record)}\n`).join("");
		case "pi":
			return keelSessionToPi(records, options);
		case "claude-code":
			return keelSessionToClaudeCode(records, options);
		default:
			throw new TranscriptInterchangeError(
				`Unknown export format "${String(format)}": expected keel, pi or claude-code`,
			);
	}
}

// Moving sessions between Keel and other tools' transcript files: pi's session files and Claude
// Code's transcripts, imported into new Keel sessions and exported from them.
export { type ClaudeCodeExportOptions, keelSessionToClaudeCode } from "./claude-code-export.js";
export {
	type ClaudeCodeImportOptions,
	type ClaudeCodeSidechainSource,
	convertClaudeCodeTranscript,
} from "./claude-code-import.js";
export type { ConvertedMessage, ConvertedSession, ConvertedTranscript } from "./converted-session.js";
export {
	convertTranscript,
	exportSession,
	type ImportedSessionSummary,
	type ImportTranscriptOptions,
	importTranscript,
	type SessionExportFormat,
	type TranscriptImportResult,
} from "./import-transcript.js";
export { keelSessionToPi, type PiExportOptions } from "./pi-export.js";
export { convertPiSession, type PiImportOptions } from "./pi-import.js";
export {
	detectTranscriptFormat,
	type ForeignTranscriptFormat,
	parseTranscriptLines,
	TranscriptInterchangeError,
} from "./transcript-lines.js";

// @keel/agent-core/session/jsonl: the JSONL file transcript store. Node only (node:fs), so it has its
// own entry and the browser-safe entries never import it. It also holds the writer-lease helpers the
// database stores (@keel/session-sqlite, @keel/session-postgres) share.

export { DEFAULT_BLOB_THRESHOLD_BYTES } from "./blob-files.js";
export {
	createJsonlTranscriptStore,
	DEFAULT_MAX_LINE_BYTES,
	type JsonlTranscriptStore,
	type JsonlTranscriptStoreOptions,
	type TranscriptRecordVisitor,
} from "./jsonl-transcript-store.js";
export type { JsonlDurability, JsonlTranscriptWriter } from "./jsonl-transcript-writer.js";
export { sessionIdFromFileName, transcriptFileName } from "./session-file-names.js";
export {
	describeThisWriter,
	isLeaseLive,
	isWriterGone,
	parseWriterHolder,
	type WriterHolder,
} from "./writer-holder.js";

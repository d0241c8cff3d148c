// How the conformance suite's child process opens a JSONL store: the spec is its directory.
import { createJsonlTranscriptStore, type JsonlTranscriptStore } from "../src/session/jsonl/index.js";

export async function openStore(directory: string): Promise<JsonlTranscriptStore> {
	return createJsonlTranscriptStore({ directory });
}

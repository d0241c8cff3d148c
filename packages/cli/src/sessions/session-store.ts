// The store the CLI's sessions live in: the JSONL transcript store of @keel/agent-core, one file
// per session under $KEEL_HOME/sessions (default ~/.keel/sessions).
import type { TranscriptStore } from "@keel/agent-core/session";
import { createJsonlTranscriptStore } from "@keel/agent-core/session/jsonl";
import { sessionsDirectory } from "./keel-home.js";

export function openSessionStore(env: Record<string, string | undefined>): TranscriptStore {
	return createJsonlTranscriptStore({ directory: sessionsDirectory(env) });
}

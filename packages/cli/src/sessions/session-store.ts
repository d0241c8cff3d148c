// The store the CLI's sessions live in: JSONL files under $KEEL_HOME/sessions.
import type { TranscriptStore } from "@keel/agent-core/session";
import { JsonlDirectoryStore } from "./jsonl-directory-store.js";
import { sessionsDirectory } from "./keel-home.js";

export function openSessionStore(env: Record<string, string | undefined>): TranscriptStore {
	return new JsonlDirectoryStore(sessionsDirectory(env));
}

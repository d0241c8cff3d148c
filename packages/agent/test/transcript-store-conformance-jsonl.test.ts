// The store contract held by the JSONL file store: damage is a line rewritten in the file, and the
// crash case kills a real writing process.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";
import { describeTranscriptStoreConformance } from "./transcript-store-conformance.js";

let directory: string | undefined;

describeTranscriptStoreConformance("JSONL", {
	async open() {
		directory = mkdtempSync(join(tmpdir(), "keel-store-conformance-"));
		const root = directory;
		return {
			store: createJsonlTranscriptStore({ directory: root }),
			childSpec: root,
			async damageRecord(sessionId, lineNumber, text) {
				const path = join(root, `${sessionId}.jsonl`);
				const lines = readFileSync(path, "utf8").split("\n");
				lines[lineNumber - 1] = text;
				writeFileSync(path, lines.join("\n"));
			},
		};
	},
	async cleanup() {
		if (directory) rmSync(directory, { recursive: true, force: true });
		directory = undefined;
	},
	childStoreModule: fileURLToPath(new URL("./transcript-store-jsonl-child-store.ts", import.meta.url)),
	childTsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)),
});

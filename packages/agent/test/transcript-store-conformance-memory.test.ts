// The store contract held by the in-memory store (no damage or crash cases: it lives in one process).
import { createMemoryTranscriptStore } from "../src/session/index.js";
import { describeTranscriptStoreConformance } from "./transcript-store-conformance.js";

describeTranscriptStoreConformance("in-memory", {
	async open() {
		return { store: createMemoryTranscriptStore() };
	},
	async cleanup() {},
});

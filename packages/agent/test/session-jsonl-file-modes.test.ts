// Transcripts are kept like credentials: files 0600 in a 0700 directory, and wider modes left by an
// older version or by hand are tightened when a writer opens the session.
import {
	appendFileSync,
	chmodSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	rmSync,
	statSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";
import { header, userRecord } from "./session-fixtures.js";

let root: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "keel-session-modes-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function modeOf(path: string): string {
	return (statSync(path).mode & 0o777).toString(8);
}

describe.skipIf(process.platform === "win32")("JSONL transcript file modes", () => {
	it("creates the session directories 0700 and the transcript, its title and its lock 0600", async () => {
		const directory = join(root, "nested", "sessions");
		const store = createJsonlTranscriptStore({ directory });
		const writer = await store.openWriter("s1", { create: header("s1", { title: "private" }) });
		expect(modeOf(join(directory, "s1.jsonl.lock"))).toBe("600");
		await writer.append(userRecord("s1", "u1", null, "a secret pasted here"));
		await writer.close();
		expect(modeOf(join(root, "nested"))).toBe("700");
		expect(modeOf(directory)).toBe("700");
		expect(modeOf(join(directory, "s1.jsonl"))).toBe("600");
		expect(modeOf(join(directory, "s1.jsonl.title"))).toBe("600");
	});

	it("tightens an existing 0755 directory and 0644 transcript and title when a writer opens it", async () => {
		const directory = join(root, "sessions");
		mkdirSync(directory, { mode: 0o755 });
		chmodSync(directory, 0o755);
		const path = join(directory, "s1.jsonl");
		writeFileSync(path, `${JSON.stringify(header("s1"))}\n`, { mode: 0o644 });
		chmodSync(path, 0o644);
		writeFileSync(`${path}.title`, JSON.stringify({ title: "private", timestamp: 1 }), { mode: 0o644 });
		chmodSync(`${path}.title`, 0o644);
		const store = createJsonlTranscriptStore({ directory });
		const writer = await store.openWriter("s1");
		await writer.append(userRecord("s1", "u1", null, "hello"));
		await writer.close();
		expect(modeOf(directory)).toBe("700");
		expect(modeOf(path)).toBe("600");
		expect(modeOf(`${path}.title`)).toBe("600");
	});

	it("sets a torn last line aside in a 0600 file", async () => {
		const directory = join(root, "sessions");
		const store = createJsonlTranscriptStore({ directory });
		await (await store.openWriter("s1", { create: header("s1") })).close();
		appendFileSync(join(directory, "s1.jsonl"), '{"v":1,"type":"message","cut');
		const writer = await store.openWriter("s1");
		expect(writer.problems).toEqual([expect.objectContaining({ kind: "torn-last-line" })]);
		await writer.close();
		const aside = readdirSync(directory).filter((name) => name.includes(".torn-"));
		expect(aside).toHaveLength(1);
		expect(modeOf(join(directory, aside[0]))).toBe("600");
	});

	it("opening a session that does not exist creates no directory", async () => {
		const store = createJsonlTranscriptStore({ directory: join(root, "absent") });
		await expect(store.openWriter("s1")).rejects.toThrow();
		expect(readdirSync(root)).toEqual([]);
	});
});

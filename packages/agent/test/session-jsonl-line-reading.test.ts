import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readLinesBackward } from "../src/session/jsonl/read-lines-backward.js";
import { readLinesForward } from "../src/session/jsonl/read-lines-forward.js";
import type { TranscriptReadProblem } from "../src/session/session-types.js";

const directory = mkdtempSync(join(tmpdir(), "keel-lines-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A deterministic pseudo-random sequence, so a failure reproduces. */
function random(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
		return state / 2 ** 31;
	};
}

function randomLines(next: () => number, count: number): string[] {
	return Array.from({ length: count }, (_, index) => `${index}:${"é✓ab".repeat(Math.floor(next() * 12))}`);
}

async function readBoth(path: string, maxLineBytes: number, chunkBytes: number) {
	const handle = await open(path, "r");
	try {
		const { size } = await handle.stat();
		const forward: string[] = [];
		const forwardProblems: TranscriptReadProblem[] = [];
		await readLinesForward(
			handle,
			{ maxLineBytes, endOffset: size, chunkBytes },
			(text) => {
				forward.push(text);
				return true;
			},
			(problem) => forwardProblems.push(problem),
		);
		const backward: string[] = [];
		const backwardProblems: TranscriptReadProblem[] = [];
		await readLinesBackward(
			handle,
			{ maxLineBytes, endOffset: size, blockBytes: chunkBytes },
			(bytes) => {
				backward.unshift(bytes.toString("utf8"));
				return true;
			},
			(problem) => backwardProblems.push(problem),
		);
		return { forward, forwardProblems, backward, backwardProblems };
	} finally {
		await handle.close();
	}
}

describe("reading lines in chunks", () => {
	it("gives the same lines as splitting the whole file, forwards and backwards, for any chunk size", async () => {
		const next = random(7);
		for (let round = 0; round < 40; round++) {
			const lines = randomLines(next, 1 + Math.floor(next() * 30));
			const path = join(directory, `round-${round}.jsonl`);
			writeFileSync(path, `${lines.join("\n")}\n`);
			const chunkBytes = 1 + Math.floor(next() * 64);
			const { forward, forwardProblems, backward, backwardProblems } = await readBoth(path, 1_000, chunkBytes);
			expect(forward, `chunk ${chunkBytes}`).toEqual(lines);
			expect(backward, `chunk ${chunkBytes}`).toEqual(lines);
			expect([...forwardProblems, ...backwardProblems]).toEqual([]);
		}
	});

	it("skips lines over the limit, whichever chunks they span, and numbers them", async () => {
		const path = join(directory, "oversized.jsonl");
		writeFileSync(path, ["short", "x".repeat(50), "also short", "y".repeat(21), "end"].join("\n").concat("\n"));
		for (const chunkBytes of [3, 8, 20, 64, 4096]) {
			const { forward, forwardProblems, backward, backwardProblems } = await readBoth(path, 20, chunkBytes);
			expect(forward).toEqual(["short", "also short", "end"]);
			expect(backward).toEqual(["short", "also short", "end"]);
			expect(forwardProblems.map((problem) => [problem.line, problem.kind, problem.byteOffset])).toEqual([
				[2, "oversized", 6],
				[4, "oversized", 68],
			]);
			expect(backwardProblems.map((problem) => [problem.line, problem.kind, problem.byteOffset])).toEqual([
				[-2, "oversized", 68],
				[-4, "oversized", 6],
			]);
		}
	});

	it("reports a last line without its newline as torn in both directions, even when it is huge", async () => {
		const path = join(directory, "torn.jsonl");
		writeFileSync(path, `one\ntwo\n${"z".repeat(500)}`);
		for (const chunkBytes of [4, 64, 4096]) {
			const { forward, forwardProblems, backward, backwardProblems } = await readBoth(path, 100, chunkBytes);
			expect(forward).toEqual(["one", "two"]);
			expect(backward).toEqual(["one", "two"]);
			expect(forwardProblems.map((problem) => [problem.line, problem.kind])).toEqual([[3, "torn-last-line"]]);
			expect(backwardProblems.map((problem) => [problem.line, problem.kind])).toEqual([[-1, "torn-last-line"]]);
		}
	});

	it("handles an empty file and a file of one line without a newline", async () => {
		const empty = join(directory, "empty.jsonl");
		writeFileSync(empty, "");
		expect(await readBoth(empty, 10, 4)).toEqual({
			forward: [],
			forwardProblems: [],
			backward: [],
			backwardProblems: [],
		});
		const single = join(directory, "single.jsonl");
		writeFileSync(single, "partial");
		const result = await readBoth(single, 10, 4);
		expect(result.forward).toEqual([]);
		expect(result.forwardProblems[0]).toMatchObject({ line: 1, kind: "torn-last-line", byteOffset: 0 });
		expect(result.backwardProblems[0]).toMatchObject({ line: -1, kind: "torn-last-line", byteOffset: 0 });
	});
});

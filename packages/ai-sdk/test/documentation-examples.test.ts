// Runs every TypeScript block of docs/ai-sdk.md as a program (they are written to run offline on
// the faux provider and the wire-test server) and checks what each one prints.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";

const page = fileURLToPath(new URL("../../../docs/ai-sdk.md", import.meta.url));
const directory = fileURLToPath(new URL("./.doc-examples/", import.meta.url));

function typescriptBlocks(markdown: string): { line: number; code: string }[] {
	const blocks: { line: number; code: string }[] = [];
	const lines = markdown.split("\n");
	for (let index = 0; index < lines.length; index++) {
		if (lines[index].trim() !== "```ts") continue;
		const start = index;
		const code: string[] = [];
		while (++index < lines.length && lines[index].trim() !== "```") code.push(lines[index]);
		blocks.push({ line: start + 1, code: code.join("\n") });
	}
	return blocks;
}

const blocks = typescriptBlocks(readFileSync(page, "utf8"));
// What each block prints, in the order of the page.
const expectedOutput: RegExp[] = [
	/Hello from Keel\. \d+ \{[^}]*total/s,
	/"?from the backup"? "?backup"?/,
	/text\/event-stream true/,
	/user,assistant,toolResult,assistant/,
];

mkdirSync(directory, { recursive: true });
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("docs/ai-sdk.md's examples run", () => {
	it("has one expectation per block", () => {
		expect(blocks).toHaveLength(expectedOutput.length);
	});

	blocks.forEach((block, index) => {
		it(`docs/ai-sdk.md:${block.line} runs and prints what the page says`, async () => {
			const path = `${directory}example-${block.line}.ts`;
			writeFileSync(path, block.code);
			const printed: string[] = [];
			const log = vi.spyOn(console, "log").mockImplementation((...values: unknown[]) => {
				printed.push(values.map((value) => (typeof value === "string" ? value : JSON.stringify(value))).join(" "));
			});
			const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
			try {
				await import(/* @vite-ignore */ path);
			} finally {
				log.mockRestore();
				write.mockRestore();
			}
			expect(printed.join("\n").replaceAll('"', "")).toMatch(expectedOutput[index]);
		});
	});
});

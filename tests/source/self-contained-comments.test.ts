// Source comments give their own reasons: they do not justify code by what another project does, or
// by another repository's issue numbers, which a reader cannot check from here. The proxy's comments
// may name the pi proxy protocol: it is a wire protocol Keel speaks, stated as a fact about it; the
// session interchange's may name pi's session file format, which it reads and writes.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const SOURCE_DIRECTORIES = ["packages/ai/src", "packages/agent/src", "packages/proxy/src"].map((directory) =>
	join(ROOT, directory),
);
const PROTOCOL_NOTES = /packages\/proxy\/src\/|packages\/agent\/src\/session\/interchange\//;

function sourceFiles(directory: string): string[] {
	return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
		const path = join(directory, entry.name);
		if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(path);
		return entry.name.endsWith(".ts") && !entry.name.endsWith(".generated.ts") ? [path] : [];
	});
}

/** Lines of `//` and `/* … *\/` comments (their text only). */
function commentLines(text: string): string[] {
	const comments = text.match(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g) ?? [];
	return comments.flatMap((comment) => comment.split("\n"));
}

describe("source comments", () => {
	const files = SOURCE_DIRECTORIES.flatMap(sourceFiles).map((path) => relative(ROOT, path));

	it("cite no other project's behaviour", () => {
		const citing = files
			.filter((file) => !PROTOCOL_NOTES.test(file))
			.flatMap((file) =>
				commentLines(readFileSync(join(ROOT, file), "utf8"))
					.filter((line) => /\bpi\b|\bpi's\b|pi-ai\b|pi-agent/.test(line))
					.map((line) => `${file}: ${line.trim()}`),
			);
		expect(citing).toEqual([]);
	});

	it("cite no issue numbers of other repositories", () => {
		const citing = files.flatMap((file) =>
			commentLines(readFileSync(join(ROOT, file), "utf8"))
				.filter((line) => /\bissues? #\d+|#\d{4,}/.test(line))
				.map((line) => `${file}: ${line.trim()}`),
		);
		expect(citing).toEqual([]);
	});
});

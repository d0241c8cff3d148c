// Every TypeScript block in README.md, docs/*.md and the packages' READMEs, and every program in
// examples/, compiles under `strict` against the built packages, as a user who copies it would
// compile it. One case per block, named `<file>:<line of the fence>`; a failure lists TypeScript's
// errors with their Markdown line. The markers a block may carry are described in extract-snippets.ts.
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compileSnippets } from "./compile-snippets.js";
import { extractSnippets, extractSnippetsFromFile, wholeFileSnippet } from "./extract-snippets.js";

const repositoryRoot = fileURLToPath(new URL("../..", import.meta.url));

function documentationFiles(): string[] {
	const files = [join(repositoryRoot, "README.md")];
	const docs = join(repositoryRoot, "docs");
	if (existsSync(docs)) files.push(...markdownIn(docs));
	const packages = join(repositoryRoot, "packages");
	for (const name of readdirSync(packages).sort()) {
		const readme = join(packages, name, "README.md");
		if (existsSync(readme)) files.push(readme);
	}
	return files;
}

function markdownIn(directory: string): string[] {
	return readdirSync(directory)
		.filter((name) => name.endsWith(".md"))
		.sort()
		.map((name) => join(directory, name));
}

function examplePrograms(): string[] {
	const examples = join(repositoryRoot, "examples");
	if (!existsSync(examples)) return [];
	return readdirSync(examples)
		.filter((name) => name.endsWith(".ts"))
		.sort()
		.map((name) => join(examples, name));
}

const relativeName = (path: string) => relative(repositoryRoot, path).split("\\").join("/");

const snippets = documentationFiles().flatMap((path) => extractSnippetsFromFile(path, relativeName(path)));
const examples = examplePrograms().map((path) => wholeFileSnippet(path, relativeName(path)));
if (!existsSync(join(repositoryRoot, "packages/ai/dist/types/index.d.ts")))
	throw new Error("The packages are not built: run `pnpm build` first (the snippets compile against dist).");
const diagnostics = compileSnippets(
	[...snippets.filter((snippet) => snippet.notCompiled === undefined), ...examples],
	repositoryRoot,
);

describe("documentation snippets compile under tsc --strict", () => {
	it("finds the README's snippets", () => {
		expect(snippets.filter((snippet) => snippet.file === "README.md").length).toBeGreaterThanOrEqual(3);
	});

	for (const snippet of snippets) {
		const name = `${snippet.file}:${snippet.line}`;
		const errors = diagnostics.get(snippet) ?? [];
		if (snippet.notCompiled !== undefined) it.skip(`${name} (not compiled: ${snippet.notCompiled})`, () => {});
		else
			it(name, () => {
				expect(errors.join("\n"), "TypeScript errors in this snippet").toBe("");
			});
	}
});

describe("the example programs compile under tsc --strict", () => {
	for (const example of examples) {
		it(example.file, () => {
			expect(diagnostics.get(example)?.join("\n"), "TypeScript errors in this example").toBe("");
		});
	}
});

describe("snippet extraction", () => {
	it("reads preludes, reasons for not compiling, and blocks indented in lists", () => {
		const markdown = [
			"Text.",
			"<!-- snippet-prelude: declare const a: number; -->",
			"",
			"```ts",
			"a + 1;",
			"```",
			"- item",
			"",
			"  <!-- not-compiled: pseudo-code -->",
			"  ```typescript",
			"  not code",
			"  ```",
			"```sh",
			"ls",
			"```",
		].join("\n");
		expect(extractSnippets(markdown, "x.md")).toEqual([
			{ file: "x.md", line: 4, code: "a + 1;", prelude: "declare const a: number;" },
			{ file: "x.md", line: 10, code: "not code", prelude: "", notCompiled: "pseudo-code" },
		]);
	});

	it("rejects a not-compiled marker without a reason", () => {
		expect(() => extractSnippets("<!-- not-compiled: -->\n```ts\nx\n```", "y.md")).toThrow(
			'y.md:2: "not-compiled" needs a reason',
		);
	});
});

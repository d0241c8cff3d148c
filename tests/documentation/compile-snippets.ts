// Type-checks documentation snippets the way a user's project would: each one a module in a
// stand-in project (snippet-directory.ts), so the `@keel/*` imports resolve to the built `.d.ts`
// files, under `strict` with NodeNext modules. All snippets share one TypeScript program, so the
// whole documentation checks in one pass.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import type { Snippet } from "./extract-snippets.js";
import { createSnippetDirectory } from "./snippet-directory.js";

export const COMPILER_OPTIONS: ts.CompilerOptions = {
	strict: true,
	target: ts.ScriptTarget.ES2022,
	module: ts.ModuleKind.NodeNext,
	moduleResolution: ts.ModuleResolutionKind.NodeNext,
	moduleDetection: ts.ModuleDetectionKind.Force,
	lib: ["lib.es2022.d.ts"],
	types: ["node"],
	skipLibCheck: true,
	noEmit: true,
};

/** Compiles every snippet; returns the diagnostics of each snippet, located as `file:line` in its Markdown. */
export function compileSnippets(snippets: Snippet[], repositoryRoot: string): Map<Snippet, string[]> {
	const project = createSnippetDirectory(repositoryRoot);
	const directory = project.path;
	try {
		mkdirSync(join(directory, "snippets"));
		const fileOf = new Map<Snippet, string>();
		snippets.forEach((snippet, index) => {
			const path = join(directory, "snippets", `snippet-${index}.ts`);
			writeFileSync(path, moduleText(snippet));
			fileOf.set(snippet, path);
		});
		const program = ts.createProgram([...fileOf.values()], COMPILER_OPTIONS);
		const results = new Map<Snippet, string[]>();
		for (const [snippet, path] of fileOf) {
			const sourceFile = program.getSourceFile(path);
			const diagnostics = sourceFile ? ts.getPreEmitDiagnostics(program, sourceFile) : [];
			results.set(
				snippet,
				diagnostics.map((diagnostic) => describeDiagnostic(diagnostic, snippet)),
			);
		}
		const global = program.getGlobalDiagnostics().map((diagnostic) => describeDiagnostic(diagnostic));
		if (global.length > 0) throw new Error(`The snippet program itself does not compile:\n${global.join("\n")}`);
		return results;
	} finally {
		project.remove();
	}
}

function moduleText(snippet: Snippet): string {
	return snippet.prelude === "" ? snippet.code : `${snippet.prelude}\n${snippet.code}`;
}

/** One diagnostic as `README.md:52: TS2345 …`, its line mapped back into the Markdown file. */
function describeDiagnostic(diagnostic: ts.Diagnostic, snippet?: Snippet): string {
	const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
	if (!snippet || !diagnostic.file || diagnostic.start === undefined) return `TS${diagnostic.code}: ${text}`;
	const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
	const preludeLines = snippet.prelude === "" ? 0 : snippet.prelude.split("\n").length;
	const where =
		line < preludeLines
			? `${snippet.file}:${snippet.line} (prelude line ${line + 1})`
			: `${snippet.file}:${snippet.line + 1 + line - preludeLines}`;
	return `${where}: TS${diagnostic.code}: ${text}`;
}

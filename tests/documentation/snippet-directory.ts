// A directory that stands in for a user's project: `"type": "module"` and the repository's
// node_modules, so `@keel/ai`, its subpaths and `@keel/agent-core` resolve through the packages'
// `exports` to the built files, as they would after `npm install`.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface SnippetDirectory {
	path: string;
	remove(): void;
}

export function createSnippetDirectory(repositoryRoot: string): SnippetDirectory {
	const path = mkdtempSync(join(tmpdir(), "keel-snippets-"));
	symlinkSync(join(repositoryRoot, "node_modules"), join(path, "node_modules"), "dir");
	writeFileSync(join(path, "package.json"), JSON.stringify({ type: "module", private: true }));
	return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

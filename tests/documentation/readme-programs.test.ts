// The README's two programs, run as a newcomer runs them before setting a key: the failed call must
// be printed on stderr and the process must exit with a non-zero code (a program that prints
// nothing and exits 0 on a missing key looks as if it worked). No key means no request is sent.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { extractSnippetsFromFile } from "./extract-snippets.js";
import { createSnippetDirectory } from "./snippet-directory.js";

const repositoryRoot = fileURLToPath(new URL("../..", import.meta.url));
const readmeSnippets = extractSnippetsFromFile(join(repositoryRoot, "README.md"), "README.md");
const project = createSnippetDirectory(repositoryRoot);
afterAll(() => project.remove());

const programs = [
	{
		name: "the @keel/ai program",
		marker: 'getModel("anthropic", "claude-sonnet-4-6"); // Model<"anthropic-messages">',
	},
	{ name: "the @keel/agent-core program", marker: "new Agent(" },
];

/** The environment without any Anthropic credential, so the call fails before any request. */
function environmentWithoutAnthropicKey(): NodeJS.ProcessEnv {
	const { ANTHROPIC_API_KEY, ANTHROPIC_OAUTH_TOKEN, ...rest } = process.env;
	return rest;
}

describe("the README's programs report a failed call", () => {
	for (const { name, marker } of programs) {
		it(`${name} prints the missing-key error and exits 1`, () => {
			const snippet = readmeSnippets.find((candidate) => candidate.code.includes(marker));
			if (!snippet) throw new Error(`README.md has no TypeScript block containing "${marker}"`);
			const path = join(project.path, `readme-${snippet.line}.ts`);
			writeFileSync(path, snippet.code);
			const run = spawnSync(process.execPath, ["--import", "tsx", path], {
				cwd: project.path,
				env: environmentWithoutAnthropicKey(),
				encoding: "utf8",
				timeout: 60_000,
			});
			expect(run.stderr).toContain('No API key for provider "anthropic"');
			expect(run.stderr).not.toContain("undefined");
			expect(run.status).toBe(1);
		});
	}
});

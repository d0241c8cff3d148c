// Every TypeScript block of README.md and docs/*.md runs as a program, twice, with the faux provider
// behind every API (harness/substitute-providers.mjs) and no network:
// - every call answers: the program exits 0;
// - every call fails (as a rejected key would): a program that made a call exits non-zero or
//   prints the error, so no example looks as if it worked when it did not.
// A block marked `not-run` (with its reason) is only compiled (snippets.test.ts); a block whose
// prelude declares values gets them from its `snippet-run-prelude` (see extract-snippets.ts).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { extractSnippetsFromFile, type Snippet } from "./extract-snippets.js";
import { createSnippetDirectory } from "./snippet-directory.js";

const repositoryRoot = fileURLToPath(new URL("../..", import.meta.url));
const harness = pathToFileURL(join(repositoryRoot, "tests/documentation/harness/substitute-providers.mjs")).href;
const FAILURE_TEXT = "401 invalid x-api-key (documentation test: every call fails)";

const files = [
	"README.md",
	...readdirSync(join(repositoryRoot, "docs"))
		.filter((name) => name.endsWith(".md"))
		.sort()
		.map((name) => `docs/${name}`),
];
const snippets = files.flatMap((file) => extractSnippetsFromFile(join(repositoryRoot, file), file));
// KEEL_DOCS_ONLY=docs/sessions.md runs the examples of the files whose name contains it.
const only = process.env.KEEL_DOCS_ONLY;
const runnable = snippets.filter((snippet) => snippet.notCompiled === undefined && snippet.notRun === undefined);

if (!existsSync(join(repositoryRoot, "packages/ai/dist/index.js")))
	throw new Error("The packages are not built: run `pnpm build` first (the examples run against dist).");
const project = createSnippetDirectory(repositoryRoot);
afterAll(() => project.remove());

/** The environment of a run: no real key, a home of its own, placeholder keys for the usual providers. */
function environment(home: string, outcome: "success" | "failure", callsFile: string): NodeJS.ProcessEnv {
	const kept = Object.fromEntries(
		Object.entries(process.env).filter(
			([name]) => !/KEY|TOKEN|SECRET|CREDENTIALS|AWS_|GOOGLE_|AZURE_|KEEL_/.test(name),
		),
	);
	return {
		...kept,
		HOME: home,
		KEEL_HOME: join(home, ".keel"),
		KEEL_DOCS_OUTCOME: outcome,
		KEEL_DOCS_CALLS_FILE: callsFile,
		ANTHROPIC_API_KEY: "docs-test-key",
		OPENAI_API_KEY: "docs-test-key",
		GEMINI_API_KEY: "docs-test-key",
		MISTRAL_API_KEY: "docs-test-key",
		GROQ_API_KEY: "docs-test-key",
		AZURE_OPENAI_API_KEY: "docs-test-key",
		AZURE_OPENAI_RESOURCE_NAME: "docs-test",
	};
}

interface Run {
	status: number | null;
	output: string;
	calls: number;
}

function runSnippet(snippet: Snippet, outcome: "success" | "failure"): Promise<Run> {
	const name = `${snippet.file.replace(/[/.]/g, "-")}-${snippet.line}-${outcome}`;
	const directory = join(project.path, name);
	mkdirSync(directory, { recursive: true });
	const program = join(directory, "example.ts");
	const prelude = snippet.runPrelude ?? snippet.prelude;
	writeFileSync(program, prelude === "" ? snippet.code : `${prelude}\n${snippet.code}`);
	const callsFile = join(directory, "calls.txt");
	return new Promise((resolve) => {
		const child = spawn(process.execPath, ["--import", "tsx", "--import", harness, program], {
			cwd: directory,
			env: environment(directory, outcome, callsFile),
			stdio: ["ignore", "pipe", "pipe"],
			timeout: 60_000,
		});
		let output = "";
		child.stdout.on("data", (chunk) => (output += chunk));
		child.stderr.on("data", (chunk) => (output += chunk));
		child.on("close", (status) => {
			const calls = existsSync(callsFile) ? Number(readFileSync(callsFile, "utf8")) : 0;
			resolve({ status, output, calls });
		});
	});
}

/** At most two programs at a time: each is a Node process with TypeScript compiled on load. */
let running = 0;
const waiting: (() => void)[] = [];
async function limited<T>(task: () => Promise<T>): Promise<T> {
	if (running >= 2) await new Promise<void>((resolve) => waiting.push(resolve));
	running++;
	try {
		return await task();
	} finally {
		running--;
		waiting.shift()?.();
	}
}

describe("documentation examples run", () => {
	it("finds examples to run in the README and in docs/", () => {
		expect(runnable.filter((snippet) => snippet.file === "README.md").length).toBeGreaterThanOrEqual(1);
		expect(runnable.length).toBeGreaterThanOrEqual(40);
	});

	for (const snippet of snippets) {
		const name = `${snippet.file}:${snippet.line}`;
		if (only && !snippet.file.includes(only)) continue;
		if (snippet.notCompiled !== undefined || snippet.notRun !== undefined) {
			it.skip(`${name} (not run: ${snippet.notRun ?? snippet.notCompiled})`, () => {});
			continue;
		}
		it.concurrent(`${name}: exits 0 when every call answers, and reports a failed call`, async () => {
			const success = await limited(() => runSnippet(snippet, "success"));
			expect(success.output, "output of the run where every call answers").not.toContain(
				"documentation test: no network",
			);
			expect(success.status, `exit code when every call answers; output:\n${success.output}`).toBe(0);
			const failure = await limited(() => runSnippet(snippet, "failure"));
			if (failure.calls === 0) return; // no model call: nothing can fail
			const reported = failure.status !== 0 || failure.output.includes(FAILURE_TEXT);
			expect(
				reported,
				`a failed call must make the example exit non-zero or print the error; it exited ${failure.status} with:\n${failure.output}`,
			).toBe(true);
		});
	}
});

// The complete program of docs/mcp.md, run as a program: tsx with this package's tsconfig, so the
// @keel/* imports resolve to the packages' source, and this package's directory as the working
// directory, where ./node_modules/.bin/mcp-server-everything is installed.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const packageDirectory = fileURLToPath(new URL("..", import.meta.url));
const documentation = readFileSync(new URL("../../../docs/mcp.md", import.meta.url), "utf8");
const scratch = mkdtempSync(join(tmpdir(), "keel-mcp-docs-"));
writeFileSync(join(scratch, "package.json"), JSON.stringify({ type: "module", private: true }));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function completeProgram(): string {
	const blocks = [...documentation.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);
	const program = blocks.find((block) => block.includes("registerFauxProvider") && block.includes("agent.prompt"));
	if (!program) throw new Error("docs/mcp.md has no complete program (a ts block with registerFauxProvider)");
	return program;
}

describe("docs/mcp.md", () => {
	it("runs its complete program and prints what the page says", () => {
		const path = join(scratch, "complete-program.ts");
		writeFileSync(path, completeProgram());
		const run = spawnSync(process.execPath, ["--import", "tsx", path], {
			cwd: packageDirectory,
			env: { ...process.env, TSX_TSCONFIG_PATH: join(packageDirectory, "tsconfig.json") },
			encoding: "utf8",
			timeout: 120_000,
		});
		expect(run.stderr).toBe("");
		const printed = /It prints `([^`]+)`/.exec(documentation)?.[1];
		expect(printed).toBeDefined();
		expect(run.stdout.trim()).toBe(printed);
		expect(run.status).toBe(0);
	});
});

// `import "@keel/agent-core"` loads the loop, the Agent and the approval gate, and no storage: the
// session code, the approval records and the proxy are behind their own entries. A fresh Node
// process records every module it resolves while it imports the root entry from source.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createModuleRecorder } from "../../ai/test/helpers/resolved-modules.js";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const sourceUrl = pathToFileURL(join(packageRoot, "src")).href;
const recorder = createModuleRecorder(packageRoot);
// The proxy leaves this package for its own; until then the root entry re-exports it.
const rootReExportsProxy = readFileSync(join(packageRoot, "src/index.ts"), "utf8").includes('from "./proxy/');

afterAll(() => {
	recorder.remove();
});

function agentModulesLoadedByRootEntry(): string[] {
	const entry = `${sourceUrl}/index.ts`;
	const modules = recorder.resolvedModules("root", `await import(${JSON.stringify(entry)});`);
	return modules.filter((url) => url.startsWith(`${sourceUrl}/`)).map((url) => url.slice(sourceUrl.length + 1));
}

// Each test spawns Node with tsx, which takes seconds on a loaded machine: hence the 60 s timeouts.
describe("what importing the root entry loads", () => {
	it("loads the Agent and the loop, but no session module and no approval store", () => {
		const loaded = agentModulesLoadedByRootEntry();
		// The entry and its core modules were really loaded (so the check below is not vacuous).
		expect(loaded).toEqual(expect.arrayContaining(["index.ts", "agent.ts", "agent-loop.ts", "approval/paused-run.ts"]));
		expect(loaded.filter((path) => path.startsWith("session/"))).toEqual([]);
		expect(loaded.filter((path) => /approval-records/.test(path))).toEqual([]);
	}, 60_000);

	it.skipIf(rootReExportsProxy)(
		"loads no proxy module",
		() => {
			expect(agentModulesLoadedByRootEntry().filter((path) => path.startsWith("proxy/"))).toEqual([]);
		},
		60_000,
	);

	it("the session entry does load the session modules (control)", () => {
		const entry = `${sourceUrl}/session/index.ts`;
		const modules = recorder.resolvedModules("session", `await import(${JSON.stringify(entry)});`);
		expect(modules).toContain(`${sourceUrl}/session/session-binding.ts`);
		expect(modules).toContain(`${sourceUrl}/session/approval-records.ts`);
	}, 60_000);
});

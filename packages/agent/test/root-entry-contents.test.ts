// The root of @keel/agent-core is the loop and the Agent: it must bundle for a browser or a Worker,
// so neither its code nor its types may reach Node's http module or the proxy, which is a package of
// its own (@keel/proxy). Two checks: a fresh Node process records every module importing the root
// resolves (the code), and the TypeScript program of the root entry lists every file its types
// reach (the declarations a user's compiler reads).
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { createModuleRecorder } from "../../ai/test/helpers/resolved-modules.js";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const rootEntry = join(packageRoot, "src", "index.ts");
const PROXY_MODULE = /\/packages\/proxy\/|\/src\/proxy\/|@keel\/proxy/;

const recorder = createModuleRecorder(packageRoot);
afterAll(() => recorder.remove());

describe("the root entry of @keel/agent-core", () => {
	it("loads no node: built-in and no proxy module when imported", () => {
		const modules = recorder.resolvedModules(
			"root",
			`const core = await import(${JSON.stringify(pathToFileURL(rootEntry).href)});
if (typeof core.Agent !== "function") throw new Error("the root did not load");`,
		);
		expect(modules.some((url) => url.endsWith("/packages/agent/src/agent.ts"))).toBe(true);
		expect(modules.filter((url) => url.startsWith("node:"))).toEqual([]);
		expect(modules.filter((url) => PROXY_MODULE.test(url))).toEqual([]);
	}, 60_000);

	it("no longer exports the proxy (it moved to @keel/proxy)", async () => {
		const core: Record<string, unknown> = await import("../src/index.js");
		for (const name of ["streamProxy", "createProxyHandler", "createFetchProxyHandler", "proxyServerTimeouts"]) {
			expect(core[name], name).toBeUndefined();
		}
	});

	it("has types that reach neither node:http nor a proxy module", () => {
		const configPath = join(packageRoot, "tsconfig.json");
		const parsed = ts.getParsedCommandLineOfConfigFile(
			configPath,
			{},
			{ ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} },
		);
		if (!parsed) throw new Error(`Could not read ${configPath}`);
		// No ambient Node types: a file that names node:http must pull @types/node's http.d.ts itself.
		const program = ts.createProgram([rootEntry], { ...parsed.options, types: [], noEmit: true });
		const files = program.getSourceFiles().map((file) => file.fileName);
		expect(files).toContain(rootEntry.replaceAll("\\", "/"));
		expect(files.filter((file) => PROXY_MODULE.test(file))).toEqual([]);
		// Keel's own files only: a vendor SDK's declarations (the AWS SDK's, behind a provider's option
		// types) may name Node's modules, and a user's compiler skips them with skipLibCheck.
		const namingHttp = program
			.getSourceFiles()
			.filter((file) => !file.fileName.includes("/node_modules/"))
			.filter((file) => /from\s+["']node:http["']|import\(["']node:http["']\)/.test(file.text))
			.map((file) => file.fileName);
		expect(namingHttp).toEqual([]);
	}, 60_000);
});

// Importing @keel/ai must not load any provider SDK: they are large (the OpenAI SDK alone takes tens
// of milliseconds to import) and a program that uses one provider should not pay for all of them.
// A fresh Node process records every module URL it resolves (a module.register resolve hook),
// imports the package entry, and the test reads the record.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const workDirectory = mkdtempSync(join(tmpdir(), "keel-lazy-loading-"));
const PROVIDER_SDK = /\/node_modules\/(@anthropic-ai\/sdk|openai|@google\/genai|@aws-sdk\/|@mistralai\/)/;

const hookPath = join(workDirectory, "record-resolutions.mjs");
writeFileSync(
	hookPath,
	`import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, nextResolve) {
	const result = await nextResolve(specifier, context);
	appendFileSync(process.env.KEEL_RESOLUTION_LOG, result.url + "\\n");
	return result;
}
`,
);
const registerPath = join(workDirectory, "register.mjs");
writeFileSync(
	registerPath,
	`import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hookPath).href)});\n`,
);

afterAll(() => {
	rmSync(workDirectory, { recursive: true, force: true });
});

/** Runs `script` as an ES module in a fresh Node (with tsx for .ts sources); returns the resolved URLs. */
function resolvedModules(name: string, script: string): string[] {
	const log = join(workDirectory, `${name}.log`);
	writeFileSync(log, "");
	const child = spawnSync(
		process.execPath,
		["--import", "tsx", "--import", pathToFileURL(registerPath).href, "--input-type=module", "-e", script],
		{ cwd: packageRoot, env: { ...process.env, KEEL_RESOLUTION_LOG: log }, encoding: "utf8", timeout: 60_000 },
	);
	if (child.status !== 0) throw new Error(`node exited with ${child.status}: ${child.stderr}`);
	return readFileSync(log, "utf8").split("\n").filter(Boolean);
}

// Each test spawns Node with tsx, which takes seconds on a loaded machine: hence the 60 s timeouts.
describe("lazy loading of provider SDKs", () => {
	it("importing @keel/ai loads no provider SDK", () => {
		const entry = pathToFileURL(join(packageRoot, "src/index.ts")).href;
		const modules = resolvedModules("index", `await import(${JSON.stringify(entry)});`);
		// The entry and its core modules were really loaded (so the check below is not vacuous).
		expect(modules).toContain(entry);
		expect(modules.some((url) => url.endsWith("/src/utils/validation.ts"))).toBe(true);
		expect(modules.filter((url) => PROVIDER_SDK.test(url))).toEqual([]);
	}, 60_000);

	it("the recorder does see an SDK when one is imported (control)", () => {
		const modules = resolvedModules("control", 'await import("openai"); await import("@anthropic-ai/sdk");');
		const sdks = modules.filter((url) => PROVIDER_SDK.test(url));
		expect(sdks.some((url) => url.includes("/node_modules/openai/"))).toBe(true);
		expect(sdks.some((url) => url.includes("/node_modules/@anthropic-ai/sdk/"))).toBe(true);
	}, 60_000);
});

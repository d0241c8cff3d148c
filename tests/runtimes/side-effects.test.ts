// The `sideEffects` field of @keel/ai tells bundlers which modules they may drop when a program
// uses nothing from them. Only the root entry has an effect on import (it registers the built-in
// providers); everything else is pure. These cases check both halves with esbuild, which reads the
// field as webpack and Rollup do, and with Node for what evaluation actually does.
import { execFile } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleFor, bundleOnlyKeel, createProjectDirectory } from "./bundle.js";
import { packageSpecifiers, readInstalledManifest } from "./package-entries.js";
import { RUNTIME_APIS } from "./stream-cases.js";

const run = promisify(execFile);
const SUBPATH_SPECIFIERS = packageSpecifiers().filter((specifier) => specifier !== "@keel/ai");
let directory: string;

beforeAll(async () => {
	directory = await createProjectDirectory();
});
afterAll(async () => {
	if (directory) await rm(directory, { recursive: true, force: true });
});

/** Runs an ES module in the project directory (so it imports the installed package) and parses its JSON output. */
async function runModule(name: string, code: string): Promise<unknown> {
	const file = join(directory, name);
	await writeFile(file, code);
	const { stdout } = await run(process.execPath, [file], { timeout: 30_000 });
	return JSON.parse(stdout);
}

describe("the sideEffects field of @keel/ai", () => {
	it("names the root entry, the one module that acts on import, in both of its builds", () => {
		// dist/index.js is what Node loads (the "node" condition), dist/module/index.js what bundlers do.
		expect(readInstalledManifest().sideEffects).toEqual(["./dist/index.js", "./dist/module/index.js"]);
	});

	it("keeps the root's registration in a bundle of a program that imports the root for its effect only", async () => {
		// `import "@keel/ai"` is how a program asks for the built-in providers without naming any
		// export: a bundler that thought the root pure would drop the whole module.
		const { code } = await bundleFor("neutral", { contents: `import "@keel/ai";` }, { plugins: [bundleOnlyKeel] });
		expect(code).toMatch(/^registerBuiltInApiProviders\(\);$/m);
	});

	it("registers the built-in providers in a bundle of a program that uses one root function", async () => {
		const { code } = await bundleFor(
			"node",
			{
				contents: `import { getApiProviders } from "@keel/ai";
console.log(JSON.stringify(getApiProviders().map((provider) => provider.api)));`,
			},
			{ minify: true },
		);
		const registered = await runModule("registration.mjs", code);
		expect(registered).toEqual(expect.arrayContaining([...RUNTIME_APIS]));
	});

	it.for(SUBPATH_SPECIFIERS)("drops %s entirely from a bundle that imports it for nothing", async (specifier) => {
		const { code } = await bundleFor(
			"neutral",
			{ contents: `import ${JSON.stringify(specifier)};` },
			{ plugins: [bundleOnlyKeel] },
		);
		expect(code.replace(/\/\/.*$/gm, "").trim()).toBe("");
	});

	it("bundles one provider's stream function without the catalogue, the registry's loaders or another provider", async () => {
		const { code, metafile } = await bundleFor("browser", {
			contents: `export { streamOpenAICompletions } from "@keel/ai/openai-completions";`,
		});
		const inputs = Object.keys(metafile.inputs);
		expect(inputs.filter((path) => /packages\/ai\/dist\/(index|providers\/(?!openai-completions))/.test(path))).toEqual(
			[],
		);
		expect(inputs.filter((path) => path.includes("node_modules/@anthropic-ai/"))).toEqual([]);
		expect(code).not.toContain("registerBuiltInApiProviders");
	});

	it.for(SUBPATH_SPECIFIERS)("finds no global and no provider added by evaluating %s", async (specifier, context) => {
		const observe = (importFirst: string) => `const before = new Set(Object.getOwnPropertyNames(globalThis));
${importFirst}
const addedGlobals = Object.getOwnPropertyNames(globalThis).filter((name) => !before.has(name));
const { getApiProviders } = await import("@keel/ai");
console.log(JSON.stringify({ addedGlobals, apis: getApiProviders().map((provider) => provider.api).sort() }));`;
		const name = context.task.id.replace(/\W/g, "_");
		const [baseline, observed] = await Promise.all([
			runModule(`baseline-${name}.mjs`, observe("")),
			runModule(`observed-${name}.mjs`, observe(`await import(${JSON.stringify(specifier)});`)),
		]);
		expect(observed).toEqual(baseline);
	});
});

// Node loads AJV and the catalogue's data from files of their own in the built package
// (dist/internal/create-ajv.cjs, dist/internal/catalogue-data.cjs) on first use, not when @keel/ai
// is imported: together they were most of the root's code, and compiling them on every import is
// cold-start time that a program that never validates a tool call or looks a model up should not pay.
import { execFile } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProjectDirectory } from "./bundle.js";

const run = promisify(execFile);
let directory: string;

beforeAll(async () => {
	directory = await createProjectDirectory();
});
afterAll(async () => {
	if (directory) await rm(directory, { recursive: true, force: true });
});

/** Runs a script in the project directory (so it imports the built package) and parses its output. */
async function runScript(name: string, code: string): Promise<unknown> {
	const script = join(directory, name);
	await writeFile(script, code);
	const { stdout, stderr } = await run(process.execPath, [script], { cwd: directory, timeout: 60_000 });
	expect(stderr).toBe("");
	return JSON.parse(stdout);
}

const LOADED_FILES = `import { createRequire } from "node:module";
const loadedCommonJs = createRequire(import.meta.url).cache;
const loaded = (name) => Object.keys(loadedCommonJs).some((path) => path.endsWith(name));`;

describe("the catalogue in Node from the built package", () => {
	it("loads its data on the first lookup, and the lookups answer as documented", async () => {
		const result = await runScript(
			"catalogue.mjs",
			`${LOADED_FILES}
const { getModel, getProviders, findModel } = await import("@keel/ai");
const afterImport = loaded("catalogue-data.cjs");
const model = getModel("anthropic", "claude-sonnet-4-6");
console.log(JSON.stringify({
	afterImport,
	afterLookup: loaded("catalogue-data.cjs"),
	model: { id: model.id, api: model.api, frozen: Object.isFrozen(model) },
	hasOpenAI: getProviders().includes("openai"),
	unknown: findModel("anthropic", "no-such-model") ?? null,
}));`,
		);
		expect(result).toEqual({
			afterImport: false,
			afterLookup: true,
			model: { id: "claude-sonnet-4-6", api: "anthropic-messages", frozen: true },
			hasOpenAI: true,
			unknown: null,
		});
	});
});

describe("tool-argument validation in Node from the built package", () => {
	it("loads AJV on the first validation, then coerces and rejects as documented", async () => {
		const result = await runScript(
			"validate.mjs",
			`${LOADED_FILES}
const ajvLoaded = () => loaded("create-ajv.cjs");
const { Type, validateToolArguments } = await import("@keel/ai");
const afterImport = ajvLoaded();
const tool = { name: "add", description: "", parameters: Type.Object({ a: Type.Number(), b: Type.Number() }) };
const coerced = validateToolArguments(tool, { type: "toolCall", id: "c1", name: "add", arguments: { a: "1", b: 2 } });
let rejected = "";
try {
	validateToolArguments(tool, { type: "toolCall", id: "c2", name: "add", arguments: { a: "one", b: 2 } });
} catch (error) {
	rejected = error.message.split("\\n")[0];
}
console.log(JSON.stringify({ afterImport, afterValidation: ajvLoaded(), coerced, rejected }));`,
		);
		expect(result).toEqual({
			afterImport: false,
			afterValidation: true,
			coerced: { a: 1, b: 2 },
			rejected: 'Validation failed for tool "add":',
		});
	});
});

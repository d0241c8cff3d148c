// Node loads AJV from its own file of the built package (dist/internal/create-ajv.cjs) on the first
// validation, not when @keel/ai is imported: AJV is most of the root's code, and compiling it on
// every import is cold-start time a program that never validates a tool call should not pay.
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

describe("tool-argument validation in Node from the built package", () => {
	it("loads AJV on the first validation, then coerces and rejects as documented", async () => {
		const script = join(directory, "validate.mjs");
		await writeFile(
			script,
			`import { createRequire } from "node:module";
const loadedCommonJs = createRequire(import.meta.url).cache;
const ajvLoaded = () => Object.keys(loadedCommonJs).some((path) => path.endsWith("create-ajv.cjs"));
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
		const { stdout, stderr } = await run(process.execPath, [script], { cwd: directory, timeout: 60_000 });
		expect(stderr).toBe("");
		expect(JSON.parse(stdout)).toEqual({
			afterImport: false,
			afterValidation: true,
			coerced: { a: 1, b: 2 },
			rejected: 'Validation failed for tool "add":',
		});
	});
});

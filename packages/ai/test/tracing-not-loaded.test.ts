// Tracing is opt-in and @opentelemetry/api an optional peer: importing @keel/ai and making calls
// must never load it; only the `@keel/ai/tracing` entry does. A fresh Node process records every
// module URL it resolves (helpers/resolved-modules.ts) and the test reads the record.
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createModuleRecorder } from "./helpers/resolved-modules.js";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const OPEN_TELEMETRY = /\/node_modules\/@opentelemetry\//;

const recorder = createModuleRecorder(packageRoot);
const { resolvedModules } = recorder;

afterAll(() => {
	recorder.remove();
});

const source = (path: string) => JSON.stringify(pathToFileURL(join(packageRoot, "src", path)).href);

// A call through the faux provider runs the whole harness (attempts, events, the terminal event).
const CALL = `
const { stream } = await import(${source("index.ts")});
const { registerFauxProvider } = await import(${source("testing/index.ts")});
const faux = registerFauxProvider({ responses: ["hello"] });
const message = await stream(faux.getModel(), { messages: [{ role: "user", content: "hi", timestamp: 0 }] }).result();
if (message.stopReason !== "stop") throw new Error("the call failed: " + message.errorMessage);
`;

// Each test spawns Node with tsx, which takes seconds on a loaded machine: hence the 60 s timeouts.
describe("OpenTelemetry stays unloaded unless tracing is used", () => {
	it("importing @keel/ai and streaming a call loads no @opentelemetry module", () => {
		const modules = resolvedModules("call", CALL);
		expect(modules.some((url) => url.endsWith("/src/call/retry-loop.ts"))).toBe(true);
		expect(modules.filter((url) => OPEN_TELEMETRY.test(url))).toEqual([]);
	}, 60_000);

	it("the recorder does see @opentelemetry/api when @keel/ai/tracing is imported (control)", () => {
		const modules = resolvedModules("control", `await import(${source("tracing/index.ts")});`);
		expect(modules.some((url) => url.includes("/node_modules/@opentelemetry/api/"))).toBe(true);
	}, 60_000);
});

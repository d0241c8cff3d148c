// Cold start: fresh Node processes against an empty `node -e ""`, the median of RUNS each.
//   - `import("@keel/ai")` (target: at most +50 ms), and the dependencies it bundles, alone;
//   - import plus the first validateToolArguments (AJV is created then, not at import);
//   - import plus the first call into each implemented provider, answered by the local wire-test
//     server running in this process (target: at most +150 ms).
// Also lists the packages the import loads from node_modules: no provider SDK may be among them.
// Measures the built package (packages/ai/dist); builds it when missing or older than the source.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { WireTestServer } from "../../packages/ai/src/testing/wire-test-server.js";
import { FIRST_CALL_APIS, type FirstCallApi, helloBody } from "./cold-import-bodies.js";
import { printTable } from "./measure.js";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "../../packages/ai");
const builtEntry = join(packageRoot, "dist/index.js");
const RUNS = 9;
const IMPORT_BUDGET_MS = 50;
const FIRST_CALL_BUDGET_MS = 150;
const PROVIDER_SDK = /\/node_modules\/(@anthropic-ai\/sdk|openai|@google\/genai|@aws-sdk\/|@mistralai\/)/;

// Children get no provider keys or endpoints from this shell, so nothing can reach a real API.
const childEnvironment: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };

function newestSourceTime(directory: string): number {
	let newest = 0;
	for (const entry of readdirSync(directory, { withFileTypes: true })) {
		const path = join(directory, entry.name);
		newest = Math.max(newest, entry.isDirectory() ? newestSourceTime(path) : statSync(path).mtimeMs);
	}
	return newest;
}

/** Builds dist when it is missing or stale; a failed build of a stale dist is reported, not fatal. */
function ensureBuilt(): string {
	const stale = existsSync(builtEntry) && statSync(builtEntry).mtimeMs < newestSourceTime(join(packageRoot, "src"));
	if (existsSync(builtEntry) && !stale) return "dist is up to date";
	const build = spawnSync("npx", ["-y", "pnpm@10.34.9", "run", "build"], { cwd: packageRoot, encoding: "utf8" });
	if (build.status === 0) return "dist was (re)built for this run";
	if (!existsSync(builtEntry)) throw new Error(`cold-import: building @keel/ai failed:\n${build.stderr}`);
	return "WARNING: dist is older than src and the rebuild failed; figures are for the old build";
}

/**
 * Runs a fresh Node and times it from spawn to exit. Asynchronous (not spawnSync) because the
 * wire-test server answering the child's first call runs on this process's event loop.
 */
function runNode(args: string[], env = childEnvironment): Promise<{ wallMs: number; stdout: string }> {
	return new Promise((resolve, reject) => {
		const start = performance.now();
		const child = spawn(process.execPath, args, { cwd: packageRoot, env });
		let stdout = "";
		let stderr = "";
		child.stdout.setEncoding("utf8").on("data", (text: string) => {
			stdout += text;
		});
		child.stderr.setEncoding("utf8").on("data", (text: string) => {
			stderr += text;
		});
		child.on("error", reject);
		child.on("close", (code) => {
			const wallMs = performance.now() - start;
			if (code === 0) resolve({ wallMs, stdout });
			else reject(new Error(`cold-import: node ${args.join(" ")} exited with ${code}:\n${stderr}`));
		});
	});
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/** What a child prints: time from before its first import to the end of its work, and CPU used. */
interface ChildFigures {
	inProcessMs: number;
	cpuMs: number;
}

interface Case {
	name: string;
	/** The body of the child's ES module script; undefined for the empty process. */
	script?: string;
	/** Queued on the wire-test server before this case's child starts. */
	response?: string;
	budgetMs?: number;
}

/** Wraps `work` in the timing every child reports, so each row measures the same thing. */
function timedScript(work: string): string {
	return `const cpu = process.cpuUsage(); const start = performance.now();
${work}
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ inProcessMs: performance.now() - start, cpuMs: (used.user + used.system) / 1000 }));`;
}

function importScript(specifiers: string[]): string {
	return timedScript(specifiers.map((specifier) => `await import(${JSON.stringify(specifier)});`).join("\n"));
}

const firstValidationScript = timedScript(`const { Type, validateToolArguments } = await import("@keel/ai");
const tool = { name: "add", description: "", parameters: Type.Object({ a: Type.Number(), b: Type.Number() }) };
const args = validateToolArguments(tool, { type: "toolCall", id: "call_1", name: "add", arguments: { a: "1", b: 2 } });
if (args.a !== 1) throw new Error("cold-import: validation did not coerce " + JSON.stringify(args));`);

const providerOf: Record<FirstCallApi, string> = {
	"anthropic-messages": "anthropic",
	"openai-completions": "openai",
	"openai-responses": "openai",
	"azure-openai-responses": "azure-openai-responses",
};

/** Import, then one `complete()` through `api` against the server; fails unless it answered "Hello". */
function firstCallScript(api: FirstCallApi, baseUrl: string): string {
	const model = {
		id: "cold-model",
		name: "Cold start",
		api,
		provider: providerOf[api],
		baseUrl,
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 100_000,
		maxTokens: 1_000,
	};
	return timedScript(`const { complete } = await import("@keel/ai");
const context = { messages: [{ role: "user", content: "Hi", timestamp: 0 }] };
const message = await complete(${JSON.stringify(model)}, context, { apiKey: "cold-start-bench-key" });
const text = message.content.map((block) => block.text ?? "").join("");
if (message.stopReason !== "stop" || text !== "Hello") {
	throw new Error("cold-import: first call ended " + message.stopReason + ": " + (message.errorMessage ?? text));
}`);
}

/** The module URLs a fresh process resolves while importing @keel/ai (a module.register hook). */
async function resolvedModules(): Promise<string[]> {
	const directory = mkdtempSync(join(tmpdir(), "keel-cold-import-"));
	try {
		const hook = join(directory, "hook.mjs");
		writeFileSync(
			hook,
			`import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, nextResolve) {
	const result = await nextResolve(specifier, context);
	appendFileSync(process.env.KEEL_RESOLUTION_LOG, result.url + "\\n");
	return result;
}
`,
		);
		const register = join(directory, "register.mjs");
		writeFileSync(
			register,
			`import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`,
		);
		const log = join(directory, "resolved.log");
		writeFileSync(log, "");
		await runNode(["--import", pathToFileURL(register).href, "--input-type=module", "-e", 'await import("@keel/ai")'], {
			...childEnvironment,
			KEEL_RESOLUTION_LOG: log,
		});
		return [...new Set(readFileSync(log, "utf8").split("\n").filter(Boolean))];
	} finally {
		rmSync(directory, { recursive: true, force: true });
	}
}

function packageNameOf(url: string): string | undefined {
	const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url.slice(url.lastIndexOf("/node_modules/")));
	return match?.[1];
}

export default async function (): Promise<void> {
	console.log(ensureBuilt());
	const server = await WireTestServer.start();
	try {
		const cases: Case[] = [
			{ name: 'node -e "" (no import)' },
			{ name: "@sinclair/typebox alone, from node_modules", script: importScript(["@sinclair/typebox"]) },
			{ name: "ajv + ajv-formats alone, from node_modules", script: importScript(["ajv", "ajv-formats"]) },
			{ name: "@keel/ai", script: importScript(["@keel/ai"]), budgetMs: IMPORT_BUDGET_MS },
			{ name: "@keel/ai + first validateToolArguments", script: firstValidationScript },
			...FIRST_CALL_APIS.map((api) => ({
				name: `@keel/ai + first call: ${api}`,
				script: firstCallScript(api, server.url),
				response: helloBody(api),
				budgetMs: FIRST_CALL_BUDGET_MS,
			})),
		];
		const wall = cases.map(() => [] as number[]);
		const inside = cases.map(() => [] as ChildFigures[]);
		// Interleaved runs, so a burst of load on the machine hits every case alike.
		for (let run = 0; run < RUNS; run++) {
			for (const [index, testCase] of cases.entries()) {
				if (testCase.response) server.enqueue({ body: testCase.response });
				const child = await runNode(testCase.script ? ["--input-type=module", "-e", testCase.script] : ["-e", ""]);
				wall[index].push(child.wallMs);
				if (testCase.script)
					inside[index].push(JSON.parse(child.stdout.trim().split("\n").pop() ?? "") as ChildFigures);
			}
		}
		const emptyWall = median(wall[0]);
		printTable(
			cases.map((testCase, index) => {
				const overEmpty = median(wall[index]) - emptyWall;
				return {
					"fresh process": testCase.name,
					"median wall ms": median(wall[index]),
					"over empty ms": index === 0 ? "-" : overEmpty,
					target: testCase.budgetMs
						? `≤ ${testCase.budgetMs} ${overEmpty <= testCase.budgetMs ? "met" : "MISSED"}`
						: "",
					"in-process ms": index === 0 ? "-" : median(inside[index].map((figure) => figure.inProcessMs)),
					"in-process CPU ms": index === 0 ? "-" : median(inside[index].map((figure) => figure.cpuMs)),
				};
			}),
		);
		console.log(
			"(wall: spawn to exit, as seen by this process; in-process: from before the first import to the end of the work)",
		);
	} finally {
		await server.close();
	}

	const modules = await resolvedModules();
	const packages = new Map<string, number>();
	for (const url of modules) {
		const name = url.includes("/node_modules/") ? packageNameOf(url) : undefined;
		if (name) packages.set(name, (packages.get(name) ?? 0) + 1);
	}
	const sdks = modules.filter((url) => PROVIDER_SDK.test(url));
	console.log(
		`\nESM modules resolved by import("@keel/ai"): ${modules.length}; from node_modules: ${packages.size === 0 ? "none (TypeBox and AJV are bundled into dist)" : [...packages].map(([name, count]) => `${name} (${count})`).join(", ")}`,
	);
	if (sdks.length > 0) throw new Error(`cold-import: importing @keel/ai loaded a provider SDK: ${sdks.join(", ")}`);
}

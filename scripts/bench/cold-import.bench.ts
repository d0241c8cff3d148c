// Cold start: fresh Node processes against an empty one, the median of RUNS each.
//   - `import("@keel/ai")` (target: at most +50 ms), and the dependencies it bundles, alone;
//   - import plus the first validateToolArguments (AJV is created then, not at import);
//   - import, a catalogue lookup and the first call into each implemented provider, answered by
//     the local wire-test server running in this process (Bedrock: a local HTTP server sending
//     event-stream frames) (target: at most +150 ms), next to the
//     floor of any first call: one plain fetch from an empty process (Node loads fetch on first use).
// Wall time is spawn to exit. Each process also reports the CPU it used by its exit, which a busy
// machine changes far less than wall time: when the two disagree, the machine was busy.
// Also lists the packages the import loads from node_modules: no provider SDK may be among them.
// Measures the built package (packages/ai/dist); builds it when missing or older than the source.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { WireTestServer } from "../../packages/ai/src/testing/wire-test-server.js";
import { startBedrockServer } from "../../packages/ai/test/providers/bedrock-converse-stream/bedrock-test-server.js";
import { BEDROCK_HELLO_FRAMES, FIRST_CALL_APIS, type FirstCallApi, helloBody } from "./cold-import-bodies.js";
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
	/** CPU of the whole process, start-up included, when it exits. */
	processCpuMs: number;
}

interface Case {
	name: string;
	/** The child's ES module script. */
	script: string;
	/** Queued on the wire-test server before this case's child starts. */
	response?: string;
	budgetMs?: number;
}

// Every child, the empty one included, reports its whole CPU time when it exits.
const REPORT_PROCESS_CPU = `process.on("exit", () => {
	const used = process.cpuUsage();
	console.log(JSON.stringify({ processCpuMs: (used.user + used.system) / 1000 }));
});`;

/** Wraps `work` in the timing every child reports, so each row measures the same thing. */
function timedScript(work: string): string {
	return `${REPORT_PROCESS_CPU}
const start = performance.now();
${work}
console.log(JSON.stringify({ inProcessMs: performance.now() - start }));`;
}

/** The figures a child printed: one JSON line after its work, one at its exit. */
function childFigures(stdout: string): ChildFigures {
	const figures: ChildFigures = { inProcessMs: 0, processCpuMs: 0 };
	for (const line of stdout.split("\n")) if (line.startsWith("{")) Object.assign(figures, JSON.parse(line));
	return figures;
}

/** The floor of any first call: one fetch of a body from the server by an empty process, no Keel. */
function plainFetchScript(baseUrl: string): string {
	return timedScript(`const response = await fetch(${JSON.stringify(baseUrl)}, { method: "POST", body: "{}" });
await response.text();`);
}

function importScript(specifiers: string[]): string {
	return timedScript(specifiers.map((specifier) => `await import(${JSON.stringify(specifier)});`).join("\n"));
}

const firstValidationScript = timedScript(`const { Type, validateToolArguments } = await import("@keel/ai");
const tool = { name: "add", description: "", parameters: Type.Object({ a: Type.Number(), b: Type.Number() }) };
const args = validateToolArguments(tool, { type: "toolCall", id: "call_1", name: "add", arguments: { a: "1", b: 2 } });
if (args.a !== 1) throw new Error("cold-import: validation did not coerce " + JSON.stringify(args));`);

// A catalogue model per API, as a program would pick one; only its baseUrl is changed, to the server.
const catalogueModelFor: Record<FirstCallApi | "bedrock-converse-stream", [provider: string, modelId: string]> = {
	"anthropic-messages": ["anthropic", "claude-sonnet-4-5"],
	"openai-completions": ["groq", "llama-3.3-70b-versatile"],
	"openai-responses": ["openai", "gpt-4.1"],
	"azure-openai-responses": ["azure-openai-responses", "gpt-4.1"],
	"mistral-conversations": ["mistral", "mistral-large-latest"],
	"google-generative-ai": ["google", "gemini-2.5-flash"],
	"google-vertex": ["google-vertex", "gemini-2.5-flash"],
	"bedrock-converse-stream": ["amazon-bedrock", "anthropic.claude-sonnet-4-20250514-v1:0"],
};

/**
 * Import, look a model up, then one `complete()` through `api` against the server: what a program's
 * first call costs. Fails unless the call answered "Hello".
 */
function firstCallScript(
	api: FirstCallApi | "bedrock-converse-stream",
	baseUrl: string,
	extraOptions: Record<string, string> = {},
): string {
	const [provider, modelId] = catalogueModelFor[api];
	const options = { apiKey: "cold-start-bench-key", ...extraOptions };
	return timedScript(`const { complete, getModel } = await import("@keel/ai");
const model = { ...getModel(${JSON.stringify(provider)}, ${JSON.stringify(modelId)}), baseUrl: ${JSON.stringify(baseUrl)} };
if (model.api !== ${JSON.stringify(api)}) throw new Error("cold-import: the catalogue model speaks " + model.api);
const context = { messages: [{ role: "user", content: "Hi", timestamp: 0 }] };
const message = await complete(model, context, ${JSON.stringify(options)});
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
	const bedrockServer = await startBedrockServer(() => ({ frames: [...BEDROCK_HELLO_FRAMES] }));
	try {
		const cases: Case[] = [
			{ name: "empty node (no import)", script: REPORT_PROCESS_CPU },
			{ name: "@sinclair/typebox alone, from node_modules", script: importScript(["@sinclair/typebox"]) },
			{ name: "ajv + ajv-formats alone, from node_modules", script: importScript(["ajv", "ajv-formats"]) },
			{ name: "@keel/ai", script: importScript(["@keel/ai"]), budgetMs: IMPORT_BUDGET_MS },
			{ name: "@keel/ai + first validateToolArguments", script: firstValidationScript },
			{
				name: "one plain fetch, no Keel (floor of a first call)",
				script: plainFetchScript(server.url),
				response: helloBody("openai-completions"),
			},
			...FIRST_CALL_APIS.map((api) => ({
				name: `@keel/ai + first call: ${api}`,
				script: firstCallScript(api, server.url),
				response: helloBody(api),
				budgetMs: FIRST_CALL_BUDGET_MS,
			})),
			{
				// The API key is sent as a Bedrock bearer key, so no credential chain is read; the region
				// is given so no profile region is looked for in ~/.aws.
				name: "@keel/ai + first call: bedrock-converse-stream",
				script: firstCallScript("bedrock-converse-stream", bedrockServer.url, { region: "us-east-1" }),
				budgetMs: FIRST_CALL_BUDGET_MS,
			},
		];
		const wall = cases.map(() => [] as number[]);
		const inside = cases.map(() => [] as ChildFigures[]);
		// Interleaved runs, so a burst of load on the machine hits every case alike.
		for (let run = 0; run < RUNS; run++) {
			for (const [index, testCase] of cases.entries()) {
				if (testCase.response) server.enqueue({ body: testCase.response });
				const child = await runNode(["--input-type=module", "-e", testCase.script]);
				wall[index].push(child.wallMs);
				inside[index].push(childFigures(child.stdout));
			}
		}
		const emptyWall = median(wall[0]);
		const emptyCpu = median(inside[0].map((figure) => figure.processCpuMs));
		const verdict = (figure: number, budget: number) => (figure <= budget ? "met" : "MISSED");
		printTable(
			cases.map((testCase, index) => {
				const cpu = median(inside[index].map((figure) => figure.processCpuMs));
				const wallOverEmpty = median(wall[index]) - emptyWall;
				const inProcess = median(inside[index].map((figure) => figure.inProcessMs));
				const budget = testCase.budgetMs;
				return {
					"fresh process": testCase.name,
					"wall ms": median(wall[index]),
					"wall over empty": index === 0 ? "-" : wallOverEmpty,
					"CPU ms": cpu,
					"CPU over empty": index === 0 ? "-" : cpu - emptyCpu,
					"in-process ms": index === 0 ? "-" : inProcess,
					target: budget
						? `+${budget}: wall ${verdict(wallOverEmpty, budget)}, CPU ${verdict(cpu - emptyCpu, budget)}, in-process ${verdict(inProcess, budget)}`
						: "",
				};
			}),
		);
		console.log(
			"wall: spawn to exit, seen from this process · CPU: the child's own, at its exit · in-process: from before the first import to the end of the work",
		);
	} finally {
		await server.close();
		await bedrockServer.close();
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

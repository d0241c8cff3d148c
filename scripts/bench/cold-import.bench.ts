// Cold `import("@keel/ai")` in a fresh Node process, against an empty `node -e ""`, and which
// packages that import loads: provider SDKs must not be among them (they load on first use).
// Measures the built package (packages/ai/dist); builds it when missing or older than the source.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { printTable } from "./measure.js";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "../../packages/ai");
const builtEntry = join(packageRoot, "dist/index.js");
const RUNS = 9;
const PROVIDER_SDK = /\/node_modules\/(@anthropic-ai\/sdk|openai|@google\/genai|@aws-sdk\/|@mistralai\/)/;

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

function runNode(args: string[], env: NodeJS.ProcessEnv = process.env): { wallMs: number; stdout: string } {
	const start = performance.now();
	const child = spawnSync(process.execPath, args, { cwd: packageRoot, env, encoding: "utf8" });
	const wallMs = performance.now() - start;
	if (child.status !== 0) throw new Error(`cold-import: node ${args.join(" ")} failed:\n${child.stderr}`);
	return { wallMs, stdout: child.stdout };
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/** The module URLs a fresh process resolves while importing @keel/ai (a module.register hook). */
function resolvedModules(): string[] {
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
		runNode(["--import", pathToFileURL(register).href, "--input-type=module", "-e", 'await import("@keel/ai")'], {
			...process.env,
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

interface ImportFigures {
	wallMs: number;
	importMs: number;
	importCpuMs: number;
}

/**
 * Spawns a fresh Node that imports `specifiers` and reports the import's wall and CPU time. CPU
 * time is printed too because wall time on a busy machine mostly measures the other processes.
 */
function measureImport(specifiers: string[]): ImportFigures {
	const imports = specifiers.map((specifier) => `await import(${JSON.stringify(specifier)});`).join(" ");
	const script = `const cpu = process.cpuUsage(); const start = performance.now(); ${imports}
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ importMs: performance.now() - start, importCpuMs: (used.user + used.system) / 1000 }));`;
	const run = runNode(["--input-type=module", "-e", script]);
	return { wallMs: run.wallMs, ...(JSON.parse(run.stdout) as Omit<ImportFigures, "wallMs">) };
}

export default async function (): Promise<void> {
	console.log(ensureBuilt());
	const cases: [string, string[]][] = [
		['node -e "" (no import)', []],
		["@sinclair/typebox alone", ["@sinclair/typebox"]],
		["ajv + ajv-formats alone", ["ajv", "ajv-formats"]],
		["@keel/ai", ["@keel/ai"]],
	];
	const figures = cases.map(() => [] as ImportFigures[]);
	// Interleaved runs, so a burst of load on the machine hits every case alike.
	for (let run = 0; run < RUNS; run++) {
		cases.forEach(([, specifiers], index) => {
			figures[index].push(measureImport(specifiers));
		});
	}
	const emptyWall = median(figures[0].map((figure) => figure.wallMs));
	printTable(
		cases.map(([name], index) => {
			const wall = median(figures[index].map((figure) => figure.wallMs));
			return {
				"fresh process importing": name,
				"median wall ms": wall,
				"wall over empty ms": index === 0 ? "-" : wall - emptyWall,
				"import() ms": index === 0 ? "-" : median(figures[index].map((figure) => figure.importMs)),
				"import() CPU ms": index === 0 ? "-" : median(figures[index].map((figure) => figure.importCpuMs)),
			};
		}),
	);

	const modules = resolvedModules();
	const packages = new Map<string, number>();
	for (const url of modules) {
		const name = url.includes("/node_modules/") ? packageNameOf(url) : undefined;
		if (name) packages.set(name, (packages.get(name) ?? 0) + 1);
	}
	const sdks = modules.filter((url) => PROVIDER_SDK.test(url));
	console.log(
		`\nESM modules resolved by import("@keel/ai"): ${modules.length} (CommonJS require()s inside ajv are not seen); provider SDK modules: ${sdks.length === 0 ? "none" : sdks.join(", ")}`,
	);
	printTable([...packages].map(([name, count]) => ({ "package loaded on import": name, "ESM modules": count })));
	if (sdks.length > 0) throw new Error("cold-import: importing @keel/ai loaded a provider SDK");
}

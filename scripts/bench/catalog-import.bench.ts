// What the model catalogue costs at import: `import("@keel/ai")` in a fresh Node process, bundled
// the way tsup builds it, once with the generated catalogue and once with an empty one. Also the
// in-process cost of the first getModel call (the registry is built and frozen lazily, on first use).
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { printTable } from "./measure.js";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "../../packages/ai");
const RUNS = 11;

type Esbuild = typeof import("esbuild");

// esbuild comes with tsup (the package's bundler); it is not a direct dependency of the root.
function loadEsbuild(): Esbuild {
	const fromRoot = createRequire(join(packageRoot, "../../package.json"));
	const fromTsup = createRequire(fromRoot.resolve("tsup"));
	return fromTsup("esbuild") as Esbuild;
}

/**
 * Bundles src/index.ts into `outdir` as tsup does (providers in their own chunks, loaded on first
 * call); `emptyCatalogue` swaps in an empty catalogue. Returns the entry file.
 */
async function bundle(esbuild: Esbuild, outdir: string, emptyCatalogue: boolean): Promise<string> {
	await esbuild.build({
		entryPoints: { index: join(packageRoot, "src/index.ts") },
		outdir,
		outExtension: { ".js": ".mjs" },
		splitting: true,
		bundle: true,
		format: "esm",
		platform: "node",
		target: "node20",
		// Like tsup.config.ts: TypeBox and AJV bundled in, the provider SDKs left outside.
		external: ["@anthropic-ai/*", "openai", "openai/*", "@google/*", "@aws-sdk/*", "@mistralai/*"],
		logLevel: "silent",
		plugins: emptyCatalogue
			? [
					{
						name: "empty-catalogue",
						setup(build) {
							build.onLoad({ filter: /models\.generated\.ts$/ }, () => ({
								contents: "export const GENERATED_PROVIDER_DATA = {};",
								loader: "ts",
							}));
						},
					},
				]
			: [],
	});
	return join(outdir, "index.mjs");
}

interface Figures {
	importMs: number;
	importCpuMs: number;
	firstLookupMs: number;
}

function measure(entry: string, lookup: boolean): Figures {
	const lookupCode = lookup
		? `const before = performance.now(); module.getModel("anthropic", "claude-sonnet-4-5"); module.getProviders(); const firstLookupMs = performance.now() - before;`
		: "const firstLookupMs = 0;";
	const script = `const cpu = process.cpuUsage(); const start = performance.now();
const module = await import(${JSON.stringify(pathToFileURL(entry).href)});
const importMs = performance.now() - start; const used = process.cpuUsage(cpu);
${lookupCode}
console.log(JSON.stringify({ importMs, importCpuMs: (used.user + used.system) / 1000, firstLookupMs }));`;
	const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
		cwd: packageRoot,
		encoding: "utf8",
	});
	if (child.status !== 0) throw new Error(`catalog-import: node failed:\n${child.stderr}`);
	return JSON.parse(child.stdout) as Figures;
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

export default async function (): Promise<void> {
	// Inside packages/ai/node_modules, so the bundles' bare imports resolve to the package's dependencies.
	const directory = join(packageRoot, "node_modules", ".keel-bench-catalog");
	mkdirSync(directory, { recursive: true });
	try {
		const esbuild = loadEsbuild();
		const withCatalogue = await bundle(esbuild, join(directory, "with-catalogue"), false);
		const withoutCatalogue = await bundle(esbuild, join(directory, "without-catalogue"), true);

		const cases: [string, string, boolean][] = [
			["@keel/ai with the catalogue", withCatalogue, true],
			["@keel/ai with an empty catalogue", withoutCatalogue, false],
		];
		const figures = cases.map(() => [] as Figures[]);
		// Interleaved, so load on the machine hits both cases alike.
		for (let run = 0; run < RUNS; run++) {
			cases.forEach(([, entry, lookup], index) => {
				figures[index].push(measure(entry, lookup));
			});
		}
		const { statSync } = await import("node:fs");
		printTable(
			cases.map(([name, entry, lookup], index) => ({
				"fresh process importing": name,
				"entry KB": statSync(entry).size / 1024,
				"import() ms": median(figures[index].map((figure) => figure.importMs)),
				"import() CPU ms": median(figures[index].map((figure) => figure.importCpuMs)),
				"first getModel ms": lookup ? median(figures[index].map((figure) => figure.firstLookupMs)) : "-",
			})),
		);
	} finally {
		rmSync(directory, { recursive: true, force: true });
	}
}
